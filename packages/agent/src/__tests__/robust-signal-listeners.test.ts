/**
 * A run on the caller's AbortSignal keeps at most a few listeners on it at any moment, however
 * many calls wait at once (pmap over a tool, nested pmaps, child agents in a pmap, many turns),
 * and leaves none behind: Node warns past ten listeners on one signal (MaxListenersExceededWarning).
 */
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AgentOptions, type AgentToolDefinition, asTool, createAgent, run } from "../index.js";
import { createScriptedModel, type ScriptedStep } from "../testing/index.js";

const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;
const lispEval = (program: string) => ({ toolCalls: [{ name: "lisp_eval", args: { program } }] });
const native = (count: number) => ({
  toolCalls: Array.from({ length: count }, (_, id) => ({ name: "lookup", args: { id } })),
});

/** 50 tool calls, up to 8 x 5 at once (nested pmaps). */
const FIFTY_CALLS = "(count (pmap (fn [j] (pmap (fn [i] (tool/lookup {:id i})) (range 5))) (range 10)))";

let warnings: Error[];
const onWarning = (warning: Error) => warnings.push(warning);
beforeEach(() => {
  warnings = [];
  process.on("warning", onWarning);
});
afterEach(() => {
  process.off("warning", onWarning);
});

/** Runs the script on one signal, noting the most listeners the signal had during any tool call. */
async function runOnSignal(
  options: AgentOptions,
  steps: ScriptedStep[],
  tools: Record<string, unknown> = {},
) {
  const controller = new AbortController();
  const listeners = () => getEventListeners(controller.signal, "abort").length;
  let most = 0;
  const lookup = {
    signature: "(id :int) -> :int",
    expose: "both",
    // Answers on a later macrotask, so a pmap's calls are all in flight together.
    execute: ({ id }: { id: number }) => {
      most = Math.max(most, listeners());
      return new Promise((resolve) => setTimeout(() => resolve(id), 0));
    },
  };
  const model = createScriptedModel(steps);
  const agent = createAgent({
    ...options,
    tools: { lookup, ...tools } as Record<string, AgentToolDefinition>,
  });
  const result = await run(agent, { llm: model.llm, signal: controller.signal });
  model.assertConsumed();
  // Node reports the warning on a later tick.
  await new Promise((resolve) => setImmediate(resolve));
  return { result, most, left: listeners() };
}

function expectNoLeak(outcome: { most: number; left: number }) {
  expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
  // The run's subscription only: programs and model calls listen on the run's own signal.
  expect(outcome.most).toBeLessThanOrEqual(1);
  expect(outcome.left).toBe(0);
}

describe("listeners on the caller's signal", () => {
  it("stay few through 20 turns of programs making 50 concurrent tool calls each", async () => {
    const steps = [...Array.from({ length: 19 }, () => fenced(FIFTY_CALLS)), fenced("(return 1)")];
    const outcome = await runOnSignal({ prompt: "p", maxTurns: 20 }, steps);
    expect(outcome.result.ok).toBe(true);
    expect(outcome.result.step.toolCalls).toHaveLength(19 * 50);
    expectNoLeak(outcome);
  });

  it("stay few through 20 combined-mode turns of native calls and programs", async () => {
    const steps = [
      ...Array.from({ length: 10 }, (_, turn) => (turn % 2 === 0 ? native(12) : lispEval(FIFTY_CALLS))),
      ...Array.from({ length: 9 }, () => lispEval(FIFTY_CALLS)),
      "done",
    ];
    const outcome = await runOnSignal(
      { prompt: "p", output: "text", ptcTransport: "tool_call", maxTurns: 20 },
      steps,
    );
    expect(outcome.result.ok).toBe(true);
    expectNoLeak(outcome);
  });

  it("stay few while child agents of one pmap run at once", async () => {
    const child = createAgent({
      prompt: "Describe {{id}}",
      signature: "(id :int) -> :string",
      output: "text",
    });
    const steps: ScriptedStep[] = [
      fenced("(count (pmap (fn [i] (tool/describe {:id i})) (range 12)))"),
      ...Array.from({ length: 12 }, () => "a customer"),
      fenced("(return 1)"),
    ];
    const outcome = await runOnSignal({ prompt: "p", maxTurns: 3, pmapMaxConcurrency: 12 }, steps, {
      describe: asTool(child, { description: "Describe a customer." }),
    });
    expect(outcome.result.ok).toBe(true);
    expect(outcome.result.step.childSteps).toHaveLength(12);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    expect(outcome.left).toBe(0);
  });
});
