/**
 * Group totals (analyzer/group-totals.ts, builtins/group-totals.ts): `(map (fn [[k rows]] ...)
 * (group-by :k coll))` and `(update-vals (group-by :k coll) (fn [rows] ...))` whose groups only feed
 * `sum-by` and `count` keep per-group totals in one pass. Every program is compared with the same
 * program written so that the rewrite cannot apply (the groups bound by a `let` first, so group-by
 * builds them and sum-by walks them), on every engine: the value or the error, and the usage
 * (memory charged, iterations). The counters prove the one pass ran, or gave way to group-by.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { format, type RunOptions, run } from "../index.js";
import { analyzedBody } from "../test-support.js";
import { groupMapStats } from "../values/lisp-map.js";
import { groupTotalsStats } from "./group-totals.js";

type Outcome =
  | { value: string; memory: number | undefined; iterations: number | undefined }
  | { reason: string; message: string };

async function outcome(source: string, options: RunOptions): Promise<Outcome> {
  const result = await run(source, options);
  return result.ok
    ? { value: format(result.value), memory: result.usage?.memoryBytes, iterations: result.usage?.iterations }
    : { reason: result.error.reason, message: result.error.message };
}

const ENGINES = ["general", "fast", undefined] as const;

/** Shapes the rewrite takes (`$G` is the group-by call), each with a twin it does not take. */
const SHAPES = [
  "(into {} (map (fn [[k rows]] [k {:total (sum-by :amount rows) :n (count rows)}]) $G))",
  "(->> $G (map (fn [[id orders]] {:id id :total (sum-by :amount orders) :orders (count orders)})) (sort-by :total >) (take 3))",
  "(mapv (fn [[_ rows]] (+ (count rows) (sum-by :amount rows) (sum-by :qty rows) (sum-by :amount rows))) $G)",
  "(update-vals $G (fn [rows] {:n (count rows) :t (sum-by :qty rows)}))",
  "(update-vals $G (fn [rows] (when (> (count rows) 1) (sum-by :amount rows))))",
  "(update-vals $G (fn [rows] {:n (count rows) :max (apply max (map :amount rows))}))",
  "(into {} (map (fn [[k rows]] [k [(apply min (map :qty rows)) (apply max (map :amount rows)) (sum-by :qty rows)]]) $G))",
];

const GROUP = "(group-by :region data/rows)";
const fused = (shape: string) => shape.replace("$G", GROUP);
const plain = (shape: string) => `(let [g ${GROUP}] ${shape.replace("$G", "g")})`;

/** Rows as a tool or the host would give them: keys of every sort, numbers of every sort, odd values. */
const REGIONS = ["n", "s", "", "\u0000n", "__proto__", "constructor", "a-b", "a_b", null, 1, 2.5];
const plainAmount = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
);
const oddAmount = fc.oneof(
  fc.constant(null),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.constant("12"),
  fc.constant(true),
  fc.constant(Number.NaN),
  fc.constant(-0),
  fc.constant([1]),
);
const row = (amount: fc.Arbitrary<unknown>) =>
  fc.record(
    {
      region: fc.constantFrom(...REGIONS),
      amount,
      qty: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constant(null)),
    },
    { requiredKeys: [] },
  );

