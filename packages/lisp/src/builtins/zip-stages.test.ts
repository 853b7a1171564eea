/**
 * Two shortcuts of the pulled stages (lazy-pipeline.ts): `(partition 2 (interleave xs ys))` pulls
 * pairs straight from its two inputs (zipStage), and `(map :k coll)` over a collection reads the
 * field where it pulls the item (sourceFieldStage), calling the keyword's dedicated reader once it
 * has one (values/field-reader.ts). These tests prove each ran (counters), that it
 * answers what the eager builtins answer on every engine, that no callback runs past the items
 * consumed, and that the memory budget still counts the pairs.
 */
import { describe, expect, test } from "vitest";
import { format, run } from "../index.js";
import { lazyPipelineStats } from "./lazy-pipeline.js";
import { context, limits, outcome } from "./pushed-fixtures.js";

/** The same pipeline with its collection bound by let first: not fused, so run eagerly. */
const eagerly = (consumer: string, pipeline: string) => `(let [all (vec ${pipeline})] (${consumer} all))`;

const zipped: ReadonlyArray<readonly [consumer: string, pipeline: string]> = [
  ["take 5", "(partition 2 (interleave (map :amount data/rows) (map :id data/rows)))"],
  ["reduce + 0", "(map (fn [[a b]] (* a b)) (take 7 (partition 2 (interleave data/xs (map inc data/xs)))))"],
  ["count", "(partition 2 (interleave data/xs [:a :b :c]))"],
  ["count", "(partition 2 (interleave [:a :b :c] data/xs))"],
  ["vec", "(partition 2 (interleave [] data/xs))"],
  ["vec", "(partition 2 (interleave nil data/xs))"],
  ["vec", '(partition 2 (interleave "abc" {:x 1 :y 2}))'],
  ["first", "(partition 2 (interleave (filter odd? (take 10 data/xs)) (remove odd? (take 10 data/xs))))"],
  ["take 3", "(partition 2 (interleave (partition 2 data/xs) (map :id data/rows)))"],
];

const fielded: ReadonlyArray<readonly [consumer: string, pipeline: string]> = [
  ["take 4", "(partition 2 1 (map :amount data/rows))"],
  ["count", "(distinct (map :status data/rows))"],
  ["take 6", "(interleave (map :id data/rows) (map :amount data/rows))"],
  ["take 3", "(partition 2 (map :amount data/xs))"],
  ["take 3", "(partition 2 (map :user-id [{:user_id 1} {:user-id 2} nil {:user_id nil}]))"],
];

async function counted(source: string, engine: "general" | "adaptive" | "fast") {
  const before = { ...lazyPipelineStats };
  const result = await run(source, { context, limits, engine });
  return {
    result,
    zips: lazyPipelineStats.zipStages - before.zipStages,
    fields: lazyPipelineStats.fieldStages - before.fieldStages,
    fallbacks: lazyPipelineStats.eagerFallbacks - before.eagerFallbacks,
  };
}

