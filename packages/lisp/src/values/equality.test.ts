import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { equals } from "./equality.js";
import { hashKey } from "./hash-key.js";
import { Keyword } from "./keyword.js";
import { LispMap } from "./lisp-map.js";
import { LispSet } from "./lisp-set.js";
import { WholeFloat } from "./numbers.js";
import { compareTerms } from "./term-order.js";

/** Arbitrary PTC-Lisp values of every kind, in both map representations. */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  scalar: fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -5, max: 5 }),
    fc.integer({ min: -5, max: 5 }).map((n) => new WholeFloat(n)),
    fc.constantFrom(0.5, -2.25, 1e21),
    fc.constantFrom(12345678901234567890n, -98765432109876543210n),
    fc.constantFrom("a", "b", "", "\u0000c", "ünï"),
    fc.constantFrom("a", "b", "user-id").map((name) => Keyword.of(name)),
  ),
  vector: fc.array(tie("any"), { maxLength: 3 }),
  lispMap: fc
    .array(fc.tuple(tie("any"), tie("any")), { maxLength: 3 })
    .map((entries) => LispMap.from(entries)),
  hostMap: fc
    .dictionary(fc.constantFrom("a", "b", "__proto__", "constructor"), tie("any"), { maxKeys: 3 })
    .map((record) => {
      // Build with defineProperty so "__proto__" is an own key, as JSON.parse makes it.
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(record))
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    }),
  set: fc.array(tie("any"), { maxLength: 3 }).map((items) => LispSet.from(items)),
  any: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    tie("scalar"),
    tie("vector"),
    tie("lispMap"),
    tie("hostMap"),
    tie("set"),
  ),
})).any;

describe("one equality and one hash", () => {
  test("equal values have the same hash key, different values different keys", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(hashKey(a) === hashKey(b)).toBe(equals(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  test("equality is reflexive and symmetric", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(equals(a, a)).toBe(true);
        expect(equals(a, b)).toBe(equals(b, a));
      }),
      { numRuns: 1000 },
    );
  });

  test("term order is a total order consistent with equality", () => {
    fc.assert(
      fc.property(value, value, value, (a, b, c) => {
        expect(Math.sign(compareTerms(a, b)) + Math.sign(compareTerms(b, a))).toBe(0);
        if (compareTerms(a, b) <= 0 && compareTerms(b, c) <= 0)
          expect(compareTerms(a, c)).toBeLessThanOrEqual(0);
        if (equals(a, b)) expect(compareTerms(a, b)).toBe(0);
      }),
      { numRuns: 1000 },
    );
  });

  test("numbers compare by value across representations", () => {
    expect(equals(1, new WholeFloat(1))).toBe(true);
    expect(equals(2 ** 60, 2n ** 60n)).toBe(true);
    expect(equals(Number.NaN, Number.NaN)).toBe(false);
    expect(equals(Keyword.of("a"), "a")).toBe(false);
  });

  test("a host map equals a program map with the same entries", () => {
    expect(
      equals(
        { a: 1, b: [1, 2] },
        LispMap.from([
          ["a", 1],
          ["b", [1, new WholeFloat(2)]],
        ]),
      ),
    ).toBe(true);
    expect(equals({ a: 1 }, LispMap.from([[Keyword.of("a"), 1]]))).toBe(false);
  });
});
