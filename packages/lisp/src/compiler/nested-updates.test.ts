/**
 * A reduce whose owned accumulator only update-in of one path length derives
 * (accumulator-use.ts, nestedUpdateCalls): in generated code, the maps its own update-in made
 * below the accumulator change in place on later steps (builtins/maps.ts, assocNested). Each
 * test proves from the counter that the in-place path ran (or did not), and that the outcome is
 * the general evaluator's, with every map the program could hold unchanged.
 */
import { describe, expect, test } from "vitest";
import { nestedSteadyStats } from "../builtins/support/nested-steady-state.js";
import { format, type RunOptions, type RunResult, run } from "../index.js";
import { analyzedFn, codeGenerationWorks } from "../test-support.js";
import { nestedUpdateCalls } from "./accumulator-use.js";
import { fastTierStats } from "./fast-tier.js";

/**
 * Maps change in place only in generated code: where code generation is forbidden (CI runs these
 * tests so too), the count must be 0 and the results must still agree.
 */
function expectInPlaceAbove(count: number, floor: number, label?: string): void {
  if (codeGenerationWorks) expect(count, label).toBeGreaterThan(floor);
  else expect(count, label).toBe(0);
}

const rows = Array.from({ length: 3000 }, (_, i) => ({
  id: i,
  region: ["north", "south", "east", "west", "central"][i % 5] as string,
  status: ["paid", "pending", "refunded"][i % 3] as string,
  // Twelve products: a map of products grows past the eight entries of a small map.
  product: `p${i % 12}`,
  quantity: (i % 9) + 1,
}));

const outcome = (result: RunResult) => (result.ok ? format(result.value) : result.error);

/** The outcome on generated code and on the general evaluator (equal), and maps changed in place. */
async function agree(source: string, options: RunOptions = {}) {
  const before = fastTierStats.nestedInPlace;
  const leavesBefore = nestedSteadyStats.leaves;
  const fast = await run(source, { context: { rows }, ...options, engine: "fast" });
  const inPlace = fastTierStats.nestedInPlace - before;
  const leaves = nestedSteadyStats.leaves - leavesBefore;
  const general = await run(source, { context: { rows }, ...options, engine: "general" });
  expect(outcome(fast), source).toEqual(outcome(general));
  // Usage too: the steady state charges what the level-by-level walk charges.
  expect(fast.usage, source).toEqual(general.usage);
  return { result: outcome(fast), inPlace, leaves };
}

