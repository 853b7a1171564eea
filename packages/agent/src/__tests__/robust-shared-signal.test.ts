/**
 * A host passes one AbortSignal (its shutdown signal, a request's signal) to many runs at once.
 * However many runs share it, the signal carries one listener of the library's, never one per run
 * (Node warns past ten: MaxListenersExceededWarning), none is left once the runs end, and aborting
 * it still stops every run the way it stops one.
 */
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AgentToolDefinition, createAgent, type RunResult, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const RUNS = 50;
const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;

let warnings: Error[];
const onWarning = (warning: Error) => warnings.push(warning);
beforeEach(() => {
  warnings = [];
  process.on("warning", onWarning);
});
afterEach(() => {
  process.off("warning", onWarning);
});

const listenerWarnings = () => warnings.filter((warning) => warning.name === "MaxListenersExceededWarning");
// Node reports the warning on a later tick.
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A tool that waits for its call's signal, and counts the calls that have started. */
function waitingTool(signalOf: () => AbortSignal) {
  let started = 0;
  let most = 0;
  let allStarted: () => void = () => {};
  const everyCallStarted = new Promise<void>((resolve) => {
    allStarted = resolve;
  });
  const tool: AgentToolDefinition = {
    signature: "(id :int) -> :int",
    execute: (_args: unknown, { signal }: { signal?: AbortSignal }) => {
      most = Math.max(most, getEventListeners(signalOf(), "abort").length);
      started++;
      if (started === RUNS) allStarted();
      return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
    },
  } as AgentToolDefinition;
  return { tool, everyCallStarted, most: () => most };
}

describe("one signal shared by 50 concurrent runs", () => {
  it("carries at most one listener while they work, and none once they end", async () => {
    const { signal } = new AbortController();
    let most = 0;
    const lookup = {
      signature: "(id :int) -> :int",
      execute: ({ id }: { id: number }) => {
        most = Math.max(most, getEventListeners(signal, "abort").length);
        return new Promise((resolve) => setTimeout(() => resolve(id), 0));
      },
    } as AgentToolDefinition;
    const agent = createAgent({ prompt: "p", maxTurns: 2, tools: { lookup } });
    const results = await Promise.all(
      Array.from({ length: RUNS }, () => {
        const model = createScriptedModel([
          fenced("(def n (count (pmap (fn [i] (tool/lookup {:id i})) (range 3))))"),
          fenced("(return (+ n (tool/lookup {:id 4})))"),
        ]);
        return run(agent, { llm: model.llm, signal });
      }),
    );
    await settle();
    expect(results.map((result) => result.ok && result.step.return)).toEqual(Array(RUNS).fill(7));
    expect(listenerWarnings()).toEqual([]);
    expect(most).toBeLessThanOrEqual(1);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("stops every run when it aborts mid-flight, as it stops one", async () => {
    const controller = new AbortController();
    const waiting = waitingTool(() => controller.signal);
    const agent = createAgent({ prompt: "p", maxTurns: 2, tools: { wait: waiting.tool } });
    const runs: Promise<RunResult>[] = Array.from({ length: RUNS }, () => {
      const model = createScriptedModel([fenced("(tool/wait {:id 1})")]);
      return run(agent, { llm: model.llm, signal: controller.signal });
    });
    await waiting.everyCallStarted;
    controller.abort(new Error("host shutting down"));
    const results = await Promise.all(runs);
    await settle();
    for (const result of results) {
      expect(result.ok).toBe(false);
      expect(result.step.fail?.reason).toBe("aborted");
      expect(result.step.fail?.message).toBe("The run was aborted: host shutting down");
      // The call was told through its own signal, with the host's reason.
      expect(result.step.toolCalls).toHaveLength(1);
      expect(result.step.toolCalls[0]?.error).toContain("host shutting down");
    }
    expect(listenerWarnings()).toEqual([]);
    expect(waiting.most()).toBeLessThanOrEqual(1);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("stops every run at once when it has already aborted, and calls no model", async () => {
    const controller = new AbortController();
    controller.abort("gone");
    let modelCalls = 0;
    const agent = createAgent({ prompt: "p", maxTurns: 2 });
    const results = await Promise.all(
      Array.from({ length: RUNS }, () =>
        run(agent, {
          llm: () => {
            modelCalls++;
            return fenced("(return 1)");
          },
          signal: controller.signal,
        }),
      ),
    );
    await settle();
    for (const result of results) {
      expect(result.step.fail?.reason).toBe("aborted");
      expect(result.step.fail?.message).toBe("The run was aborted: gone");
    }
    expect(modelCalls).toBe(0);
    expect(listenerWarnings()).toEqual([]);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("hands each model call a signal that aborts with the host's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    let seen = 0;
    let allCalled: () => void = () => {};
    const everyCall = new Promise<void>((resolve) => {
      allCalled = resolve;
    });
    const agent = createAgent({ prompt: "p", maxTurns: 2 });
    const reasons: unknown[] = [];
    const runs = Array.from({ length: RUNS }, () =>
      run(agent, {
        llm: ({ signal }) =>
          new Promise((_, reject) => {
            signal?.addEventListener("abort", () => {
              reasons.push(signal.reason);
              reject(signal.reason);
            });
            if (++seen === RUNS) allCalled();
          }),
        signal: controller.signal,
      }),
    );
    await everyCall;
    // The models' own listeners sit on each run's signal, not on the host's.
    expect(getEventListeners(controller.signal, "abort").length).toBeLessThanOrEqual(1);
    controller.abort(reason);
    const results = await Promise.all(runs);
    await settle();
    expect(results.every((result) => result.step.fail?.reason === "aborted")).toBe(true);
    expect(reasons).toEqual(Array(RUNS).fill(reason));
    expect(listenerWarnings()).toEqual([]);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