describe("group totals", () => {
  test("the analyzer rewrites the shapes, not their twins nor other uses of the groups", () => {
    const calls = (source: string) =>
      JSON.stringify(analyzedBody(source), (_k, v) => (typeof v === "bigint" ? 0 : v));
    for (const shape of SHAPES) {
      expect(calls(fused(shape))).toContain("group-by totals");
      expect(calls(plain(shape))).not.toContain("group-by totals");
    }
    for (const other of [
      "(map (fn [[k rows]] [k (first rows)]) $G)",
      "(map (fn [[k rows]] (apply + (map :a rows))) $G)",
      "(map (fn [[k rows]] (apply max (map :a (rest rows)))) $G)",
      "(map (fn [[k rows]] (apply max (filter :a rows))) $G)",
      "(map (fn [[k rows]] [k (count rows) rows]) $G)",
      "(map (fn [[k rows]] (map (fn [r] (count rows)) rows)) $G)",
      "(map (fn [[k rows]] (sum-by :a (rest rows))) $G)",
      "(map (fn [[k rows]] (sum-by #(:a %) rows)) $G)",
      "(map (fn [[k rows]] k) $G)",
      "(update-vals $G (fn [rows] (fn [] (count rows))))",
      "(map (fn [[k rows]] (count rows)) (group-by #(:region %) data/rows))",
    ])
      expect(calls(fused(other))).not.toContain("group-by totals");
  });

  test("every shape gives the value, error and usage of its twin, on every engine", async () => {
    const samples = [
      ...fc.sample(fc.array(row(plainAmount), { maxLength: 40 }), { numRuns: 30, seed: 29 }),
      ...fc.sample(fc.array(row(fc.oneof(plainAmount, oddAmount)), { maxLength: 40 }), {
        numRuns: 40,
        seed: 30,
      }),
    ];
    const before = { ...groupTotalsStats };
    for (const rows of samples) {
      for (const shape of SHAPES) {
        for (const engine of ENGINES) {
          const options: RunOptions =
            engine === undefined ? { context: { rows } } : { context: { rows }, engine };
          const label = `${shape} ${engine} ${JSON.stringify(rows)}`;
          expect(await outcome(fused(shape), options), label).toEqual(await outcome(plain(shape), options));
        }
      }
    }
    // Both ways ran: the one pass, and group-by where a value was not a plain number.
    expect(groupTotalsStats.fusedRuns).toBeGreaterThan(before.fusedRuns + 500);
    expect(groupTotalsStats.groupByFallbacks).toBeGreaterThan(before.groupByFallbacks + 100);
  });

  test("plain numbers take the one pass; a value sum-by must judge gives way to group-by", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      region: `r${i % 7}`,
      amount: i % 5 === 0 ? 0.5 : i,
    }));
    const shape = SHAPES[0] as string;
    for (const engine of ENGINES) {
      const options: RunOptions =
        engine === undefined ? { context: { rows } } : { context: { rows }, engine };
      let before = { ...groupTotalsStats };
      expect(await outcome(fused(shape), options)).toEqual(await outcome(plain(shape), options));
      expect(groupTotalsStats.fusedRuns - before.fusedRuns).toBe(1);
      expect(groupTotalsStats.groupByFallbacks - before.groupByFallbacks).toBe(0);
      expect(groupTotalsStats.reads - before.reads).toBe(14);

      const bad = { rows: [...rows, { region: "r3", amount: "7" }] };
      before = { ...groupTotalsStats };
      const failed = await outcome(fused(shape), { ...options, context: bad });
      expect(failed).toEqual(await outcome(plain(shape), { ...options, context: bad }));
      expect(failed).toMatchObject({ message: expect.stringContaining('string "7" is not a number') });
      expect(groupTotalsStats.fusedRuns - before.fusedRuns).toBe(0);
      // At least once: generated code that fails runs again on the general evaluator.
      expect(groupTotalsStats.groupByFallbacks - before.groupByFallbacks).toBeGreaterThanOrEqual(1);
      expect(groupTotalsStats.reads - before.reads).toBe(0);

      // An integer sum past 2^53 is sum-by's to make exact.
      const huge = { region: "big", amount: Number.MAX_SAFE_INTEGER };
      const big = { rows: [...rows, huge, huge] };
      before = { ...groupTotalsStats };
      expect(await outcome(fused(shape), { ...options, context: big })).toEqual(
        await outcome(plain(shape), { ...options, context: big }),
      );
      expect(groupTotalsStats.fusedRuns - before.fusedRuns).toBe(0);
      expect(groupTotalsStats.groupByFallbacks - before.groupByFallbacks).toBeGreaterThanOrEqual(1);
    }
  });

  test("the memory limit stops both at the same budget", async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ region: `r${i % 50}`, amount: i, qty: i % 7 }));
    const before = groupTotalsStats.fusedRuns;
    for (const shape of SHAPES) {
      const used = await outcome(plain(shape), { context: { rows }, engine: "general" });
      const memory = (used as { memory: number }).memory;
      for (const engine of ENGINES)
        for (const budget of [memory - 1, memory]) {
          const options: RunOptions = {
            context: { rows },
            ...(engine === undefined ? {} : { engine }),
            limits: { maxMemoryBytes: budget },
          };
          expect(await outcome(fused(shape), options), `${shape} ${engine} ${budget}`).toEqual(
            await outcome(plain(shape), options),
          );
        }
    }
    expect(groupTotalsStats.fusedRuns - before).toBeGreaterThanOrEqual(SHAPES.length * ENGINES.length * 2);
  });
  test("many groups: the pass's own table becomes the map, and every spec's values grow with it", async () => {
    // Hundreds of groups (past the flat limit and the values store's first size), keys of every
    // sort (NUL-led and prototype names, floats, nil), several specs over floats and integers
    // (no nil values: (apply min (map :qty rows)) gives such groups to group-by).
    const odd: unknown[] = ["\u0000k", "__proto__", "constructor", null, 2.5, -0, "", "a-b"];
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      region: i % 11 === 0 ? odd[i % odd.length] : i % 3 === 0 ? `r${i % 397}` : i % 401,
      amount: i % 5 === 0 ? i / 4 : i,
      qty: i % 7 === 0 ? 0.5 : i % 9,
    }));
    for (const shape of SHAPES)
      for (const engine of ENGINES) {
        const options: RunOptions =
          engine === undefined ? { context: { rows } } : { context: { rows }, engine };
        const before = { ...groupTotalsStats };
        const adopted = groupMapStats.adopted;
        expect(await outcome(fused(shape), options), `${shape} ${engine}`).toEqual(
          await outcome(plain(shape), options),
        );
        expect(groupTotalsStats.fusedRuns - before.fusedRuns, `${shape} ${engine}`).toBeGreaterThanOrEqual(1);
        expect(groupTotalsStats.groupByFallbacks - before.groupByFallbacks).toBe(0);
        expect(groupMapStats.adopted - adopted, `${shape} ${engine}`).toBeGreaterThanOrEqual(1);
      }
  });
});