describe("maps a reduce's own update-in made below its accumulator", () => {
  test("change in place, two and three levels deep, small or grown past a small map", async () => {
    for (const path of ["[(:region o) (:status o)]", "[(:region o) (:status o) (:product o)]"]) {
      const source = `(reduce (fn [acc o] (update-in acc ${path} (fnil + 0) (:quantity o))) {} data/rows)`;
      const { result, inPlace } = await agree(source);
      expectInPlaceAbove(inPlace, rows.length / 2, path);
      expect(typeof result).toBe("string");
    }
    const totals = await agree(
      "(reduce (fn [acc o] (update-in acc [(:region o) (:product o)] (fnil + 0) (:quantity o))) {} data/rows)",
    );
    expectInPlaceAbove(totals.inPlace, 0);
    const north = rows.filter((row) => row.region === "north");
    const p0 = north.filter((row) => row.product === "p0").reduce((sum, row) => sum + row.quantity, 0);
    const check = await run(
      `(get-in (reduce (fn [acc o] (update-in acc [(:region o) (:product o)] (fnil + 0) (:quantity o))) {} data/rows) ["north" "p0"])`,
      { context: { rows }, engine: "fast" },
    );
    expect(check.ok && check.value).toBe(p0);
  });

  test("with two keys, the steady state reads the old leaf and writes the new one in a call each", async () => {
    const two = await agree(
      "(reduce (fn [acc o] (update-in acc [(:region o) (:status o)] (fnil + 0) (:quantity o))) {} data/rows)",
    );
    // Every row but the first of each region (five) finds its region's map made by this reduce.
    expectInPlaceAbove(two.leaves, rows.length - 6);
    const literal = await agree(
      '(reduce (fn [acc o] (update-in acc [(:region o) (:status o)] (fn [n] (+ (or n 0) 1)))) {"north" {"paid" 7}} data/rows)',
    );
    expectInPlaceAbove(literal.leaves, 0);
    // Three keys take the level-by-level walk, still in place below the top.
    const three = await agree(
      "(reduce (fn [acc o] (update-in acc [(:region o) (:status o) (:product o)] (fnil + 0) (:quantity o))) {} data/rows)",
    );
    expect(three.leaves).toBe(0);
    expectInPlaceAbove(three.inPlace, rows.length / 2);
  });

  test("never change a map the program already held: the initial value's stay as they were", async () => {
    const source = `(let [inner {"paid" 1000}
          init {"north" inner "south" {}}
          result (reduce (fn [acc o] (update-in acc [(:region o) (:status o)] (fnil + 0) (:quantity o))) init data/rows)]
      [inner init (get-in result ["north" "paid"]) (count (get result "east"))])`;
    const { result, inPlace } = await agree(source);
    expectInPlaceAbove(inPlace, 0);
    const paid = rows
      .filter((row) => row.region === "north" && row.status === "paid")
      .reduce((sum, row) => sum + row.quantity, 1000);
    expect(result).toBe(`[{"paid" 1000} {"north" {"paid" 1000} "south" {}} ${paid} 3]`);
  });

  test("a step that hands back the accumulator or another value, or fails, stays exact", async () => {
    const branches = await agree(
      '(reduce (fn [acc o] (if (= (:status o) "refunded") acc (update-in acc [(:region o) (:status o)] (fnil + 0) (:quantity o)))) {} data/rows)',
    );
    expectInPlaceAbove(branches.inPlace, 0);
    // Once a step hands back something else, nothing is owned any more.
    const reset = await agree(
      "(reduce (fn [acc o] (if (= (:id o) 1500) {} (update-in acc [(:region o) (:status o)] (fnil + 0) (:quantity o)))) {} data/rows)",
    );
    expect(reset.result).toMatch(/^\{/);
    const failing = rows.map((row, i) => (i === 2500 ? { ...row, quantity: "many" } : row));
    const failed = await agree(
      "(reduce (fn [acc o] (update-in acc [(:region o) (:status o)] (fnil + 0) (:quantity o))) {} data/rows)",
      { context: { rows: failing } },
    );
    expect(failed.result).toHaveProperty("reason", "type_error");
  });

  test("are left alone when the fn's function could see them", async () => {
    for (const source of [
      // A shorter path in another branch hands a map the longer one made to the function.
      "(reduce (fn [acc o] (if (odd? (:id o)) (update-in acc [(:region o)] (fn [m] (assoc m :seen true))) (update-in acc [(:region o) (:status o)] (fnil + 0) 1))) {} data/rows)",
      "(reduce (fn [acc o] (if (odd? (:id o)) (update acc (:region o) (fn [m] [m m])) (update-in acc [(:region o) (:status o)] (fnil + 0) 1))) {} data/rows)",
      "(reduce (fn [acc o] (merge-with merge acc {(:region o) {(:status o) 1}})) {} data/rows)",
    ]) {
      const { inPlace } = await agree(source);
      expect(inPlace, source).toBe(0);
    }
  });
});

describe("nestedUpdateCalls", () => {
  test.each([
    ["(fn [acc o] (update-in acc [(:a o) (:b o)] (fnil + 0) 1))", 1],
    ["(fn [acc o] (if (:x o) acc (update-in acc [:a (:b o)] inc)))", 1],
    ["(fn [acc o] (if (:x o) (update-in acc [:a :b] inc) (update-in acc [:c :d] dec)))", 2],
  ])("%s: %i call(s)", (source, count) => {
    expect(nestedUpdateCalls(analyzedFn(source))?.size).toBe(count);
  });

  test.each([
    "(fn [acc o] (update-in acc [(:a o)] inc))",
    "(fn [acc o] (if (:x o) (update-in acc [:a] inc) (update-in acc [:a :b] inc)))",
    "(fn [acc o] (if (:x o) (update acc :a inc) (update-in acc [:a :b] inc)))",
    "(fn [acc o] (if (:x o) (assoc acc :a 1) (update-in acc [:a :b] inc)))",
    "(fn [acc o] (update-in acc (:path o) inc))",
    "(fn [acc o] (conj acc o))",
    // Not owned at all: the accumulator is read.
    "(fn [acc o] (update-in acc [(count acc) :b] inc))",
  ])("%s: none", (source) => {
    expect(nestedUpdateCalls(analyzedFn(source))).toBeUndefined();
  });
});