describe("pairs pulled from two interleaved streams", () => {
  for (const engine of ["general", "adaptive", "fast"] as const) {
    test(`the eager answers, on the ${engine} engine`, async () => {
      for (const [consumer, pipeline] of [...zipped, ...fielded]) {
        const source = `(${consumer} ${pipeline})`;
        const expected = outcome(await run(eagerly(consumer, pipeline), { context, limits, engine }));
        expect(outcome((await counted(source, engine)).result), source).toEqual(expected);
      }
    });
  }

  test("the pairs are what ran on the general engine", async () => {
    for (const [consumer, pipeline] of zipped) {
      const source = `(${consumer} ${pipeline})`;
      const { result, zips, fallbacks } = await counted(source, "general");
      expect(result.ok, source).toBe(true);
      expect(zips, source).toBe(1);
      expect(fallbacks, source).toBe(0);
    }
  });

  test("a keyword over a collection is read in the pull, on the general engine", async () => {
    for (const [consumer, pipeline] of fielded) {
      const source = `(${consumer} ${pipeline})`;
      const { result, fields, zips, fallbacks } = await counted(source, "general");
      expect(result.ok, source).toBe(true);
      expect(fields, source).toBeGreaterThan(0);
      expect(zips, source).toBe(0);
      expect(fallbacks, source).toBe(0);
    }
  });

  test("other partitions of an interleave keep the general stages", async () => {
    for (const source of [
      "(take 3 (partition 3 (interleave data/xs data/xs)))",
      "(take 3 (partition 2 1 (interleave data/xs data/xs)))",
      "(take 3 (partition-all 2 (interleave data/xs data/xs)))",
      "(take 3 (partition 2 2 [0] (interleave data/xs data/xs)))",
    ]) {
      const { result, zips } = await counted(source, "general");
      expect(result.ok, source).toBe(true);
      expect(zips, source).toBe(0);
    }
  });

  test("no callback runs past the pairs taken", async () => {
    // The third x fails: pairs one and two never reach it, as the stages pulled one by one would not.
    const source =
      '(take 2 (partition 2 (interleave (map #(if (> % 2) (fail "too far") %) data/xs) (map inc data/xs))))';
    for (const engine of ["general", "adaptive", "fast"] as const) {
      const { result } = await counted(source, engine);
      expect(result.ok && format(result.value), engine).toBe("[[1 2] [2 3]]");
    }
    const { zips, fallbacks } = await counted(source, "general");
    expect(zips).toBe(1);
    expect(fallbacks).toBe(0);
  });

  test("each pair is charged to the memory budget", async () => {
    const big = Array.from({ length: 200_000 }, (_, i) => i);
    const source = "(count (partition 2 (interleave data/big data/big)))";
    for (const engine of ["general", "adaptive"] as const) {
      const before = lazyPipelineStats.zipStages;
      const result = await run(source, {
        context: { big },
        engine,
        limits: { ...limits, maxMemoryBytes: 2_000_000 },
      });
      expect(result.ok, engine).toBe(false);
      if (!result.ok) expect(result.error.reason, engine).toBe("memory_exceeded");
      if (engine === "general") expect(lazyPipelineStats.zipStages - before).toBe(1);
    }
  });
});

describe("field stages calling the keyword's reader", () => {
  // Plain rows, rows missing the field or holding nil, program maps, nil, numbers, vectors: the
  // reader answers the plain rows that have the field, getField the rest.
  const mixed = Array.from({ length: 700 }, (_, i) =>
    i % 7 === 0
      ? null
      : i % 11 === 0
        ? i
        : i % 13 === 0
          ? [i]
          : i % 5 === 0
            ? { other: i }
            : { amount: i % 17 === 0 ? null : i, user_id: i },
  );
  const sources: readonly string[] = [
    "(take 650 (partition 1 (map :amount data/mixed)))",
    "(take 650 (partition 1 (map :user-id data/mixed)))",
    "(take 650 (partition 1 (map :amount (map #(if (map? %) (assoc % :seen true) %) data/mixed))))",
    "(take 650 (interleave (map :amount data/mixed) (map :user_id data/mixed)))",
  ];

  for (const engine of ["general", "adaptive"] as const) {
    test(`the eager answers, on the ${engine} engine`, async () => {
      // Enough runs for the keywords to be read often enough to get their readers.
      for (let round = 0; round < 6; round++) {
        for (const source of sources) {
          const lazy = await run(source, { context: { mixed }, limits, engine });
          const eager = await run(
            source.replace(/^\(take (\d+) (.*)\)$/, "(let [all (vec $2)] (take $1 all))"),
            {
              context: { mixed },
              limits,
              engine,
            },
          );
          expect(outcome(lazy), source).toEqual(outcome(eager));
        }
      }
    });
  }

  test("the reader is what a hot keyword's stage calls, on the general engine", async () => {
    let found = 0;
    for (let round = 0; round < 6; round++) {
      const before = lazyPipelineStats.stageReaders;
      const result = await run(sources[0] as string, { context: { mixed }, limits, engine: "general" });
      expect(result.ok).toBe(true);
      found += lazyPipelineStats.stageReaders - before;
    }
    expect(found).toBeGreaterThan(0);
  });
});
