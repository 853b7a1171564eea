import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalCacheKey, canonicalizeArgs, ToolError } from "./index.js";

const key = (args: unknown, tool = "search") => canonicalCacheKey(tool, args);

describe("canonicalCacheKey: seed 003 cache-key migration table", () => {
  it('row 1: {"a" => 1} and {a: 1} share one entry (provider JSON and program args converge)', () => {
    // A program's `{:a 1}` reaches tools with its keyword keys as strings, i.e. as `{a: 1}`.
    const fromProvider = JSON.parse('{"a": 1}');
    const fromProgram = { a: 1 };
    expect(key(fromProvider)).toBe(key(fromProgram));
    expect(key({ "was-improved": true, nested: { "foo-bar": 1 } })).toBe(
      key({ was_improved: true, nested: { foo_bar: 1 } }),
    );
  });

  it("row 2: {a: 1, b: 2} and {b: 2, a: 1} share one entry, at any depth", () => {
    expect(key({ a: 1, b: 2 })).toBe(key({ b: 2, a: 1 }));
    expect(key({ outer: { x: [{ p: 1, q: 2 }], y: 2 } })).toBe(key({ outer: { y: 2, x: [{ q: 2, p: 1 }] } }));
  });

  it("row 3: 1 and 1.0 share one entry (collapses to 1)", () => {
    const withFloat = JSON.parse('{"n": 1.0, "m": [2.0, -3.0], "big": 1e3}');
    expect(key(withFloat)).toBe(key({ n: 1, m: [2, -3], big: 1000 }));
    expect(canonicalizeArgs(withFloat)).toEqual({ n: 1, m: [2, -3], big: 1000 });
    expect(key({ n: 1.5 })).not.toBe(key({ n: 1 }));
  });
});

describe("canonicalCacheKey", () => {
  it("collapses -0 to 0", () => {
    expect(key({ n: -0 })).toBe(key({ n: 0 }));
    expect(Object.is(canonicalizeArgs(-0), 0)).toBe(true);
  });

  it("is the tool name and the normalized arguments", () => {
    expect(key({ q: "x" }, "search_logs")).toBe('["search_logs",{"q":"x"}]');
    expect(key({ q: "x" }, "a")).not.toBe(key({ q: "x" }, "b"));
  });

  it("keeps a Map, a Set and {} apart", () => {
    const keys = [key({ v: new Map() }), key({ v: new Set() }), key({ v: {} }), key({ v: [] })];
    expect(new Set(keys).size).toBe(4);
  });

  it("keeps NaN, Infinity, -Infinity and null apart", () => {
    const keys = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null].map((v) =>
      key({ v }),
    );
    expect(new Set(keys).size).toBe(4);
    expect(key({ v: Number.NaN })).toBe(key({ v: Number.NaN }));
  });

  it("keeps undefined apart from null and from an absent key", () => {
    const keys = [
      key({ v: undefined }),
      key({ v: null }),
      key({}),
      key({ v: [undefined] }),
      key({ v: [null] }),
    ];
    expect(new Set(keys).size).toBe(5);
  });

  it("keeps strings apart from numbers, and list order", () => {
    expect(key({ v: "1" })).not.toBe(key({ v: 1 }));
    expect(key({ v: [1, 2] })).not.toBe(key({ v: [2, 1] }));
  });

  it("never lets an argument object impersonate a tag", () => {
    expect(key({ v: { "ptc-map": [] } })).not.toBe(key({ v: new Map() }));
    expect(key({ "ptc-non_map": [1] })).not.toBe(key([1]));
  });

  it("gives non-object arguments their own namespace, where equal ones still meet", () => {
    expect(key([1, 2, 3])).toBe(key([1, 2, 3]));
    expect(key([1, 2, 3])).not.toBe(key({ 0: 1, 1: 2, 2: 3 }));
    expect(key(null)).not.toBe(key({}));
    expect(key("x")).toBe(key("x"));
  });

  it("orders Map entries and Set members", () => {
    expect(key({ v: new Set([3, 1, 2]) })).toBe(key({ v: new Set([1, 2, 3]) }));
    expect(
      key({
        v: new Map<unknown, unknown>([
          ["b-c", 1],
          [2, "x"],
        ]),
      }),
    ).toBe(
      key({
        v: new Map<unknown, unknown>([
          [2, "x"],
          ["b_c", 1],
        ]),
      }),
    );
  });

  it("describes dates, bigints and class instances without confusing them with plain data", () => {
    expect(key({ at: new Date("2026-05-06T12:00:00Z") })).toBe(
      key({ at: new Date(Date.parse("2026-05-06T12:00:00Z")) }),
    );
    expect(key({ at: new Date("2026-05-06T12:00:00Z") })).not.toBe(key({ at: "2026-05-06T12:00:00.000Z" }));
    expect(key({ n: 5n })).toBe(key({ n: 5 }));
    expect(key({ n: 2n ** 70n })).not.toBe(key({ n: 2 ** 70 }));
    class Keyword {
      constructor(readonly name: string) {}
    }
    expect(key({ flag: new Keyword("ok") })).toBe(key({ flag: new Keyword("ok") }));
    expect(key({ flag: new Keyword("ok") })).not.toBe(key({ flag: "ok" }));
    expect(key({ flag: new Keyword("ok") })).not.toBe(key({ flag: { name: "ok" } }));
  });

  it("treats a null-prototype object as the plain object it is", () => {
    expect(key(Object.assign(Object.create(null), { a: 1 }))).toBe(key({ a: 1 }));
  });

  it("picks the same winner when hyphen and underscore keys collide, whatever the order", () => {
    expect(key({ "a-b": 1, a_b: 2 })).toBe(key({ a_b: 2, "a-b": 1 }));
  });

  it("keeps a __proto__ key as data", () => {
    expect(key(JSON.parse('{"__proto__": {"x": 1}}'))).toBe('["search",{"__proto__":{"x":1}}]');
  });

  it("rejects a value that contains itself, but not shared references", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => key(cyclic)).toThrow(ToolError);
    const shared = { x: 1 };
    expect(key({ a: shared, b: shared })).toBe(key({ a: { x: 1 }, b: { x: 1 } }));
  });

  it("does not modify its input", () => {
    const args = { "b-c": [1, { "d-e": 2 }], a: new Set([2, 1]) };
    const before = JSON.stringify({ ...args, a: [...args.a] });
    key(args);
    expect(JSON.stringify({ ...args, a: [...args.a] })).toBe(before);
  });
});

