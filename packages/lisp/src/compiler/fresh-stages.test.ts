/**
 * Two `map` stages of a fused pipeline, each one update call (fresh-stages.ts): in generated code,
 * the upper stage writes in place the map the lower stage made (builtins/maps.ts, assocFresh).
 * Each test proves from the counter that the in-place path ran (or did not), and that the outcome
 * is the general evaluator's, with every map the program could still hold unchanged.
 */
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { codeGenerationWorks } from "../test-support.js";
import { fastTierStats } from "./fast-tier.js";

/** Maps are written in place only in generated code: none where code generation is forbidden. */
const ifGenerated = (count: number) => (codeGenerationWorks ? count : 0);

const rows = Array.from({ length: 3000 }, (_, i) => ({
  id: i,
  amount: (i % 97) + 0.5,
  quantity: (i % 9) + 1,
}));

const outcome = (result: RunResult) => (result.ok ? format(result.value) : result.error);

/** The outcome on generated code and on the general evaluator (equal), and maps written in place. */
async function agree(source: string) {
  const before = fastTierStats.freshInPlace;
  const fast = await run(source, { context: { rows }, engine: "fast" });
  const inPlace = fastTierStats.freshInPlace - before;
  const general = await run(source, { context: { rows }, engine: "general" });
  expect(outcome(fast), source).toEqual(outcome(general));
  return { result: outcome(fast), inPlace };
}

describe("a map stage's update on the map the map stage below made", () => {
  test("is written in place, once per row, with the general evaluator's result", async () => {
    const { result, inPlace } = await agree(`(->> data/rows
       (map #(update % :amount * 1.2))
       (map #(update-in % [:quantity] inc))
       (reduce (fn [sum o] (+ sum (* (:amount o) (:quantity o)))) 0))`);
    expect(inPlace).toBe(ifGenerated(rows.length));
    const expected = rows.reduce((sum, row) => sum + row.amount * 1.2 * (row.quantity + 1), 0);
    expect(Number(result)).toBeCloseTo(expected, 6);
    // Three stages: the middle one's map, written in place, is still fresh for the top one.
    const three = await agree(`(->> data/rows
       (map #(update % :amount * 2))
       (map #(update % :quantity inc))
       (map #(update % :id dec))
       (into []) (take-last 2))`);
    expect(three.inPlace).toBe(ifGenerated(2 * rows.length));
    expect(three.result).toBe(
      `[{"amount" 177.0 "id" 2997 "quantity" 3} {"amount" 179.0 "id" 2998 "quantity" 4}]`,
    );
  });

  test("never writes a map the program already held", async () => {
    // The lower update leaves a program map as it was (the same value), so it hands on that map
    // itself, which the vector `held` still holds: the upper stage must derive from it.
    const { result, inPlace } = await agree(`(let [held (mapv #(assoc % :tag 1) data/rows)
          total (->> held
                     (map #(update % :tag (fn [t] t)))
                     (map #(update % :quantity inc))
                     (reduce (fn [sum o] (+ sum (:quantity o))) 0))]
      [total (first held)])`);
    expect(inPlace).toBe(0);
    const total = rows.reduce((sum, row) => sum + row.quantity + 1, 0);
    expect(result).toBe(`[${total} {:tag 1 "amount" 0.5 "id" 0 "quantity" 1}]`);
  });

  test("an upper stage that reads its map elsewhere, or a stage below of another kind, derives", async () => {
    const reads = await agree(`(->> data/rows
       (map #(update % :amount * 2))
       (map #(update % :quantity + (:id %)))
       (reduce (fn [sum o] (+ sum (:quantity o))) 0))`);
    expect(reads.inPlace).toBe(0);
    const filtered = await agree(`(->> data/rows
       (map #(update % :amount * 2))
       (filter #(> (:quantity %) 4))
       (map #(update % :quantity inc))
       (reduce (fn [sum o] (+ sum (:quantity o))) 0))`);
    expect(filtered.inPlace).toBe(0);
    // The source rows themselves are never written.
    expect(rows[0]).toEqual({ id: 0, amount: 0.5, quantity: 1 });
  });
});
