import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { hashKey } from "./hash-key.js";
import { Keyword } from "./keyword.js";
import { LispMap } from "./lisp-map.js";
import { LispSet } from "./lisp-set.js";
import { mapAssoc, toLispMap } from "./map-access.js";
import { WholeFloat } from "./numbers.js";
import { compareTerms } from "./term-order.js";
import { either, UNCOUNTED } from "./versioned-table.js";

/**
 * Every version of a LispMap must behave as an immutable value, however versions are derived
 * and read (the store underneath is shared and mutated; see versioned-table.ts). The model is a
 * plain copy-on-write Map per version.
 */
describe("LispMap versions behave as immutable values", () => {
  type Op =
    | { kind: "assoc"; from: number; key: number; value: number }
    | { kind: "dissoc"; from: number; key: number }
    | { kind: "read"; version: number; key: number }
    | { kind: "entries"; version: number };

  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constant("assoc" as const),
      from: fc.nat(40),
      key: fc.nat(12),
      value: fc.integer(),
    }),
    fc.record({ kind: fc.constant("dissoc" as const), from: fc.nat(40), key: fc.nat(12) }),
    fc.record({ kind: fc.constant("read" as const), version: fc.nat(40), key: fc.nat(12) }),
    fc.record({ kind: fc.constant("entries" as const), version: fc.nat(40) }),
  );

  test("against a copy-on-write model, for any order of derivations and reads", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const versions: LispMap[] = [LispMap.empty()];
        const models: Array<Map<number, number>> = [new Map()];
        for (const step of ops) {
          if (step.kind === "assoc" || step.kind === "dissoc") {
            const index = step.from % versions.length;
            const base = versions[index] as LispMap;
            const model = new Map(models[index]);
            if (step.kind === "assoc") {
              versions.push(base.assoc(step.key, step.value));
              model.set(step.key, step.value);
            } else {
              versions.push(base.dissoc(step.key));
              model.delete(step.key);
            }
            models.push(model);
          } else if (step.kind === "read") {
            const index = step.version % versions.length;
            expect((versions[index] as LispMap).get(step.key)).toBe(models[index]?.get(step.key));
            expect((versions[index] as LispMap).has(step.key)).toBe(models[index]?.has(step.key));
          } else {
            const index = step.version % versions.length;
            const expected = [...(models[index] as Map<number, number>)].sort((a, b) => a[0] - b[0]);
            expect((versions[index] as LispMap).entries()).toEqual(expected);
            expect((versions[index] as LispMap).size).toBe(expected.length);
          }
        }
        versions.forEach((version, index) => {
          const expected = [...(models[index] as Map<number, number>)].sort((a, b) => a[0] - b[0]);
          expect(version.entries()).toEqual(expected);
        });
      }),
      { numRuns: 300 },
    );
  });

  test("linear derivation costs no copying: 100k assocs finish and every version stays right", () => {
    let map = LispMap.empty();
    const snapshots: LispMap[] = [];
    for (let i = 0; i < 100_000; i++) {
      map = map.assoc(i, i * 2);
      if (i % 25_000 === 0) snapshots.push(map);
    }
    expect(map.size).toBe(100_000);
    expect(map.get(99_999)).toBe(199_998);
    expect(snapshots.map((s) => s.size)).toEqual([1, 25_001, 50_001, 75_001]);
    expect(snapshots[1]?.get(25_000)).toBe(50_000);
    expect(snapshots[1]?.get(25_001)).toBeUndefined();
    expect(map.get(25_001)).toBe(50_002);
  });

  test("iteration order is term order: numbers, then keywords by name, then strings", () => {
    const map = LispMap.from([
      ["b", 1],
      [Keyword.of("b"), 2],
      [2, 3],
      [Keyword.of("a"), 4],
      ["a", 5],
    ]);
    expect(map.entries().map(([key]) => (key instanceof Keyword ? `:${key.name}` : key))).toEqual([
      2,
      ":a",
      ":b",
      "a",
      "b",
    ]);
  });

  test("equal keys are one key: 1 and 1.0, equal vectors", () => {
    const map = LispMap.empty().assoc(1, "int").assoc(new WholeFloat(1), "float").assoc([1, 2], "v");
    expect(map.size).toBe(2);
    expect(map.get(1)).toBe("float");
    expect(map.get([1, 2])).toBe("v");
    expect(map.get([1, new WholeFloat(2)])).toBe("v");
  });

  test("a NUL-prefixed string key never collides with a composite key", () => {
    const map = LispMap.empty().assoc([1], "vector").assoc("\u0000c[1]", "string");
    expect(map.size).toBe(2);
    expect(map.get([1])).toBe("vector");
    expect(map.get("\u0000c[1]")).toBe("string");
  });
});

