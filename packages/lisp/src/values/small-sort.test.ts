import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { run } from "../index.js";
import { sortInPlace } from "./small-sort.js";
import { compareTerms } from "./term-order.js";

describe("sortInPlace", () => {
  test("gives Array.prototype.sort's order, ties included, at every size around the switch", () => {
    // Pairs compared by their first item only: ties that a stable sort must keep in order.
    const byFirst = (a: readonly number[], b: readonly number[]) => (a[0] as number) - (b[0] as number);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.nat()), { maxLength: 40 }),
        (items) => {
          const expected = [...items].sort(byFirst);
          expect(sortInPlace([...items], byFirst)).toEqual(expected);
        },
      ),
      { numRuns: 300, seed: 22 },
    );
  });

  test("term order of mixed terms, as maps and sets print", async () => {
    const terms = [3, "b", null, 2.5, "a", true, -1, false, "", 0];
    expect(sortInPlace([...terms], compareTerms)).toEqual([...terms].sort(compareTerms));
    const result = await run(
      '(str (hash-set 3 "b" nil 2.5 "a" true -1 false "" 0) " " {:b 1 :a 2 "c" 3 1 4})',
    );
    expect(result.ok && result.value).toBe('#{-1 0 2.5 3 false nil true "" "a" "b"} {1 4 :a 2 :b 1 "c" 3}');
  });
});
