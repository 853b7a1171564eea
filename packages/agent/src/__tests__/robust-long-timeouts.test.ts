/**
 * Timeouts past what a timer holds. JavaScript timers keep their delay in a signed 32-bit integer:
 * past 2^31-1 ms (about 24.8 days) Node fires them after 1 ms. A host that sets a tool timeout or a
 * mission timeout that high, or `Infinity` where a limit takes it ("none"), must get a run that
 * waits for its tools, not one where every call times out at once.
 */
import { describe, expect, it } from "vitest";
import { createAgent, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;
const TOO_LONG_FOR_A_TIMER = 3_000_000_000; // about 35 days

/** A tool that answers after a few milliseconds: longer than the 1 ms an overflowing timer waits. */
const slowTool = (extra: Record<string, unknown> = {}) => ({
  signature: "() -> :int",
  execute: () => new Promise<number>((done) => setTimeout(() => done(42), 30)),
  ...extra,
});

describe("a timeout longer than a timer holds", () => {
  const settings = [
    { label: "the run's toolTimeoutMs", agent: {}, run: { toolTimeoutMs: TOO_LONG_FOR_A_TIMER }, tool: {} },
    {
      label: "toolTimeoutMs: Infinity",
      agent: {},
      run: { toolTimeoutMs: Number.POSITIVE_INFINITY },
      tool: {},
    },
    { label: "a tool's timeoutMs", agent: {}, run: {}, tool: { timeoutMs: TOO_LONG_FOR_A_TIMER } },
    { label: "missionTimeout", agent: { missionTimeout: TOO_LONG_FOR_A_TIMER }, run: {}, tool: {} },
  ];
  for (const { label, agent: agentOptions, run: runOptions, tool } of settings) {
    it(`${label}: a native call waits for its tool`, async () => {
      const agent = createAgent({
        prompt: "Use the tool",
        output: "text",
        ...agentOptions,
        tools: { slow: slowTool(tool) },
      });
      const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "slow", args: {} }] }, "done"]);
      const result = await run(agent, { llm: model.llm, ...runOptions });
      expect(result.ok).toBe(true);
      expect(result.step.toolCalls).toMatchObject([{ name: "slow", result: 42 }]);
    });

    it(`${label}: a program's call waits for its tool`, async () => {
      const agent = createAgent({ prompt: "Use the tool", ...agentOptions, tools: { slow: slowTool(tool) } });
      const model = createScriptedModel([fenced("(return (tool/slow {}))")]);
      const result = await run(agent, { llm: model.llm, ...runOptions });
      expect(result.ok).toBe(true);
      expect(result.step.return).toBe(42);
    });
  }
});