describe("LispSet", () => {
  test("derivations leave earlier versions intact", () => {
    const base = LispSet.from([1, 2, 3]);
    const more = base.conj(4);
    const less = base.disj(1);
    expect(base.members()).toEqual([1, 2, 3]);
    expect(more.members()).toEqual([1, 2, 3, 4]);
    expect(less.members()).toEqual([2, 3]);
    expect(base.has(1)).toBe(true);
  });
});

describe("pinning and detaching", () => {
  test("a pinned map is never derived in place: it links to no later version", () => {
    const base = LispMap.from([["a", 1]]).pinned();
    let derived = base;
    for (let i = 0; i < 100; i++) derived = derived.assoc(`k${i}`, i);
    expect(base.entries()).toEqual([["a", 1]]);
    expect(derived.size).toBe(101);
    // White-box: the pinned version holds no undo record, so it keeps no later version alive.
    expect((base as unknown as { undo: unknown }).undo).toBeNull();
  });

  test("an old version holds one undo record; rerooting to it turns the record around", () => {
    const old = LispMap.from(Array.from({ length: 20 }, (_, i) => [`k${i}`, i] as const));
    const next = old.assoc("x", 1);
    type Linked = { undo: { next: unknown; key: unknown } | null };
    // White-box: deriving left the record on the old version, pointing at the new one.
    expect((old as unknown as Linked).undo).toMatchObject({ next, key: "x" });
    expect((next as unknown as Linked).undo).toBeNull();
    expect(old.get("x")).toBeUndefined();
    expect(old.entries()).toHaveLength(20);
    // Listing the old version made it current: the same record now hangs on the new version.
    expect((old as unknown as Linked).undo).toBeNull();
    expect((next as unknown as Linked).undo).toMatchObject({ next: old, key: "x" });
    expect(next.get("x")).toBe(1);
    expect(next.size).toBe(21);
  });

  test("a detached copy starts a lineage of its own", () => {
    const original = LispMap.from([["a", 1]]);
    const copy = original.detached();
    const changed = copy.assoc("b", 2);
    expect((original as unknown as { undo: unknown }).undo).toBeNull();
    expect(original.entries()).toEqual([["a", 1]]);
    expect(changed.entries()).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
  });
});

/**
 * A map derived from a host object reads through to it (versioned-table.ts, "base"): the same
 * model test, with string keys, half of which start in the host object.
 */
