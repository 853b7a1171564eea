/**
 * `(merge-with f acc {k v})` and `(update-in acc [k1 k2 ...] f x)` on the general evaluator
 * (accumulator-calls.ts): each test proves from the counters that the node ran, and that the
 * outcome and the usage (iterations, memory charged) are those of the generic call, reached by
 * calling the same builtin through a local (which no shape recognizes), and of generated code.
 */
import { describe, expect, test } from "vitest";
import { nestedInPlaceStats } from "../builtins/support/nested-in-place.js";
import { format, type RunOptions, type RunResult, run } from "../index.js";
import { accumulatorCallStats } from "./accumulator-calls.js";

const rows = Array.from({ length: 2000 }, (_, i) => ({
  id: i,
  region: ["north", "south", "east", "west", "central"][i % 5] as string,
  status: ["paid", "pending", "refunded"][i % 3] as string,
  product: `p${i % 12}`,
  quantity: (i % 9) + 1,
}));

/** Rows whose keys are the names a host object must not be confused by. */
const hostile = JSON.parse(
  '[{"__proto__": "a", "constructor": "b", "\\u0000k": "c", "q": 1}, {"__proto__": "a", "constructor": "toString", "\\u0000k": "d", "q": 2}]',
) as unknown[];

const shown = (result: RunResult) =>
  result.ok
    ? { value: format(result.value), usage: result.usage }
    : { error: result.error.reason, message: result.error.message };

/**
 * The program on the general evaluator, with `name` as written (the shape) and called through a
 * local (the generic call): equal outcomes and usage; generated code gives the same value.
 * Returns how often each counter moved on the shape's run.
 */
async function agree(source: (name: string) => string, name: string, options: RunOptions = {}) {
  const context = { rows, hostile };
  const before = { ...accumulatorCallStats, inPlace: nestedInPlaceStats.nestedInPlace };
  const shape = await run(source(name), { context, ...options, engine: "general" });
  const ran = {
    mergeEntry: accumulatorCallStats.mergeEntry - before.mergeEntry,
    updateIn: accumulatorCallStats.updateIn - before.updateIn,
    owned: accumulatorCallStats.updateInOwned - before.updateInOwned,
    inPlace: nestedInPlaceStats.nestedInPlace - before.inPlace,
  };
  const generic = await run(`(let [f ${name}] ${source("f")})`, { context, ...options, engine: "general" });
  expect(shown(shape), source(name)).toEqual(shown(generic));
  const fast = await run(source(name), { context, ...options, engine: "fast" });
  expect(fast.ok ? format(fast.value) : fast.error.reason).toBe(
    shape.ok ? format(shape.value) : shape.error.reason,
  );
  return { ran, shape };
}

describe("merge-with of a one-entry literal on the general evaluator", () => {
  test("folds without building the literal, with the generic call's answers and charges", async () => {
    for (const source of [
      (mw: string) => `(reduce (fn [acc o] (${mw} + acc {(:product o) (:quantity o)})) {} data/rows)`,
      (mw: string) => `(reduce (fn [acc o] (${mw} + acc {(:product o) (:quantity o)})) nil data/rows)`,
      (mw: string) => `(reduce (fn [acc o] (${mw} max acc {:top (:quantity o)})) {:top 3} data/rows)`,
      (mw: string) => `(reduce (fn [acc o] (${mw} + acc {(:__proto__ o) (:q o)})) {} data/hostile)`,
      (mw: string) =>
        `(reduce (fn [acc o] (${mw} str acc {(:constructor o) (get o "\\u0000k")})) {} data/hostile)`,
      (mw: string) => `(${mw} + [1] {:a 2})`,
      (mw: string) => `(${mw} 5 {:a 1} {:a 2})`,
    ]) {
      const { ran } = await agree(source, "merge-with");
      expect(ran.mergeEntry, source("merge-with")).toBeGreaterThan(0);
    }
  });

  test("limits hold: memory stops it where the generic call stops, and both count the same work", async () => {
    const source = (mw: string) => `(reduce (fn [acc o] (${mw} + acc {(:id o) (:quantity o)})) {} data/rows)`;
    const memory = await agree(source, "merge-with", { limits: { maxMemoryBytes: 20_000 } });
    expect(memory.shape.ok).toBe(false);
    // reduce's steps are work, not loop iterations: the budget is not spent, the same on both.
    const iterations = await agree(source, "merge-with", { limits: { maxIterations: 500 } });
    expect(iterations.shape.ok).toBe(true);
  });

  test("an argument that waits on a tool is awaited in order", async () => {
    const tools = { tag: async (args: Record<string, unknown>) => `t${String(args.id)}` };
    const source = (mw: string) =>
      `(reduce (fn [acc o] (${mw} + acc {(tool/tag {:id (mod (:id o) 3)}) (:quantity o)})) {} (take 30 data/rows))`;
    const { ran, shape } = await agree(source, "merge-with", { tools });
    expect(ran.mergeEntry).toBe(30);
    const totals: Record<string, number> = {};
    for (const row of rows.slice(0, 30))
      totals[`t${row.id % 3}`] = (totals[`t${row.id % 3}`] ?? 0) + row.quantity;
    expect(shape.ok && format(shape.value)).toBe(`{"t0" ${totals.t0} "t1" ${totals.t1} "t2" ${totals.t2}}`);
  });
});

