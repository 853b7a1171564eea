/**
 * A consumer of a whole stream over filter, remove, keep and one-collection map stages
 * (`(count (filter p rows))`) collects it with one loop over the source (lazy-pipeline.ts,
 * collectPushed). These tests prove that loop ran (a counter) and that it answers what the eager
 * builtins answer, with the same prints, tool calls and errors, on every engine.
 */
import { describe, expect, test } from "vitest";
import { run } from "../index.js";
import { pushedStats } from "./lazy-pipeline.js";
import { context, limits, outcome } from "./pushed-fixtures.js";

/** The same consumer over the pipeline bound by let first: not fused, so the eager builtins run. */
const eagerly = (consumer: string, pipeline: string) => `(let [all ${pipeline}] (${consumer} all))`;

const pushed: ReadonlyArray<readonly [consumer: string, pipeline: string]> = [
  ["count", '(filter #(= (:status %) "paid") data/rows)'],
  ["count", "(remove #(> (:amount %) 500) data/rows)"],
  ["vec", "(keep #(when (odd? %) (* % %)) (remove nil? data/xs))"],
  ["apply max", '(map :amount (filter #(= "pending" (:status %)) data/rows))'],
  ["reduce +", "(map :amount (filter #(> (:amount %) 900) data/rows))"],
  ["count", "(filter :tags data/rows)"],
  ["vec", "(filter #{2 4 nil} data/xs)"],
  ["vec", "(map {1 :one 2 :two} data/xs)"],
  ["into #{}", "(map :status data/rows)"],
  ["count", "(keep :tags (filter #(even? (:id %)) data/rows))"],
  ["vec", "(map inc (filter some? data/xs))"],
  ["sort", "(map #(mod % 3) (remove nil? data/xs))"],
  ["vec", "(map (fn [x] (if (nil? x) :none x)) data/xs)"],
  ["vec", "(filter odd? nil)"],
  ["vec", '(map str "abc")'],
  ["vec", "(map first {:a 1 :b 2})"],
];

/** Pipelines that must end as the eager builtins end: an error on some item, an effect, a tool. */
const fallingBack: ReadonlyArray<readonly [consumer: string, pipeline: string]> = [
  ["count", "(filter #(> % 5) data/xs)"],
  ["vec", "(map inc data/xs)"],
  ["count", "(filter (fn [x] (println x) (odd? x)) [1 2 3])"],
  ["vec", "(map (fn [x] (tool/echo {:x x})) [1 2])"],
  ["count", "(filter 5 data/xs)"],
  ["count", "(map (fn [a b] a) data/xs)"],
];

const tools = { echo: (args: Record<string, unknown>) => args.x };

describe("whole streams collected with one loop", () => {
  for (const engine of ["general", "adaptive", "fast"] as const) {
    test(`the eager answers, on the ${engine} engine`, async () => {
      for (const [consumer, pipeline] of [...pushed, ...fallingBack]) {
        const source = `(${consumer} ${pipeline})`;
        const expected = outcome(await run(eagerly(consumer, pipeline), { context, tools, limits, engine }));
        expect(outcome(await run(source, { context, tools, limits, engine })), source).toEqual(expected);
      }
    });
  }

  test("the loop is what ran on the general engine", async () => {
    for (const [consumer, pipeline] of pushed) {
      const source = `(${consumer} ${pipeline})`;
      const before = pushedStats.pushedRuns;
      const result = await run(source, { context, limits, engine: "general" });
      expect(result.ok, source).toBe(true);
      expect(pushedStats.pushedRuns - before, source).toBe(1);
    }
  });

  test("a predicate that never stops filtering is still cut off by the time limit", async () => {
    const result = await run(
      "(count (filter (fn [n] (loop [i 0] (if (< i n) (recur (inc i)) true))) (range 1000000)))",
      {
        engine: "general",
        limits: { timeoutMs: 200, maxIterations: 1e12 },
      },
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe("timeout");
  });
});
