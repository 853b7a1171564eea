/**
 * `previewPrompt` is the run's own first request: for every mode of the table in loop/modes.ts,
 * what it shows equals what a scripted model receives on its first call. (A one-turn agent was
 * once shown a different system prompt and first message than its run sent.)
 */
import { afterAll, describe, expect, it } from "vitest";
import { type AgentOptions, createAgent, previewPrompt, run } from "../index.js";
import { MODES, type ModeName, modeOf } from "../loop/modes.js";
import { createScriptedModel, fencedProgram, lispEvalCall } from "../testing/index.js";
import { effectiveTools } from "../tools/builtin-tools.js";

const tools = {
  list_orders: {
    execute: async () => [{ id: 1, total: 5 }],
    signature: "(status :string) -> [{id :int, total :int}]",
    description: "Orders by status.",
  },
};
const context = { region: "EMEA", limit: 3 };
const typed = "(region :string, limit :int) -> :int";

/** Each case: the mode it must take, its options, and a first reply that ends its run at once. */
const cases: readonly [string, ModeName, Partial<AgentOptions>, string | object][] = [
  ["PTC-Lisp, fenced programs", "ptc_lisp", { tools, signature: typed }, fencedProgram("(return 1)")],
  [
    "PTC-Lisp, one turn without tools (single shot)",
    "ptc_lisp_single_shot",
    { maxTurns: 1, signature: typed },
    fencedProgram("1"),
  ],
  [
    "PTC-Lisp over lisp_eval",
    "ptc_lisp_tool_call",
    { tools, ptcTransport: "tool_call", signature: typed },
    lispEvalCall("(return 1)"),
  ],
  [
    "PTC-Lisp, with the data block in the system prompt",
    "ptc_lisp",
    { tools, formatOptions: { contextInSystem: true } },
    fencedProgram("(return 1)"),
  ],
  ["PTC-Lisp with a plan", "ptc_lisp", { tools, plan: ["fetch", "sum"] }, fencedProgram("(return 1)")],
  [
    "PTC-Lisp with a progress function",
    "ptc_lisp",
    { tools, progress: () => ["Step 1 of 2: fetch", null] },
    fencedProgram("(return 1)"),
  ],
  ["PTC-Lisp with retry turns", "ptc_lisp", { maxTurns: 1, retryTurns: 1 }, fencedProgram("(return 1)")],
  ["text", "text", { output: "text" }, "an answer"],
  [
    "text answering JSON",
    "text_json",
    { output: "text", signature: "(region :string, limit :int) -> {total :int}" },
    '{"total": 1}',
  ],
  ["text with tools", "text_tools", { output: "text", tools }, "an answer"],
  ["combined", "combined", { output: "text", ptcTransport: "tool_call", tools }, "an answer"],
  ["combined without tools", "combined", { output: "text", ptcTransport: "tool_call" }, "an answer"],
];

const covered = new Set<ModeName>();

describe("previewPrompt shows what the first request sends", () => {
  it.each(cases)("%s", async (_name, mode, options, reply) => {
    const agent = createAgent({ prompt: "Orders of {{region}}, at most {{limit}}", ...options });
    expect(modeOf(agent, effectiveTools(agent).size).name).toBe(mode);
    covered.add(mode);
    const preview = previewPrompt(agent, { context });
    const model = createScriptedModel([reply as string]);
    await run(agent, { llm: model.llm, context });
    model.assertConsumed();
    const request = model.calls[0];
    expect(request?.messages).toHaveLength(1);
    expect(preview.system).toBe(request?.system);
    expect(preview.user).toBe(request?.messages[0]?.content);
    expect(preview.schema).toEqual(request?.schema ?? null);
    if (request?.tools !== undefined) expect(preview.toolSchemas).toEqual(request.tools);
  });

  afterAll(() => {
    // A mode added to the table without a case here would go unchecked.
    expect([...covered].sort()).toEqual(Object.keys(MODES).sort());
  });
});