// JSON values with keys that cannot collide under hyphen/underscore normalization.
const jsonKey = fc.stringMatching(/^[a-z]{1,3}$/);
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n)),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(jsonKey, tie("value"), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;
const jsonObject = fc.dictionary(jsonKey, json, { maxKeys: 5, noNullPrototype: true });

function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reorder(v)]),
    );
  }
  return value;
}

function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((element) => renameKeys(element, rename));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), renameKeys(v, rename)]));
  }
  return value;
}

describe("canonicalCacheKey properties", () => {
  it("never depends on key order", () => {
    fc.assert(fc.property(jsonObject, (args) => key(args) === key(reorder(args))));
  });

  it("never depends on hyphen versus underscore in keys", () => {
    const underscored = fc.dictionary(fc.stringMatching(/^[a-z]{1,2}(_[a-z]{1,2})?$/), json, { maxKeys: 5 });
    fc.assert(
      fc.property(underscored, (args) => key(args) === key(renameKeys(args, (k) => k.replaceAll("_", "-")))),
    );
  });

  it("survives a JSON round trip, the way provider arguments arrive", () => {
    fc.assert(fc.property(jsonObject, (args) => key(args) === key(JSON.parse(JSON.stringify(args)))));
  });

  it("is equal exactly when the arguments are deeply equal", () => {
    fc.assert(fc.property(jsonObject, jsonObject, (a, b) => (key(a) === key(b)) === isDeepStrictEqual(a, b)));
    fc.assert(fc.property(jsonObject, (a) => key(a) === key(structuredClone(a))));
  });

  it("is deterministic and matches its normal form", () => {
    fc.assert(
      fc.property(jsonObject, (args) => {
        expect(key(args)).toBe(key(args));
        expect(canonicalizeArgs(args)).toEqual(args);
      }),
    );
  });
});
