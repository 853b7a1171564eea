import { describe, expect, it } from "vitest";
import { type AgentOptions, createAgent, previewPrompt, run } from "../index.js";
import { createScriptedModel, fencedProgram, lispEvalCall } from "../testing/index.js";

const tools = {
  list_orders: {
    execute: async () => [{ id: 1, total: 5 }],
    signature: "(status :string) -> [{id :int, total :int}]",
    description: "Orders by status.",
  },
};
const context = { region: "EMEA", limit: 3 };

/** Each mode, and the first reply that ends its run at once. */
const modes: readonly [string, Partial<AgentOptions>, string | object][] = [
  ["PTC-Lisp, fenced programs", { tools, signature: "(region :string, limit :int) -> :int" }, fencedProgram("(return 1)")],
  ["PTC-Lisp, one turn without tools (single shot)", { maxTurns: 1, signature: "(region :string, limit :int) -> :int" }, fencedProgram("1")],
  ["PTC-Lisp over lisp_eval", { tools, ptcTransport: "tool_call", signature: "(region :string, limit :int) -> :int" }, lispEvalCall("(return 1)")],
  ["PTC-Lisp, with the data block in the system prompt", { tools, formatOptions: { contextInSystem: true } }, fencedProgram("(return 1)")],
  ["PTC-Lisp with a plan", { tools, plan: ["fetch", "sum"] }, fencedProgram("(return 1)")],
  ["text", { output: "text" }, "an answer"],
  ["text answering JSON", { output: "text", signature: "(region :string, limit :int) -> {total :int}" }, '{"total": 1}'],
  ["text with tools", { output: "text", tools }, "an answer"],
  ["combined", { output: "text", ptcTransport: "tool_call", tools }, "an answer"],
];

describe("previewPrompt shows what the first request sends", () => {
  it.each(modes)("%s", async (_name, options, reply) => {
    const agent = createAgent({ prompt: "Orders of {{region}}, at most {{limit}}", ...options });
    const preview = previewPrompt(agent, { context });
    const model = createScriptedModel([reply as string]);
    await run(agent, { llm: model.llm, context });
    model.assertConsumed();
    const request = model.calls[0];
    expect(preview.system).toBe(request?.system);
    expect(preview.user).toBe(request?.messages[0]?.content);
    expect(request?.messages).toHaveLength(1);
    if (request?.tools !== undefined) expect(preview.toolSchemas).toEqual(request.tools);
    expect(preview.schema).toEqual(request?.schema ?? null);
  });
});
