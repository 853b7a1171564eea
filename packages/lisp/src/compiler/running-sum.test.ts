/**
 * Running sums in generated code (running-sum.ts): `(reduce + ...)` and `(sum-by :k ...)` keep a
 * double and a float flag, and must give exactly what folding add gives (ints, floats, whole
 * floats, big integers, errors), with no rerun on the general evaluator for plain numbers.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { generatedSource } from "../test-support.js";
import { fastTierStats } from "./fast-tier.js";

function outcome(result: RunResult): unknown {
  return result.ok ? { value: format(result.value) } : { error: result.error.reason };
}

const term = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom("9007199254740991", "-9007199254740991", "9007199254740993", "4503599627370496"),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => String(x).replace(/^(-?\d+)$/, "$1.0")),
  fc.constantFrom("0.5", "1.5", "2.0", "-0.0", "0.1", "0.2", "##NaN", "##Inf"),
  fc.constantFrom('"a"', "nil", ":k"),
);

const shapes = [
  (xs: string, init: string) => `(reduce + ${init} ${xs})`,
  (xs: string, _init: string) => `(reduce + ${xs})`,
  (xs: string, init: string) => `(reduce + ${init} (map identity ${xs}))`,
  (xs: string, _init: string) => `(reduce + (filter some? ${xs}))`,
  (xs: string, _init: string) => `(sum-by :v (map (fn [x] {:v x}) ${xs}))`,
  (xs: string, init: string) => `(reduce (fn [acc x] (+ acc (* x 2))) ${init} ${xs})`,
  (xs: string, init: string) => `(reduce (fn [acc x] (+ (* x x) acc)) ${init} ${xs})`,
  (xs: string, init: string) =>
    `(reduce (fn [acc {:keys [a b]}] (+ acc (* a b))) ${init} (map (fn [x] {:a x :b 1.5}) ${xs}))`,
  (xs: string, init: string) => `(reduce (fn [acc x] (let [y (* x 3)] (+ acc y))) ${init} ${xs})`,
  (xs: string, init: string) => `(reduce (fn [acc x] (+ acc x)) ${init} ${xs})`,
  (xs: string, init: string) => `(reduce (fn [acc x] (+ acc (* acc x))) ${init} ${xs})`,
];

describe("running sums", () => {
  test("a reduce fn that reads its accumulator otherwise keeps the accumulator", () => {
    expect(generatedSource("(reduce (fn [acc x] (+ acc (* x 2))) 0 [1 2])")).toContain("$.makeFloat(");
    expect(generatedSource("(reduce (fn [acc x] (+ acc (* acc x))) 0 [1 2])")).not.toContain("$.makeFloat(");
    expect(
      generatedSource("(reduce (fn [acc x] (+ acc (count (filter #(= % acc) [x])))) 0 [1 2])"),
    ).not.toContain("$.makeFloat(");
  });

  test("agree with the general evaluator on every kind of term", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(term, { maxLength: 7 }),
        fc.constantFrom("0", "0.0", "-0.0", "1.5", "nil", "9007199254740991"),
        fc.nat(shapes.length - 1),
        async (terms, init, shape) => {
          const source = (shapes[shape] as (typeof shapes)[number])(`[${terms.join(" ")}]`, init);
          const general = await run(source, { engine: "general" });
          const fast = await run(source, { engine: "fast" });
          expect(outcome(fast), source).toEqual(outcome(general));
        },
      ),
      { numRuns: 400 },
    );
  });

  test("plain numbers, some sums whole floats, run without a rerun", async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ a: (i % 8) * 0.25, b: i }));
    for (const source of [
      "(reduce + 0 (map :a data/rows))",
      "(reduce + (map :a (filter #(> (:b %) 10) data/rows)))",
      "(sum-by :a data/rows)",
      "(let [xs (mapv :a data/rows)] (reduce + 0 xs))",
      "(reduce (fn [acc {:keys [a b]}] (+ acc (* a b))) 0 data/rows)",
      "(reduce (fn [acc r] (+ acc (:a r))) 0 data/rows)",
    ]) {
      expect(generatedSource(source), source).toContain("$.makeFloat(");
      const reruns = fastTierStats.errorReruns;
      const fast = await run(source, { engine: "fast", context: { rows } });
      expect(fastTierStats.errorReruns, source).toBe(reruns);
      const general = await run(source, { engine: "general", context: { rows } });
      expect(outcome(fast), source).toEqual(outcome(general));
    }
  });
});
