/**
 * Combined mode's `lisp_eval` over the memory limit, as every other outcome of the call: the call
 * is recorded and its span ends when the strict limit ends the run, and a rolled-back turn clears
 * `data/fail` as the PTC-Lisp loops do (a rolled-back program did not fail).
 */
import { describe, expect, it } from "vitest";
import { type AgentEvent, createAgent, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const lispEval = (id: string, program: string) => ({ id, name: "lisp_eval", args: { program } });
const combined = {
  prompt: "p",
  output: "text" as const,
  ptcTransport: "tool_call" as const,
  memoryLimit: 200,
};

describe("combined mode's lisp_eval over the memory limit", () => {
  it("strict: the run ends with the call recorded and its span ended", async () => {
    const events: AgentEvent[] = [];
    const model = createScriptedModel([{ toolCalls: [lispEval("a", "(def big (range 1000))")] }]);
    const result = await run(createAgent(combined), {
      llm: model.llm,
      onEvent: (event) => events.push(event),
    });
    expect(result.step.fail?.reason).toBe("memory_limit_exceeded");
    expect(result.step.toolCalls).toMatchObject([
      { name: "lisp_eval", id: "a", error: expect.stringMatching(/^Memory limit exceeded/) },
    ]);
    const lispEvalEvents = events.filter((event) => "toolName" in event && event.toolName === "lisp_eval");
    expect(lispEvalEvents.map((event) => event.type)).toEqual(["tool-call-start", "tool-call-end"]);
  });

  it("rollback: the next program reads no data/fail", async () => {
    const model = createScriptedModel([
      { toolCalls: [lispEval("a", "(+ 1 :x)")] },
      { toolCalls: [lispEval("b", "(def big (range 1000))")] },
      { toolCalls: [lispEval("c", "(return (nil? data/fail))")] },
      "done",
    ]);
    const agent = createAgent({ ...combined, memoryStrategy: "rollback" });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(result.step.turns?.[2]?.result).toBe(true);
  });
});
