/**
 * tupleIndexOrder (term-order.ts): sort keys made by `juxt` compare position by position, exactly as
 * compareTerms orders them, whenever every position holds numbers only or strings only.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { keyColumnStats } from "../builtins/support/key-columns.js";
import { format, type RunResult, run } from "../index.js";
import { compareTerms, tupleIndexOrder } from "./term-order.js";

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe("tupleIndexOrder", () => {
  test("orders tuples of numbers and strings as compareTerms does", () => {
    const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -0, Number.NaN, 1.5, 2));
    const text = fc.oneof(fc.string(), fc.constantFrom("", "a", "B", "é", "😀", "a\u0000"));
    const tuples = fc
      .array(fc.constantFrom<"number" | "string">("number", "string"), { minLength: 1, maxLength: 3 })
      .chain((kinds) =>
        fc.array(fc.tuple(...kinds.map((kind) => (kind === "number" ? number : text))), {
          minLength: 2,
          maxLength: 12,
        }),
      );
    fc.assert(
      fc.property(tuples, (keys) => {
        const order = tupleIndexOrder(keys);
        expect(order).toBeDefined();
        for (const [x, a] of keys.entries())
          for (const [y, b] of keys.entries())
            expect(sign(order?.(x, y) ?? 99)).toBe(sign(compareTerms(a, b)));
      }),
      { numRuns: 300 },
    );
  });

  test("declines keys that are not tuples of one shape", () => {
    expect(tupleIndexOrder([1, 2])).toBeUndefined();
    expect(tupleIndexOrder([[1], [1, 2]])).toBeUndefined();
    expect(tupleIndexOrder([[1], ["a"]])).toBeUndefined();
    expect(tupleIndexOrder([[1n], [2n]])).toBeUndefined();
    expect(tupleIndexOrder([[null], [1]])).toBeUndefined();
    expect(tupleIndexOrder([[]])).toBeUndefined();
  });
});

describe("(sort-by (juxt ...) rows)", () => {
  const rows = [
    { r: "b", a: 2, id: 1 },
    { r: "a", a: 2, id: 2 },
    { r: "b", a: 1, id: 3 },
    { r: "a", a: 2, id: 4 },
    { r: "a", a: 3.5, id: 5 },
  ];

  test("sorts by each position in turn, keeping ties in order, both ways", async () => {
    const up = await run("(mapv :id (sort-by (juxt :r :a) data/rows))", { context: { rows } });
    expect(up.ok && format(up.value)).toBe("[2 4 5 3 1]");
    const down = await run("(mapv :id (sort-by (juxt :r :a) #(compare %2 %1) data/rows))", {
      context: { rows },
    });
    expect(down.ok && format(down.value)).toBe("[1 3 5 2 4]");
  });

  const outcome = (result: RunResult) => (result.ok ? format(result.value) : result.error.message);

  test("reads juxt's keys as columns, in the order vectors of the same keys give", async () => {
    const cell = fc.oneof(
      fc.constantFrom("a", "b", "B", "", "é", null, Number.NaN, 0, -0, 2, 2.5),
      fc.integer({ min: -3, max: 3 }),
    );
    const table = fc.array(fc.record({ r: cell, a: cell, b: fc.constantFrom("x", "y") }), { maxLength: 40 });
    const orders = ["", " >", " :desc", " #(compare %2 %1)"];
    await fc.assert(
      fc.asyncProperty(table, fc.constantFrom(...orders), async (table, order) => {
        const rows = table.map((row, id) => ({ ...row, id }));
        const before = keyColumnStats.sorts;
        const columns = await run(`(mapv :id (sort-by (juxt :r :b :a)${order} data/rows))`, {
          context: { rows },
        });
        expect(keyColumnStats.sorts).toBe(before + 1);
        const vectors = await run(`(mapv :id (sort-by #(vector (:r %) (:b %) (:a %))${order} data/rows))`, {
          context: { rows },
        });
        expect(keyColumnStats.sorts).toBe(before + 1);
        expect(outcome(columns)).toEqual(outcome(vectors));
      }),
      { numRuns: 200 },
    );
  });

  test("a failing or tool-calling part fails as juxt's vector would", async () => {
    const tools = { price: () => Promise.resolve(1) };
    for (const parts of [":r inc", ":r #(tool/price {:id (:id %)})", "(fn [row] (/ 1 0)) :r"]) {
      const columns = await run(`(sort-by (juxt ${parts}) data/rows)`, { context: { rows }, tools });
      const vectors = await run(`(sort-by (fn [row] ((juxt ${parts}) row)) data/rows)`, {
        context: { rows },
        tools,
      });
      expect(columns.ok, parts).toBe(false);
      expect(outcome(columns), parts).toEqual(outcome(vectors));
    }
  });

  test("keys of mixed kinds in one position still sort by term order", async () => {
    const mixed = [...rows, { r: 7, a: 0, id: 6 }, { r: null, a: 0, id: 7 }];
    const result = await run("(mapv :id (sort-by (juxt :r :a) data/rows))", { context: { rows: mixed } });
    expect(result.ok && format(result.value)).toBe("[6 7 2 4 5 3 1]");
  });
});
