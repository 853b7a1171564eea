import { describe, expect, it } from "vitest";
import { type AgentError, createAgent, isAgentError, run } from "../index.js";
import { createScriptedModel, fencedProgram } from "../testing/index.js";

function refusal(options: Parameters<typeof createAgent>[0]): AgentError {
  try {
    createAgent(options);
  } catch (error) {
    if (isAgentError(error)) return error;
    throw error;
  }
  throw new Error("expected an AgentError");
}

describe("one value per limit, under either of its names", () => {
  it("a limit set in limits is the value the agent reports under the named option", () => {
    const agent = createAgent({ prompt: "p", limits: { timeoutMs: 250, parallelConcurrency: 2 } });
    expect(agent.timeout).toBe(250);
    expect(agent.pmapMaxConcurrency).toBe(2);
    expect(createAgent({ prompt: "p", limits: { maxPrintLength: 40 } }).formatOptions.maxPrintLength).toBe(
      40,
    );
  });

  it("both names with different values are refused, naming both", () => {
    const error = refusal({ prompt: "p", timeout: 1000, limits: { timeoutMs: 2000 } });
    expect(error.code).toBe("PTC_AGENT_INVALID_OPTION");
    expect(error.message).toContain("timeout (1000) and limits.timeoutMs (2000) are two names for one limit");
    expect(refusal({ prompt: "p", maxToolCalls: 3, limits: { maxToolCalls: 4 } }).details.option).toBe(
      "maxToolCalls",
    );
    expect(
      refusal({ prompt: "p", formatOptions: { maxPrintLength: 10 }, limits: { maxPrintLength: 20 } }).details
        .option,
    ).toBe("formatOptions.maxPrintLength");
    // The same value under both names is one value.
    expect(createAgent({ prompt: "p", timeout: 700, limits: { timeoutMs: 700 } }).timeout).toBe(700);
  });

  it("an unknown limit is refused when the agent is created, with the nearest limit", () => {
    const error = refusal({ prompt: "p", limits: { memoryBytes: 10 } as never });
    expect(error.message).toContain('limits: unknown limit "memoryBytes" (did you mean "maxMemoryBytes"?)');
    expect(error.details.suggestion).toBe("maxMemoryBytes");
    expect(refusal({ prompt: "p", limits: { maxDepth: 0 } }).message).toContain(
      "limits.maxDepth must be a positive number",
    );
  });

  it("the programs run within the limits given", async () => {
    const agent = createAgent({ prompt: "p", maxTurns: 2, limits: { maxIterations: 10 } });
    const model = createScriptedModel([
      fencedProgram("(loop [i 0] (recur (inc i)))"),
      fencedProgram("(return 1)"),
    ]);
    const result = await run(agent, { llm: model.llm });
    model.assertConsumed();
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "loop_limit_exceeded" } });
  });
});
