/**
 * Agents over the memory server's tools, driven by the scripted model. In combined mode: native
 * calls, a native preview of a cached read, a program answered from the same cache, and the
 * destructive tools never cached; then PTC-Lisp mode and text mode over the same tools.
 */
import { type AgentEvent, createAgent, type Message, run } from "@ptc/agent";
import { createScriptedModel } from "@ptc/agent/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { processGone } from "../__tests__/processes.js";
import { type ReferenceServers, referenceServers } from "../__tests__/reference-servers.js";
import { unframed } from "../__tests__/unframed.js";
import { connectMcpServer, type McpConnection } from "./connection.js";

// Starting servers and building the command can take a while on a loaded machine.
vi.setConfig({ hookTimeout: 60_000 });

let servers: ReferenceServers;
let memory: McpConnection;

beforeAll(async () => {
  servers = referenceServers();
  memory = await connectMcpServer("memory", {
    ...servers.memory,
    // Every tool callable both ways; the read-only ones cached (a server-wide cache covers only
    // tools that say they only read), and delete_entities asked for explicitly, in vain.
    ptc: { expose: "both", cache: true, tools: { delete_entities: { cache: true } } },
  });
});

afterAll(async () => {
  const pid = memory.pid;
  await memory.close();
  if (pid !== undefined) await processGone(pid);
  servers.cleanup();
});

function toolBodies(messages: readonly Message[] | undefined): Record<string, unknown>[] {
  return (messages ?? [])
    .filter((message) => message.role === "tool")
    .map((message) => unframed(JSON.parse(message.content ?? "null")));
}

describe("an agent in combined mode over MCP tools", () => {
  it("caches only tools that may be cached, never a destructive one", () => {
    expect(memory.tools.memory__read_graph?.cache).toBe(true);
    expect(memory.tools.memory__search_nodes?.cache).toBe(true);
    expect(memory.tools.memory__create_entities?.cache).toBe(false);
    expect(memory.tools.memory__delete_entities?.mcp.annotations.destructiveHint).toBe(true);
    expect(memory.tools.memory__delete_entities?.cache).toBe(false);
  });

  it("previews a native read, then a program reads the full result from the shared cache", async () => {
    const agent = createAgent({
      prompt: "Which people do you remember?",
      output: "text",
      ptcTransport: "tool_call",
      tools: memory.tools,
      maxTurns: 6,
    });
    const model = createScriptedModel([
      {
        toolCalls: [
          {
            id: "c1",
            name: "memory__create_entities",
            args: {
              entities: [
                { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
                { name: "Grace", entityType: "person", observations: ["wrote a compiler"] },
                { name: "Analytical Engine", entityType: "machine", observations: [] },
              ],
            },
          },
        ],
      },
      { toolCalls: [{ id: "c2", name: "memory__read_graph", args: {} }] },
      {
        toolCalls: [
          {
            id: "c3",
            name: "lisp_eval",
            args: {
              program:
                '(->> (tool/memory__read_graph {}) :entities (filter #(= (:entityType %) "person")) (map :name) sort)',
            },
          },
        ],
      },
      "I remember Ada and Grace.",
    ]);
    const events: AgentEvent[] = [];
    const result = await run(agent, { llm: model.llm, onEvent: (event) => events.push(event) });
    model.assertConsumed();
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe("I remember Ada and Grace.");

    // The native tools the model was offered are the server's own schemas, plus lisp_eval.
    const offered = (model.calls[0]?.tools ?? []).map((tool) => tool.function.name);
    expect(offered).toContain("memory__read_graph");
    expect(offered).toContain("lisp_eval");

    const bodies = toolBodies(model.calls[3]?.messages);
    // The uncached write answers with its data, not an MCP envelope.
    expect(bodies[0]).toMatchObject({
      entities: [{ name: "Ada" }, { name: "Grace" }, { name: "Analytical Engine" }],
    });
    expect(bodies[0]).not.toHaveProperty("content");
    // The cached read answers with a preview; the rows wait in the cache.
    expect(bodies[1]).toMatchObject({ status: "ok", full_result_cached: true });
    expect(bodies[1]).not.toHaveProperty("entities");
    expect(bodies[2]).toMatchObject({ status: "ok", result: 'user=> ["Ada" "Grace"]' });

    const reads = events.flatMap((event) =>
      event.type === "tool-call-end" && event.toolName === "memory__read_graph"
        ? [[event.exposureLayer, event.cached]]
        : [],
    );
    expect(reads).toEqual([
      ["native", false],
      ["ptc_lisp", true],
    ]);
  });

  it("works in PTC-Lisp mode: a fenced program calls the tools", async () => {
    const agent = createAgent({
      prompt: "How many entities are stored?",
      signature: ":int",
      tools: memory.tools,
    });
    const model = createScriptedModel([
      "```clojure\n(return (count (:entities (tool/memory__read_graph {}))))\n```",
    ]);
    const result = await run(agent, { llm: model.llm });
    model.assertConsumed();
    expect(result.ok).toBe(true);
    expect(result.step.return).toBeGreaterThanOrEqual(3);
  });

  it("works in text mode: the model reads a server's isError text as the tool's error", async () => {
    const agent = createAgent({ prompt: "Add a note to Zed.", output: "text", tools: memory.tools });
    const model = createScriptedModel([
      {
        toolCalls: [
          {
            id: "t1",
            name: "memory__add_observations",
            args: { observations: [{ entityName: "Zed", contents: ["likes tea"] }] },
          },
        ],
      },
      "Zed is not in memory.",
    ]);
    const result = await run(agent, { llm: model.llm });
    model.assertConsumed();
    expect(result.step.return).toBe("Zed is not in memory.");
    const toolMessage = (model.calls[1]?.messages ?? []).find((message) => message.role === "tool");
    expect(toolMessage?.content).toContain("Entity with name Zed not found");
  });
});