describe("maps over a host object behave as immutable values and never write the object", () => {
  const keys = ["a", "b", "c", "d", "e", "f", "g", "h"];
  type Op =
    | { kind: "assoc"; from: number; key: number; value: number }
    | { kind: "dissoc"; from: number; key: number }
    | { kind: "read"; version: number; key: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant("assoc" as const), from: fc.nat(30), key: fc.nat(7), value: fc.integer() }),
    fc.record({ kind: fc.constant("dissoc" as const), from: fc.nat(30), key: fc.nat(7) }),
    fc.record({ kind: fc.constant("read" as const), version: fc.nat(30), key: fc.nat(7) }),
  );

  test("against a copy-on-write model", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const host = Object.freeze({ a: 1, b: null, c: "x", d: [4] });
        const first = toLispMap(host);
        const versions: LispMap[] = [first];
        const models: Array<Map<string, unknown>> = [new Map(Object.entries(host))];
        for (const step of ops) {
          const key = keys[step.key] as string;
          if (step.kind === "read") {
            const index = step.version % versions.length;
            expect((versions[index] as LispMap).get(key)).toEqual(models[index]?.get(key));
            expect((versions[index] as LispMap).has(key)).toBe(models[index]?.has(key));
            continue;
          }
          const index = step.from % versions.length;
          const model = new Map(models[index]);
          if (step.kind === "assoc") {
            versions.push((versions[index] as LispMap).assoc(key, step.value));
            model.set(key, step.value);
          } else {
            versions.push((versions[index] as LispMap).dissoc(key));
            model.delete(key);
          }
          models.push(model);
        }
        versions.forEach((version, index) => {
          const expected = [...(models[index] as Map<string, unknown>)].sort((x, y) =>
            x[0] < y[0] ? -1 : 1,
          );
          expect(version.entries()).toEqual(expected);
          expect(version.size).toBe(expected.length);
          // Copies (what a def keeps) agree too.
          expect(version.detached().entries()).toEqual(expected);
        });
        expect(host).toEqual({ a: 1, b: null, c: "x", d: [4] });
      }),
      { numRuns: 300 },
    );
  });

  test("a host object is read through, not copied, keys starting with NUL too", () => {
    type Inside = { base: unknown; flat: unknown[] | undefined };
    const row = { id: 7, name: "x" };
    const derived = toLispMap(row).assoc(Keyword.of("total"), 3) as unknown as Inside;
    expect(derived.base).toBe(row);
    // Only the change is held: one [hash, value] pair.
    expect(derived.flat).toEqual([Keyword.of("total"), 3]);
    // A string key starting with NUL has an escaped hash (hash-key.ts); a composite's hash starts
    // with NUL too, and must never find a base key of the same text.
    const composite = String(hashKey([1]));
    const odd = { "\u0000k": 1, b: 2, [composite]: "text" };
    const over = toLispMap(odd);
    expect((over as unknown as Inside).base).toBe(odd);
    expect(over.get("\u0000k")).toBe(1);
    expect(over.get(composite)).toBe("text");
    expect(over.get([1])).toBeUndefined();
    expect(over.size).toBe(3);
    const changed = mapAssoc(odd, "\u0000k", 5);
    expect(changed.get("\u0000k")).toBe(5);
    expect(changed.size).toBe(3);
    expect(changed.entries()).toEqual(
      [
        ["\u0000k", 5],
        [composite, "text"],
        ["b", 2],
      ].sort((x, y) => compareTerms(x[0], y[0])),
    );
    const withVector = mapAssoc(odd, [1], "vector");
    expect(withVector.size).toBe(4);
    expect(withVector.get([1])).toBe("vector");
    expect(withVector.get(composite)).toBe("text");
    const without = changed.dissoc("\u0000k");
    expect(without.size).toBe(2);
    expect(without.has("\u0000k")).toBe(false);
    expect(without.entries().map(([key]) => key)).not.toContain("\u0000k");
    expect(odd).toEqual({ "\u0000k": 1, b: 2, [composite]: "text" });
  });

  test("a map over a host object counts its keys only when asked", () => {
    type Inside = { count: number };
    const row = { id: 7, name: "x", amount: 2 };
    const changed = mapAssoc(row, "amount", 3);
    expect((changed as unknown as Inside).count).toBe(UNCOUNTED);
    const grown = changed.assoc(Keyword.of("total"), 1).dissoc("name");
    expect((grown as unknown as Inside).count).toBe(UNCOUNTED);
    expect(grown.size).toBe(3);
    expect((grown as unknown as Inside).count).toBe(3);
    expect(changed.size).toBe(3);
    // Past FLAT_LIMIT pairs a map moves to a store, which always knows its size.
    let wide = LispMap.over(row);
    for (let i = 0; i < 12; i++) wide = wide.assoc(Keyword.of(`k${i}`), i);
    expect((wide as unknown as Inside).count).toBe(15);
    expect(wide.size).toBe(15);
  });

  test("a map over a host object counts the object's own keys, however many", () => {
    const wide: Record<string, number> = Object.create(null);
    for (let i = 0; i < 1500; i++) wide[`k${i}`] = i;
    expect(toLispMap(wide).size).toBe(1500);
    expect(mapAssoc(wide, "k7", -1).size).toBe(1500);
    expect(mapAssoc(wide, Keyword.of("new"), 1).size).toBe(1501);
    // Integer-like names are keys too, listed apart from the others by the engine.
    expect(mapAssoc({ 2: "b", a: 1, 10: "c" }, "z", 0).size).toBe(4);
    expect(toLispMap({}).size).toBe(0);
  });

  test("small maps grow by one pair at a time and keep every older version", () => {
    type Inside = { flat: unknown[] | undefined };
    const row = { id: 1 };
    const one = mapAssoc(row, Keyword.of("a"), 1);
    const two = one.assoc(Keyword.of("b"), 2);
    const gone = two.dissoc("id");
    expect((two as unknown as Inside).flat).toEqual([Keyword.of("a"), 1, Keyword.of("b"), 2]);
    expect([one.size, two.size, gone.size]).toEqual([2, 3, 2]);
    expect(gone.get("id")).toBeUndefined();
    expect(two.get("id")).toBe(1);
    expect(one.get(Keyword.of("b"))).toBeUndefined();
  });

  test("a small map is a flat array until it outgrows it, then a table; both stay exact", () => {
    type Inside = { flat: unknown[] | undefined };
    let map = LispMap.empty();
    const versions: LispMap[] = [map];
    for (let i = 0; i < 20; i++) {
      map = map.assoc(Keyword.of(`k${i}`), i);
      versions.push(map);
    }
    expect((versions[8] as unknown as Inside).flat).toHaveLength(16);
    expect((versions[9] as unknown as Inside).flat).toBeUndefined();
    versions.forEach((version, size) => {
      expect(version.size).toBe(size);
      for (let i = 0; i < 20; i++) expect(version.get(Keyword.of(`k${i}`))).toBe(i < size ? i : undefined);
    });
    expect(map.dissoc(Keyword.of("k3")).get(Keyword.of("k3"))).toBeUndefined();
    expect(LispMap.from([[Number.NaN, 1]]).get(Number.NaN)).toBe(1);
    // NaN, the one key not equal to itself, is found among others and written once.
    const withNaN = LispMap.from([
      [Keyword.of("a"), 1],
      [Number.NaN, 2],
      [Number.NaN, 3],
    ]);
    expect(withNaN.size).toBe(2);
    expect(withNaN.get(Number.NaN)).toBe(3);
    expect(withNaN.assoc(Number.NaN, 4).size).toBe(2);
    expect(withNaN.assoc(Number.NaN, 4).get(Number.NaN)).toBe(4);
    expect(withNaN.dissoc(Number.NaN).has(Number.NaN)).toBe(false);
  });
});