describe("update-in of a literal path on the general evaluator", () => {
  test("walks the path without the vector, and changes the maps its reduce made in place", async () => {
    for (const path of ["[(:region o) (:status o)]", "[(:region o) (:status o) (:product o)]"]) {
      const source = (ui: string) =>
        `(reduce (fn [acc o] (${ui} acc ${path} (fnil + 0) (:quantity o))) {} data/rows)`;
      const { ran } = await agree(source, "update-in");
      expect(ran.updateIn, path).toBe(rows.length);
      expect(ran.owned, path).toBe(rows.length);
      expect(ran.inPlace, path).toBeGreaterThan(rows.length / 2);
    }
  });

  test("never changes a map the program held before, nor one a step handed on", async () => {
    const held = (ui: string) => `(let [inner {"paid" 1000}
          init {"north" inner "south" {}}
          result (reduce (fn [acc o] (${ui} acc [(:region o) (:status o)] (fnil + 0) (:quantity o))) init data/rows)]
      [inner init (get-in result ["north" "paid"]) (count (get result "east"))])`;
    const { ran, shape } = await agree(held, "update-in");
    expect(ran.inPlace).toBeGreaterThan(0);
    expect(shape.ok && format(shape.value)).toMatch(
      /^\[\{"paid" 1000\} \{"north" \{"paid" 1000\} "south" \{\}\} \d+ 3\]$/,
    );
    // Once a step hands back another map, nothing is owned: the maps below are derived from.
    const reset = (ui: string) =>
      `(reduce (fn [acc o] (if (= (:id o) 1000) {} (${ui} acc [(:region o) (:status o)] (fnil + 0) (:quantity o)))) {} data/rows)`;
    expect((await agree(reset, "update-in")).ran.updateIn).toBeGreaterThan(0);
    // A fn that reads its accumulator otherwise owns nothing: the walk derives every map.
    const reads = (ui: string) =>
      `(reduce (fn [acc o] (${ui} acc [(:region o) (count acc)] (fnil + 0) 1)) {} (take 50 data/rows))`;
    const read = await agree(reads, "update-in");
    expect(read.ran.updateIn).toBe(50);
    expect(read.ran.owned).toBe(0);
    expect(read.ran.inPlace).toBe(0);
  });

  test("other functions, vectors on the path, nil, errors and hostile keys answer as the builtin does", async () => {
    for (const source of [
      (ui: string) =>
        `(reduce (fn [acc o] (${ui} acc [(:region o) (:status o)] (fnil conj []) (:id o))) {} (take 40 data/rows))`,
      (ui: string) => `(reduce (fn [acc o] (${ui} acc [(:region o) (:status o)] inc)) {} data/rows)`,
      (ui: string) =>
        `(reduce (fn [acc o] (${ui} acc [(:region o) :n] (fnil - 0) (:quantity o))) {"north" {:n 5}} data/rows)`,
      (ui: string) =>
        `(reduce (fn [acc o] (${ui} acc [(:__proto__ o) (:constructor o)] (fnil + 0) (:q o))) {} data/hostile)`,
      (ui: string) =>
        `(reduce (fn [acc o] (${ui} acc [(get o "\\u0000k") :x] (fnil + 0) (:q o))) {} data/hostile)`,
      (ui: string) => `(${ui} {:a [1 2]} [:a 1] (fnil + 0) 5)`,
      (ui: string) => `(${ui} {:a [1 2]} [:a 5] (fnil + 0) 5)`,
      (ui: string) => `(${ui} {:a 1} [:a :b] (fnil + 0) 5)`,
      (ui: string) => `(${ui} nil [:a :b] (fnil + 0) 5)`,
      (ui: string) => `(${ui} {:a {:b "x"}} [:a :b] (fnil + 0) 5)`,
      (ui: string) => `(${ui} {:a {:b 1}} [:a :b] (fnil + 0) 1 2)`,
      (ui: string) => `(${ui} {:a {:b 1}} [:a :b] 7 1)`,
    ]) {
      const { ran } = await agree(source, "update-in");
      expect(ran.updateIn, source("update-in")).toBeGreaterThan(0);
    }
  });

  test("limits hold, and a failing step stops the reduce as the builtin does", async () => {
    const source = (ui: string) =>
      `(reduce (fn [acc o] (${ui} acc [(:id o) (:status o)] (fnil + 0) (:quantity o))) {} data/rows)`;
    expect((await agree(source, "update-in", { limits: { maxMemoryBytes: 50_000 } })).shape.ok).toBe(false);
    expect((await agree(source, "update-in", { limits: { maxIterations: 700 } })).shape.ok).toBe(true);
    const failing = (ui: string) =>
      `(reduce (fn [acc o] (${ui} acc [(:region o) (:status o)] (fnil + 0) (if (= (:id o) 1500) "many" (:quantity o)))) {} data/rows)`;
    const failed = await agree(failing, "update-in");
    expect(failed.shape.ok).toBe(false);
  });

  test("an argument that waits on a tool is awaited in order", async () => {
    const tools = { tag: async (args: Record<string, unknown>) => `t${String(args.id)}` };
    const source = (ui: string) =>
      `(reduce (fn [acc o] (${ui} acc [(:region o) (tool/tag {:id (mod (:id o) 3)})] (fnil + 0) (:quantity o))) {} (take 30 data/rows))`;
    const { ran, shape } = await agree(source, "update-in", { tools });
    expect(ran.updateIn).toBe(30);
    expect(shape.ok).toBe(true);
  });
});
