/**
 * Filter, remove, keep and one-collection map stages over `(partition n xs)`, `(partition n step
 * xs)` (step no longer than n) or `(partition 2 (interleave xs ys))` run as one loop over the
 * inputs (lazy-pipeline.ts, pushedWindow). These tests prove that loop ran (a counter), that it
 * answers what the eager builtins answer on every engine (nil, strings, NaN, big integers, maps
 * and sets as inputs, failures), that no callback runs past the last item taken, and that the
 * memory budget still counts each chunk.
 */
import { describe, expect, test } from "vitest";
import { format, run } from "../index.js";
import { pushedStats } from "./lazy-pipeline.js";
import { limits, outcome, context as shared } from "./pushed-fixtures.js";

const context = {
  ...shared,
  mixed: [1, "s", null, Number.NaN, 2n ** 70n, { amount: 3 }, [1], 1.5, { amount: null }, { user_id: 4 }],
  big: Array.from({ length: 5000 }, (_, i) => i),
};

/** The same consumer over the stages made eager with vec: never fused. */
const eagerly = (consumer: string, pipeline: string) => `(let [all (vec ${pipeline})] (${consumer} all))`;

const windowed: ReadonlyArray<readonly [consumer: string, pipeline: string]> = [
  [
    "reduce + 0",
    "(take 100 (map (fn [[a q]] (* (or a 0) (:id q))) (partition 2 (interleave (map :amount data/rows) data/rows))))",
  ],
  ["take 5", "(filter #(> % 800) (map #(/ (apply + %) 3) (partition 3 1 (map :amount data/rows))))"],
  ["take 5", "(partition 2 data/xs)"],
  ["take 50", "(partition 2 data/xs)"],
  ["first", "(partition 3 1 data/xs)"],
  ["count", "(partition 2 1 data/big)"],
  ["count", "(partition 2 (interleave data/big data/big))"],
  ["into []", "(keep #(when (odd? (first %)) (second %)) (partition 2 1 data/big))"],
  ["vec", "(take 4 (partition 1 (map :amount data/mixed)))"],
  ["vec", "(take 4 (partition 1 (map :user-id data/mixed)))"],
  ["take 5", "(partition 2 data/mixed)"],
  ["take 5", "(partition 3 2 data/mixed)"],
  ["take 3", "(partition 3 3 data/xs)"],
  ["take 3", "(partition 100000000 data/xs)"],
  ["take 3", "(filter #(> (count %) 1) (partition 2 (filter some? data/xs)))"],
  ["count", "(filter #(> (first %) 100) (partition 2 data/big))"],
  ["take 0", "(partition 2 data/xs)"],
  ["take -1", "(partition 2 data/xs)"],
  ["take 3", "(map :x (partition 2 data/xs))"],
  ["take 3", "(partition 2 (interleave data/xs [:a :b :c]))"],
  ["vec", "(partition 2 (interleave nil data/xs))"],
  ["vec", '(partition 2 (interleave "abc" {:x 1 :y 2}))'],
  ["vec", "(partition 2 #{1 2 3})"],
  [
    "take 3",
    "(partition 2 (interleave (map :id (filter #(odd? (:id %)) data/rows)) (keep :tags data/rows)))",
  ],
  ["take 3", "(remove #(nil? (first %)) (partition 2 1 (map :tags data/rows)))"],
];

/** Stages the loop leaves to the pulls: a step past the chunk, a pad, a re-seq input. */
const pulled: readonly string[] = [
  "(take 3 (partition 2 3 data/xs))",
  "(take 3 (partition 2 2 [0] data/xs))",
  '(take 2 (partition 2 (interleave (re-seq #"\\d" "12345") data/xs)))',
];

async function counted(source: string) {
  const before = pushedStats.pushedWindowRuns;
  const result = await run(source, { context, limits, engine: "general" });
  return { result, runs: pushedStats.pushedWindowRuns - before };
}

describe("partitions and zips fed with one loop", () => {
  for (const engine of ["general", "adaptive", "fast"] as const) {
    test(`the eager answers, on the ${engine} engine`, async () => {
      for (const [consumer, pipeline] of windowed) {
        const source = `(${consumer} ${pipeline})`;
        const expected = outcome(await run(eagerly(consumer, pipeline), { context, limits, engine }));
        expect(outcome(await run(source, { context, limits, engine })), source).toEqual(expected);
      }
    });
  }

  test("the loop is what ran on the general engine", async () => {
    for (const [consumer, pipeline] of windowed) {
      const source = `(${consumer} ${pipeline})`;
      const { result, runs } = await counted(source);
      expect(result.ok, source).toBe(true);
      expect(runs, source).toBe(1);
    }
  });

  test("other shapes keep the pulled stages, with the same answers", async () => {
    for (const source of pulled) {
      const { result, runs } = await counted(source);
      expect(result.ok, source).toBe(true);
      expect(runs, source).toBe(0);
    }
  });

  test("no callback runs past the last item taken", async () => {
    for (const [source, value] of [
      [
        '(take 2 (partition 2 (interleave (map #(if (> % 2) (fail "far") %) data/xs) (map inc data/xs))))',
        "[[1 2] [2 3]]",
      ],
      ['(take 2 (map first (partition 2 (map #(if (> % 4) (fail "far") %) data/xs))))', "[1 3]"],
      [
        '(reduce + 0 (take 2 (map #(if (> (first %) 3) (fail "far") (first %)) (partition 2 1 data/xs))))',
        "3",
      ],
      ['(first (filter #(> (first %) 2) (partition 2 (map #(if (> % 4) (fail "far") %) data/xs))))', "[3 4]"],
    ] as const) {
      const { result, runs } = await counted(source);
      expect(result.ok && format(result.value), source).toBe(value);
      expect(runs, source).toBe(1);
    }
  });

  test("a failure in a chunk taken fails as the eager run does", async () => {
    const source = '(take 3 (map #(if (> (first %) 3) (fail "big") %) (partition 2 data/xs)))';
    const { result, runs } = await counted(source);
    // The loop met the failure, and the eager run gave the program's own error.
    expect(runs).toBe(1);
    const expected = await run(
      eagerly("take 3", '(map #(if (> (first %) 3) (fail "big") %) (partition 2 data/xs))'),
      {
        context,
        limits,
        engine: "general",
      },
    );
    expect(outcome(result)).toEqual(outcome(expected));
    expect(result.ok).toBe(false);
  });

  test("each chunk is charged to the memory budget", async () => {
    const big = Array.from({ length: 200_000 }, (_, i) => i);
    for (const source of [
      "(count (partition 2 1 data/big))",
      "(count (partition 2 (interleave data/big data/big)))",
    ]) {
      const before = pushedStats.pushedWindowRuns;
      const result = await run(source, {
        context: { big },
        engine: "general",
        limits: { ...limits, maxMemoryBytes: 2_000_000 },
      });
      expect(result.ok, source).toBe(false);
      if (!result.ok) expect(result.error.reason, source).toBe("memory_exceeded");
      expect(pushedStats.pushedWindowRuns - before, source).toBe(1);
    }
  });
});