describe("mapAssoc on a host object", () => {
  const same = (a: LispMap, b: LispMap) => {
    expect(a.size).toBe(b.size);
    expect(a.entries()).toEqual(b.entries());
  };
  test("gives the map over the object with the entry set, as assoc does", () => {
    const host = { a: 1, b: null, "\u0000nul": 3 };
    const plain = { a: 1, b: null, c: "x" };
    const keys: unknown[] = ["a", "b", "c", "z", Keyword.of("a"), [1, 2], 2, new WholeFloat(2)];
    for (const key of keys) {
      for (const value of [1, null, undefined, "x", 99]) {
        same(mapAssoc(plain, key, value), toLispMap(plain).assoc(key, value));
        same(mapAssoc(host, key, value), toLispMap(host).assoc(key, value));
      }
    }
    // The object itself is never written.
    expect(plain).toEqual({ a: 1, b: null, c: "x" });
  });
});

describe("findEither: a keyword, else the string of its name, in one lookup", () => {
  const a = Keyword.of("a");
  const keys: unknown[] = [a, "a", Keyword.of("b"), "b", "c", 1];
  const op = fc.oneof(
    fc.record({ kind: fc.constant("assoc" as const), key: fc.nat(keys.length - 1), value: fc.integer() }),
    fc.record({ kind: fc.constant("dissoc" as const), key: fc.nat(keys.length - 1) }),
  );

  test("answers as getHashed of the keyword, then of the name, would", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(op, { maxLength: 14 }),
        fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h", "i"), { maxLength: 9 }),
        (overRow, ops, fields) => {
          // Over a host row (its fields read through) or from scratch; small maps and, past eight
          // entries, store-backed ones.
          const row = Object.fromEntries(fields.map((field, index) => [field, index]));
          let map = overRow ? toLispMap(row) : LispMap.empty();
          for (const step of ops) {
            const key = keys[step.key];
            map = step.kind === "assoc" ? map.assoc(key, step.value) : map.dissoc(key);
          }
          const which = map.findEither(a, "a");
          const found = either.slot;
          const exact = map.getHashed(a);
          const named = map.getHashed("a");
          expect(which).toBe(exact !== undefined ? 1 : named !== undefined ? 2 : 0);
          if (which !== 0) expect(found).toBe(which === 1 ? exact : named);
        },
      ),
      { numRuns: 500 },
    );
  });
});
