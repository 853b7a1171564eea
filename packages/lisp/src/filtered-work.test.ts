/**
 * Work on elements that are filtered out is work: `for` and `doseq` read the clock for every
 * element they visit, at every level, whether a :when keeps it or not, and so do the fused
 * pipeline loops of generated code, however short their source. Each program below would run for
 * many seconds (or, with three levels, minutes) if any of these loops missed its checks; each
 * must stop at the timeout instead, on every engine.
 *
 * The iteration limit does not count these elements (docs/sandbox.md, "Iterations"): with it
 * lifted or not, what stops them is the clock.
 */
import { describe, expect, test } from "vitest";
import { lazyPipelineStats } from "./builtins/lazy-pipeline.js";
import { fastTierStats, resetFastTierStats } from "./compiler/fast-tier.js";
import { type RunOptions, run } from "./index.js";
import { codeGenerationWorks } from "./test-support.js";

const ENGINES = ["general", "fast", "adaptive"] as const;
const limits = { timeoutMs: 50 };

async function reason(source: string, options: RunOptions): Promise<string> {
  const result = await run(source, { ...options, limits });
  return result.ok ? "finished" : result.error.reason;
}

let textCounter = 0;
/** A text no earlier run used, so the program cache hands back no code compiled earlier. */
const unique = (source: string) => `(let [fresh-${++textCounter} 0] ${source})`;

describe.each(ENGINES)("on the %s engine", (engine) => {
  test.each([
    ["for, the inner elements all filtered out", "(count (for [x r y r :when (neg? y)] 1))"],
    ["doseq, the inner elements all filtered out", "(doseq [x r y r :when (neg? y)] 1)"],
    ["for over three levels", "(count (for [x s y s z s :when (neg? z)] 1))"],
    ["doseq over three levels", "(doseq [x s y s z s :when (neg? z)] 1)"],
    ["a :when between two levels", "(count (for [x r y r :when (neg? y) z r] 1))"],
    ["a :let and a :when", "(count (for [x r y r :let [z (* x y)] :when (neg? z)] z))"],
    ["a for inside a for", "(count (for [x r :when (empty? (for [y r :when (neg? y)] y))] x))"],
  ])("%s stops at the timeout", async (_name, body) => {
    // r: 100,000 items (10^10 pairs); s: 2,000 items (8 * 10^9 triples).
    const source = unique(`(let [r (vec (range 100000)) s (vec (range 2000))] ${body})`);
    expect(await reason(source, { engine })).toBe("timeout");
  });

  test.each([
    [
      "filters of filters over 1,000 items",
      "(count (filter (fn [x] (pos? (count (filter (fn [y] (neg? (count (filter neg? r)))) r)))) r))",
    ],
    [
      "sums of maps over 1,000 items",
      "(reduce + 0 (map (fn [x] (reduce + 0 (map (fn [y] (count (filter neg? (map inc r)))) r))) r))",
    ],
  ])("nested pipelines over short sources: %s stop at the timeout", async (_name, body) => {
    // 10^9 items in all, and no loop of more than 1,000.
    const source = unique(`(let [r (vec (range 1000))] ${body})`);
    expect(await reason(source, { engine })).toBe("timeout");
  });
});

describe.runIf(codeGenerationWorks)("the loops above run as generated code on the fast engine", () => {
  // The same shapes over few items finish: in generated code, with no fallback and no lazy
  // pipeline builtin (the pipelines are fused loops).
  test.each([
    ["a for with :when", "(count (for [x r y r :when (neg? y)] 1))", 0],
    ["a doseq with :when", "(doseq [x r y r :when (neg? y)] 1)", null],
    [
      "nested fused pipelines",
      "(count (filter (fn [x] (pos? (count (filter (fn [y] (neg? (count (filter neg? r)))) r)))) r))",
      0,
    ],
  ])("%s", async (_name, body, expected) => {
    resetFastTierStats();
    const lazyRuns = lazyPipelineStats.lazyRuns;
    const result = await run(unique(`(let [r (vec (range 20))] ${body})`), { engine: "fast" });
    expect(result.ok ? result.value : result.error).toBe(expected);
    expect(fastTierStats.fastRuns).toBeGreaterThan(0);
    expect(fastTierStats).toMatchObject({ effectFallbacks: 0, errorReruns: 0, generationGaps: 0 });
    expect(lazyPipelineStats.lazyRuns).toBe(lazyRuns);
  });
});

test("elements filtered out do not count as iterations", async () => {
  // 4 * 10^6 elements visited, under an iteration limit of 1,000: only recur counts.
  const result = await run("(let [r (vec (range 2000))] (count (for [x r y r :when (neg? y)] 1)))", {
    limits: { maxIterations: 1000, timeoutMs: 10_000 },
  });
  expect(result.ok ? result.value : result.error).toBe(0);
});
