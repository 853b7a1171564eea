import fc from "fast-check";
// The package cache keys were built with until stable-json.ts replaced it: the keys must not change.
import referenceStringify from "fast-json-stable-stringify";
import { describe, expect, it } from "vitest";
import { canonicalizeArgs } from "./index.js";
import { stableJson } from "./stable-json.js";

describe("stableJson", () => {
  it("sorts keys at every depth, by code unit order (not numeric order)", () => {
    expect(stableJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(stableJson({ 10: "x", 2: "y", "": "e" })).toBe('{"":"e","10":"x","2":"y"}');
  });

  it("writes what JSON cannot hold as JSON.stringify does", () => {
    expect(stableJson({ u: undefined, f: () => 1, s: Symbol("s"), n: Number.NaN, i: -Infinity })).toBe(
      '{"i":null,"n":null}',
    );
    expect(stableJson([undefined, () => 1, Number.POSITIVE_INFINITY])).toBe("[null,null,null]");
    expect(stableJson(undefined)).toBeUndefined();
    expect(stableJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
    expect(stableJson({ toJSON: () => ({ b: 2, a: 1 }) })).toBe('{"a":1,"b":2}');
  });

  it("keeps an own __proto__ key", () => {
    const record = JSON.parse('{"__proto__": 1, "a": 2}');
    expect(stableJson(record)).toBe('{"__proto__":1,"a":2}');
  });

  it("throws on a value that contains itself, and allows one shared twice", () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(() => stableJson(loop)).toThrow(TypeError);
    const shared = { x: 1 };
    expect(stableJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });

  it("writes exactly what fast-json-stable-stringify writes", () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: false, withBoxedValues: true, withNullPrototype: true }),
        (value) => {
          expect(stableJson(value)).toBe(referenceStringify(value));
        },
      ),
    );
  });

  it("writes exactly what fast-json-stable-stringify writes for every normal form of arguments", () => {
    const args = fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withSparseArray: true,
      withTypedArray: true,
    });
    fc.assert(
      fc.property(args, (value) => {
        const canonical = canonicalizeArgs(value);
        expect(stableJson(["tool", canonical])).toBe(referenceStringify(["tool", canonical]));
      }),
    );
  });
});
