/**
 * The acceptance test of combined mode: the canonical transcript of the combined-mode guide
 * (seed 003, "The cache bridge"), driven through `run` with the scripted model. The model sees
 * a metadata preview of 1,842 log rows, escalates to `lisp_eval`, the program reads the cached
 * rows without running the tool again, and the model's last text is the answer.
 */
import { canonicalCacheKey } from "@ptc/tool";
import { describe, expect, it } from "vitest";
import { type AgentEvent, createAgent, type Message, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { readToolBody } from "./read-tool-body.js";

const QUESTION = "How many errors with code 42 last hour?";
const PROGRAM = '(def rows (tool/search_logs {:query "error code 42"}))\n(return {:total (count rows)})';
const ANSWER = "There were 1842 errors with code 42 in the queried window.";

function logRows(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    timestamp: `2026-05-06T12:${String(Math.floor(index / 60) % 60).padStart(2, "0")}:${String(index % 60).padStart(2, "0")}Z`,
    message: `error code 42 in request ${index + 1}`,
  }));
}

function setup() {
  const rows = logRows(1842);
  const executions: unknown[] = [];
  const agent = createAgent({
    prompt: QUESTION,
    output: "text",
    ptcTransport: "tool_call",
    maxTurns: 6,
    tools: {
      search_logs: {
        execute: (args: Record<string, unknown>) => {
          executions.push(args);
          return rows;
        },
        signature: "(query :string) -> [:any]",
        description: "Search log events.",
        expose: "both",
        cache: true,
        nativeResult: { preview: "metadata" },
      },
    },
  });
  const model = createScriptedModel([
    { toolCalls: [{ id: "call_1", name: "search_logs", args: { query: "error code 42" } }] },
    { toolCalls: [{ id: "call_2", name: "lisp_eval", args: { program: PROGRAM } }] },
    ANSWER,
  ]);
  return { agent, model, rows, executions };
}

const FIRST_USER: Message = {
  role: "user",
  content: `<output_format>\nWhen you have the final answer, return it as plain text.\n</output_format>\n\n<mission>\n${QUESTION}\n</mission>`,
};

const EXPECTED_PREVIEW = {
  status: "ok",
  result_count: 1842,
  schema: {
    type: "array",
    items: {
      type: "object",
      properties: { id: "integer", timestamp: "string", message: "string" },
    },
  },
  sample_keys: ["id", "message", "timestamp"],
  full_result_cached: true,
  cache_hint:
    'Call lisp_eval and then call (tool/search_logs {:query "error code 42"}) to process the full cached result.',
};

function toolContent(message: Message | undefined): Record<string, unknown> {
  expect(message?.role).toBe("tool");
  return readToolBody(message?.content);
}

describe("the canonical combined-mode transcript (seed 003)", () => {
  it("sends the model the seed's messages turn by turn and answers with the model's text", async () => {
    const { agent, model, executions } = setup();
    const result = await run(agent, { llm: model.llm });

    model.assertConsumed();
    expect(model.calls).toHaveLength(3);

    // Turn 1: the user's question, nothing else.
    expect(model.calls[0]?.messages).toEqual([FIRST_USER]);

    // Turn 2: the native search_logs call, answered by the metadata preview.
    const second = model.calls[1]?.messages ?? [];
    expect(second).toHaveLength(3);
    expect(second[0]).toEqual(FIRST_USER);
    expect(second[1]).toEqual({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_1", name: "search_logs", args: { query: "error code 42" } }],
    });
    expect(second[2]?.toolCallId).toBe("call_1");
    const preview = toolContent(second[2]);
    expect(preview).toEqual(EXPECTED_PREVIEW);
    // Metadata previews never carry row values.
    expect(second[2]?.content).not.toContain("request 1");

    // Turn 3: the lisp_eval escalation, answered by the program's success result.
    const third = model.calls[2]?.messages ?? [];
    expect(third).toHaveLength(5);
    expect(third.slice(0, 3)).toEqual(second);
    expect(third[3]).toEqual({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_2", name: "lisp_eval", args: { program: PROGRAM } }],
    });
    expect(third[4]?.toolCallId).toBe("call_2");
    const evaluated = toolContent(third[4]);
    expect(evaluated.status).toBe("ok");
    expect(evaluated.result).toBe("user=> {:total 1842}");
    expect(evaluated.prints).toEqual([]);
    expect(evaluated).not.toHaveProperty("reason");

    // Turn 4: the model's text is the answer; the tool ran exactly once.
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe(ANSWER);
    expect(result.step.fail).toBeNull();
    expect(executions).toEqual([{ query: "error code 42" }]);
    expect(result.step.usage.turns).toBe(3);
  });

  it("offers search_logs and lisp_eval natively on every turn", async () => {
    const { agent, model } = setup();
    await run(agent, { llm: model.llm });
    for (const call of model.calls) {
      expect(call.output).toBe("text");
      expect(call.schema).toBeUndefined();
      expect(call.tools?.map((tool) => tool.function.name)).toEqual(["search_logs", "lisp_eval"]);
    }
    expect(model.calls.map((call) => call.turn)).toEqual([1, 2, 3]);
  });

  it("keeps the full result in the step's tool cache under the canonical key", async () => {
    const { agent, model, rows } = setup();
    const result = await run(agent, { llm: model.llm });
    const entry = result.step.toolCache.get(canonicalCacheKey("search_logs", { query: "error code 42" }));
    expect(entry?.result).toEqual(rows);
    expect(result.step.toolCache.size).toBe(1);
  });

  it("records the native call, the lisp_eval call and the cached program call", async () => {
    const { agent, model } = setup();
    const events: AgentEvent[] = [];
    const result = await run(agent, { llm: model.llm, onEvent: (event) => events.push(event) });

    expect(
      result.step.toolCalls.map(({ name, exposureLayer, cached }) => ({ name, exposureLayer, cached })),
    ).toEqual([
      { name: "search_logs", exposureLayer: "native", cached: false },
      { name: "lisp_eval", exposureLayer: "native", cached: false },
      { name: "search_logs", exposureLayer: "ptc_lisp", cached: true },
    ]);
    const ends = events.flatMap((event) =>
      event.type === "tool-call-end"
        ? [{ tool: event.toolName, layer: event.exposureLayer, cached: event.cached, error: event.error }]
        : [],
    );
    expect(ends).toEqual([
      { tool: "search_logs", layer: "native", cached: false, error: false },
      { tool: "search_logs", layer: "ptc_lisp", cached: true, error: false },
      { tool: "lisp_eval", layer: "native", cached: false, error: false },
    ]);
  });

  it("ends the collected conversation with the final answer", async () => {
    const { agent, model } = setup();
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    const messages = result.step.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(messages.at(-1)).toEqual({ role: "assistant", content: ANSWER });
    expect(messages[0]?.content).toBe(model.calls[0]?.system);
  });
});
