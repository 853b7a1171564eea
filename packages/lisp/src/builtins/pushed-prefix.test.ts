/**
 * `take` and `first` over filter, remove, keep and one-collection map stages (`(take 10 (filter p
 * rows))`) take their items with one loop over the source that stops at the last item wanted
 * (lazy-pipeline.ts, pushedPrefix). These tests prove that loop ran (a counter), that it answers
 * what the eager builtins answer, and that it calls no callback past the last item taken.
 */
import { describe, expect, test } from "vitest";
import { format, run } from "../index.js";
import { pushedStats } from "./lazy-pipeline.js";
import { context, limits, outcome } from "./pushed-fixtures.js";

/** The same consumer over the stages made eager with mapv/filterv-like vec: never fused. */
const eagerly = (consumer: string, pipeline: string) => `(let [all (vec ${pipeline})] (${consumer} all))`;

const pushed: ReadonlyArray<readonly [consumer: string, pipeline: string]> = [
  ["take 10", '(filter #(= (:status %) "paid") data/rows)'],
  ["take 5", "(map :id (remove #(> (:amount %) 500) data/rows))"],
  ["take 3", "(keep #(when (odd? %) (* % %)) (remove nil? data/xs))"],
  ["take 0", "(filter odd? data/xs)"],
  ["take -2", "(filter odd? data/xs)"],
  ["take 100", "(filter #(> (:amount %) 990) data/rows)"],
  ["take 4", "(map inc (filter some? data/xs))"],
  ["take 2", "(filter odd? nil)"],
  ["first", "(filter #(> (:amount %) 900) data/rows)"],
  ["first", "(map :status data/rows)"],
  ["first", "(filter #(> % 100) (remove nil? data/xs))"],
  ["first", "(keep :tags data/rows)"],
];

/** Items past the last one taken are never reached, so their errors never happen. */
const lazyOnly: ReadonlyArray<readonly [source: string, value: string]> = [
  ["(take 3 (map inc data/xs))", "[2 3 4]"],
  ["(take 2 (filter #(> (inc %) 1) [1 2 nil]))", "[1 2]"],
  ["(first (filter #(> % 5) data/xs))", "6"],
];

describe("the first items of a stream taken with one loop", () => {
  for (const engine of ["general", "adaptive", "fast"] as const) {
    test(`the eager answers, on the ${engine} engine`, async () => {
      for (const [consumer, pipeline] of pushed) {
        const source = `(${consumer} ${pipeline})`;
        const expected = outcome(await run(eagerly(consumer, pipeline), { context, limits, engine }));
        expect(outcome(await run(source, { context, limits, engine })), source).toEqual(expected);
      }
    });
  }

  test("the loop is what ran on the general engine", async () => {
    for (const [consumer, pipeline] of pushed) {
      const source = `(${consumer} ${pipeline})`;
      const before = pushedStats.pushedPrefixRuns;
      const result = await run(source, { context, limits, engine: "general" });
      expect(result.ok, source).toBe(true);
      expect(pushedStats.pushedPrefixRuns - before, source).toBe(1);
    }
  });

  test("no callback runs past the last item taken", async () => {
    for (const [source, value] of lazyOnly) {
      const before = pushedStats.pushedPrefixRuns;
      const result = await run(source, { context, limits, engine: "general" });
      expect(result.ok && format(result.value), source).toBe(value);
      expect(pushedStats.pushedPrefixRuns - before, source).toBe(1);
    }
  });

  test("a predicate that never stops is still cut off by the time limit", async () => {
    const result = await run(
      "(first (filter (fn [n] (loop [i 0] (if (< i n) (recur (inc i)) false))) (range 1000000)))",
      { engine: "general", limits: { timeoutMs: 200, maxIterations: 1e12 } },
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe("timeout");
  });
});
