/**
 * SeenItems (seen-items.ts) answers "is this item new?" as a Set of hash keys would: short vectors
 * take a nested lookup by their items' hash keys, everything else the whole item's hash key.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { format, run } from "../index.js";
import { hashKey } from "./hash-key.js";
import { Keyword } from "./keyword.js";
import { LispSet } from "./lisp-set.js";
import { WholeFloat } from "./numbers.js";
import { SeenItems } from "./seen-items.js";

const scalar = fc.oneof(
  fc.constantFrom<unknown>(1, 2, -0, 0, 1.5, null, true, false, "a", "b", "\u0000c[1]", "", "1"),
  fc.constantFrom<unknown>(new WholeFloat(1), new WholeFloat(2), Keyword.of("a"), Keyword.of("b")),
);
const item: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    scalar,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.array(tie("value"), { maxLength: 5 }).map((members) => LispSet.from(members)),
  ),
})).value;

describe("SeenItems", () => {
  test("answers as a Set of hash keys does", () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 30 }), (items) => {
        const seen = new SeenItems();
        const keys = new Set<unknown>();
        for (const x of items) {
          const fresh = !keys.has(hashKey(x));
          keys.add(hashKey(x));
          expect(seen.add(x)).toBe(fresh);
        }
      }),
      { numRuns: 500 },
    );
  });

  test("(distinct ...) over vectors keeps the first of each = group, on every engine", async () => {
    const source =
      '(distinct [[1 2] [1.0 2] ["a" :a] ["a" "a"] [:a "a"] [[1] 2] [[1.0] 2] [] [] [1 2 3 4 5] [1 2 3 4 5]])';
    for (const engine of ["general", "fast"] as const) {
      const result = await run(source, { engine });
      expect(result.ok && format(result.value), engine).toBe(
        '[[1 2] ["a" :a] ["a" "a"] [:a "a"] [[1] 2] [] [1 2 3 4 5]]',
      );
    }
  });

  test("(distinct ...) over sets keeps the first of each = group, on every engine", async () => {
    const source =
      '(distinct [#{1 2} #{2.0 1} #{"a" :a} #{:a "a"} #{[1] 2} #{2 [1.0]} #{} #{} #{1 2 3 4 5} #{5 4 3 2 1}])';
    for (const engine of ["general", "fast"] as const) {
      const result = await run(source, { engine });
      expect(result.ok && format(result.value), engine).toBe('[#{1 2} #{:a "a"} #{2 [1]} #{} #{1 2 3 4 5}]');
    }
  });
});
