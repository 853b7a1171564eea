/**
 * tupleOrder (term-order.ts): sort keys made by `juxt` compare position by position, exactly as
 * compareTerms orders them, whenever every position holds numbers only or strings only.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { format, run } from "../index.js";
import { compareTerms, tupleOrder } from "./term-order.js";

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe("tupleOrder", () => {
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
        const order = tupleOrder(keys);
        expect(order).toBeDefined();
        for (const a of keys)
          for (const b of keys) expect(sign(order?.(a, b) ?? 99)).toBe(sign(compareTerms(a, b)));
      }),
      { numRuns: 300 },
    );
  });

  test("declines keys that are not tuples of one shape", () => {
    expect(tupleOrder([1, 2])).toBeUndefined();
    expect(tupleOrder([[1], [1, 2]])).toBeUndefined();
    expect(tupleOrder([[1], ["a"]])).toBeUndefined();
    expect(tupleOrder([[1n], [2n]])).toBeUndefined();
    expect(tupleOrder([[null], [1]])).toBeUndefined();
    expect(tupleOrder([[]])).toBeUndefined();
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

  test("keys of mixed kinds in one position still sort by term order", async () => {
    const mixed = [...rows, { r: 7, a: 0, id: 6 }, { r: null, a: 0, id: 7 }];
    const result = await run("(mapv :id (sort-by (juxt :r :a) data/rows))", { context: { rows: mixed } });
    expect(result.ok && format(result.value)).toBe("[6 7 2 4 5 3 1]");
  });
});
