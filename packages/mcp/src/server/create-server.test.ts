/**
 * The server in code, over the SDK's in-memory transport with the SDK's client: combined mode
 * over upstream MCP tools (`expose: "both"`), structured content, the bound on concurrent
 * evaluations, and the tool list following an upstream's list changes.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fixture } from "../__tests__/built-cli.js";
import { processGone } from "../__tests__/processes.js";
import { type ReferenceServers, referenceServers } from "../__tests__/reference-servers.js";
import { unframed } from "../__tests__/unframed.js";
import { connectMcpServers, type McpServerGroup } from "../client/server-group.js";
import { createPtcMcpServer, type PtcMcpServerOptions } from "./create-server.js";

// Starting servers and building the command can take a while on a loaded machine.
vi.setConfig({ hookTimeout: 60_000 });

let servers: ReferenceServers;
let upstreams: McpServerGroup;
const slowStderr: string[] = [];

beforeAll(async () => {
  servers = referenceServers();
  upstreams = await connectMcpServers(
    {
      memory: { ...servers.memory, ptc: { cache: true } },
      paged: { command: process.execPath, args: [fixture("fake-server.mjs"), "paged"] },
      slow: { command: process.execPath, args: [fixture("fake-server.mjs"), "well"] },
    },
    { onStderrLine: (server, line) => server === "slow" && slowStderr.push(line) },
  );
});
afterAll(async () => {
  const pids = Object.values(upstreams.connections).map((connection) => connection.pid);
  await upstreams.close();
  for (const pid of pids) if (pid !== undefined) expect(await processGone(pid)).toBe(true);
  servers.cleanup();
});

async function connected(options: PtcMcpServerOptions) {
  const server = createPtcMcpServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "in-memory", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

function payload(result: unknown): Record<string, unknown> {
  return unframed(JSON.parse((result as { content: { text: string }[] }).content[0]?.text ?? "null"));
}

describe("combined mode over MCP", () => {
  it("lists upstream tools natively with their schemas and annotations, and previews cached reads", async () => {
    const { client, close } = await connected({ upstreams, expose: "both" });
    try {
      const { tools } = await client.listTools();
      const readGraph = tools.find((tool) => tool.name === "memory__read_graph");
      expect(readGraph?.annotations).toMatchObject({ readOnlyHint: true });
      const create = tools.find((tool) => tool.name === "memory__create_entities");
      expect(create?.inputSchema.required).toEqual(["entities"]);
      expect(tools.find((tool) => tool.name === "lisp_eval")?.description).toContain(
        "Call no other tool in the same turn",
      );

      await client.callTool({
        name: "memory__create_entities",
        arguments: { entities: [{ name: "Lin", entityType: "person", observations: [] }] },
      });
      const preview = payload(await client.callTool({ name: "memory__read_graph", arguments: {} }));
      expect(preview).toMatchObject({ status: "ok", full_result_cached: true });
      expect(preview.cache_hint).toContain("(tool/memory__read_graph {})");
      const counted = payload(
        await client.callTool({
          name: "lisp_eval",
          arguments: { program: "(count (:entities (tool/memory__read_graph {})))" },
        }),
      );
      expect(counted).toMatchObject({ status: "ok", result: "user=> 1" });
    } finally {
      await close();
    }
  });
});

describe("the tool catalog", () => {
  it("summarizes descriptions past 8 tools, and describe_tool gives the rest to programs", async () => {
    const { client, close } = await connected({ upstreams });
    try {
      const description = (await client.listTools()).tools[0]?.description ?? "";
      expect(description).toContain("Descriptions above are first sentences");
      expect(description).not.toContain("- tool/describe_tool");
      const described = payload(
        await client.callTool({
          name: "lisp_eval",
          arguments: {
            program: '(select-keys (tool/describe_tool {:name "memory__search_nodes"}) [:name :signature])',
          },
        }),
      );
      expect(described.result).toContain(':name "memory__search_nodes"');
      expect(described.result).toContain("(query :string)");
      const missing = payload(
        await client.callTool({
          name: "lisp_eval",
          arguments: { program: '(tool/describe_tool {:name "nope"})' },
        }),
      );
      expect(missing.message).toContain('no tool named \\"nope\\"');
    } finally {
      await close();
    }
  });

  it("lists only names, by server, with catalog: names", async () => {
    const { client, close } = await connected({ upstreams, catalog: "names" });
    try {
      const description = (await client.listTools()).tools[0]?.description ?? "";
      expect(description).toContain("- memory: memory__add_observations, memory__create_entities,");
      expect(description).not.toContain("(query :string)");
      expect(description).toContain('(tool/describe_tool {:name "tool_name"})');
      const described = payload(
        await client.callTool({
          name: "lisp_eval",
          arguments: { program: '(:signature (tool/describe_tool {:name "memory__search_nodes"}))' },
        }),
      );
      expect(described.result).toContain("(query :string)");
    } finally {
      await close();
    }
  });

  it("keeps full descriptions with catalog: full", async () => {
    const { client, close } = await connected({ upstreams, catalog: "full" });
    try {
      const description = (await client.listTools()).tools[0]?.description ?? "";
      expect(description).not.toContain("Descriptions above are first sentences");
      expect(description).not.toContain("describe_tool");
    } finally {
      await close();
    }
  });
});

describe("options", () => {
  it("answers with structuredContent that satisfies the declared output schema", async () => {
    const { client, close } = await connected({ structuredContent: true });
    try {
      const { tools } = await client.listTools();
      expect(tools[0]?.outputSchema).toMatchObject({ required: ["status"] });
      // The SDK client checks structuredContent against the declared schema itself.
      const result = await client.callTool({ name: "lisp_eval", arguments: { program: "(+ 2 2)" } });
      expect(unframed(result.structuredContent)).toMatchObject({ status: "ok", result: "user=> 4" });
    } finally {
      await close();
    }
  });

  it("applies per-call limits: program size, time and memory", async () => {
    const { client, close } = await connected({
      limits: { maxProgramBytes: 40, timeoutMs: 100, maxMemoryBytes: 1_000_000, maxIterations: 1e12 },
    });
    const call = async (program: string) =>
      payload(await client.callTool({ name: "lisp_eval", arguments: { program } }));
    try {
      const big = await call(`(+ ${"1 ".repeat(30)})`);
      expect(big).toMatchObject({ reason: "args_error" });
      expect(big.message).toContain("over the limit of 40");
      expect(await call("(loop [i 0] (recur (inc i)))")).toMatchObject({ reason: "timeout" });
      expect(await call("(count (range 1000000))")).toMatchObject({ reason: "memory_limit" });
    } finally {
      await close();
    }
  });

  it("answers busy beyond the bound on concurrent evaluations; a cancelled call frees its slot and cancels upstream", async () => {
    const { client, close } = await connected({ upstreams, maxConcurrentEvaluations: 1 });
    try {
      const cancel = new AbortController();
      const slow = client.callTool(
        { name: "lisp_eval", arguments: { program: "(tool/slow__slow {:ms 60000})" } },
        undefined,
        { signal: cancel.signal },
      );
      // Once the upstream has the first program's call, that program holds the only slot.
      while (!slowStderr.some((line) => line.startsWith("in flight: 1"))) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const second = await client.callTool({ name: "lisp_eval", arguments: { program: "1" } });
      expect(payload(second)).toMatchObject({ status: "error", reason: "busy" });
      // The client cancels (notifications/cancelled): the program stops and so does its upstream call.
      cancel.abort();
      await expect(slow).rejects.toThrow();
      while (!slowStderr.some((line) => line.startsWith("cancelled "))) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      let third = payload(await client.callTool({ name: "lisp_eval", arguments: { program: "2" } }));
      // The slot is released when the aborted program has unwound, which may take a moment.
      while (third.reason === "busy") {
        await new Promise((resolve) => setTimeout(resolve, 10));
        third = payload(await client.callTool({ name: "lisp_eval", arguments: { program: "2" } }));
      }
      expect(third).toMatchObject({ status: "ok", result: "user=> 2" });
    } finally {
      await close();
    }
  });
});

describe("upstream list changes", () => {
  it("reach the client as tools/list_changed, and the card lists the new tool", async () => {
    const { client, close } = await connected({ upstreams });
    try {
      const notified = new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
      );
      await client.callTool({ name: "lisp_eval", arguments: { program: "(tool/paged__grow {})" } });
      await notified;
      const { tools } = await client.listTools();
      expect(tools[0]?.description).toContain("- tool/paged__grown4");
    } finally {
      await close();
    }
  });
});
