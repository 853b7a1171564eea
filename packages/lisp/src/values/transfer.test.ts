import { beforeAll, describe, expect, it } from "vitest";
import { format } from "../format/format.js";
import { toJson } from "../format/to-json.js";
import { run } from "../run.js";
import { CustomValue } from "./custom-value.js";
import { equals } from "./equality.js";
import { Keyword } from "./keyword.js";
import { isLispFunction } from "./lisp-function.js";
import { LispMap } from "./lisp-map.js";
import { LispSet } from "./lisp-set.js";
import { loadRegexEngine } from "./regex-engine.js";

// `run` loads RE2 before it analyzes a program that may use a regex; these tests go around run.
beforeAll(() => loadRegexEngine());

import { WholeFloat } from "./numbers.js";
import { QuotedSymbol } from "./quoted-symbol.js";
import { Regex } from "./regex.js";
import { decodeValue, encodeValue, TRANSFER_TAG, TransferredValue } from "./transfer.js";
import { VarRef } from "./var-ref.js";

/** What a value becomes on the other side of a worker boundary. */
function roundTrip(value: unknown): unknown {
  return decodeValue(structuredClone(encodeValue(value)));
}

async function programValue(source: string): Promise<unknown> {
  const result = await run(source);
  if (!result.ok) throw new Error(`${result.error.reason}: ${result.error.message}`);
  return result.value;
}

describe("encodeValue/decodeValue", () => {
  it("keeps keywords as the interned keyword", () => {
    expect(roundTrip(Keyword.of("status"))).toBe(Keyword.of("status"));
  });

  it("keeps whole floats apart from integers", () => {
    const value = roundTrip([new WholeFloat(2), 2, 2.5, new WholeFloat(-0)]) as unknown[];
    expect(value[0]).toBeInstanceOf(WholeFloat);
    expect(value[1]).toBe(2);
    expect(value[2]).toBe(2.5);
    expect(Object.is((value[3] as WholeFloat).value, -0)).toBe(true);
    expect(format(value)).toBe("[2.0 2 2.5 -0.0]");
  });

  it("keeps bigints, NaN and infinities", () => {
    const value = roundTrip([2n ** 80n, Number.NaN, Number.POSITIVE_INFINITY]) as unknown[];
    expect(value[0]).toBe(2n ** 80n);
    expect(format(value)).toBe(format([2n ** 80n, Number.NaN, Number.POSITIVE_INFINITY]));
  });

  it("rebuilds program maps with keys of any type", async () => {
    const original = await programValue('{:a 1 "b" [2 3] [1 2] :vector-key 4 {:nested #{:x}}}');
    const copy = roundTrip(original);
    expect(copy).toBeInstanceOf(LispMap);
    expect(equals(copy, original)).toBe(true);
    expect(format(copy)).toBe(format(original));
    expect((copy as LispMap).get(Keyword.of("a"))).toBe(1);
  });

  it("rebuilds sets", async () => {
    const original = await programValue('#{1 :two "three" [4]}');
    const copy = roundTrip(original);
    expect(copy).toBeInstanceOf(LispSet);
    expect(format(copy)).toBe(format(original));
    expect((copy as LispSet).has(Keyword.of("two"))).toBe(true);
  });

  it("rebuilds regexes, var refs and quoted symbols", () => {
    const value = roundTrip([Regex.compile("a+b"), new VarRef("total"), new QuotedSymbol("x")]) as unknown[];
    expect(value[0]).toBeInstanceOf(Regex);
    expect((value[0] as Regex).compiled.matches("aab")).toBe(true);
    expect(value[1]).toBeInstanceOf(VarRef);
    expect(value[2]).toBeInstanceOf(QuotedSymbol);
    expect(format(value)).toBe("[#\"a+b\" #'total 'x]");
  });

  it("passes plain JSON data through as the same objects", () => {
    const data = { orders: [{ id: 1, tags: ["a", "b"] }], total: 3 };
    expect(encodeValue(data)).toBe(data);
    const copy = roundTrip(data);
    expect(copy).toEqual(data);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it("copies only the parts of host data that contain language values", () => {
    const shared = { id: 1 };
    const data = { plain: shared, mixed: [shared, Keyword.of("k")] };
    const encoded = encodeValue(data) as { plain: unknown; mixed: unknown[] };
    expect(encoded.plain).toBe(shared);
    expect(encoded.mixed[0]).toBe(shared);
    const copy = roundTrip(data) as { plain: unknown; mixed: unknown[] };
    expect(copy.mixed[1]).toBe(Keyword.of("k"));
  });

  it("keeps __proto__ and constructor keys as data without touching prototypes", () => {
    const data = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1, "k": [":x"]}');
    const copy = roundTrip([data, Keyword.of("x")]) as unknown[];
    const object = copy[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(Object.hasOwn(object, "__proto__")).toBe(true);
    expect(object.constructor).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(format(copy)).toBe(format([data, Keyword.of("x")]));
  });

  it("escapes host objects that use the transfer tag as a key", () => {
    const data = { [TRANSFER_TAG]: "keyword", d: "not-a-keyword" };
    const copy = roundTrip(data);
    expect(copy).toEqual(data);
    expect(copy).not.toBeInstanceOf(Keyword);
  });

  it("keeps shared structure shared instead of expanding it", () => {
    let node: unknown[] = [Keyword.of("leaf")];
    for (let i = 0; i < 60; i++) node = [node, node];
    const copy = roundTrip(node) as unknown[];
    expect(copy[0]).toBe(copy[1]);
    let leaf: unknown = copy;
    for (let i = 0; i < 60; i++) leaf = (leaf as unknown[])[0];
    expect((leaf as unknown[])[0]).toBe(Keyword.of("leaf"));
  });

  it("refuses a value that contains itself", () => {
    const cyclic: unknown[] = [Keyword.of("a")];
    cyclic.push(cyclic);
    expect(() => encodeValue(cyclic)).toThrow(/contains itself/);
  });

  it("turns functions into placeholders that print the same and refuse to run", async () => {
    const closure = await programValue("(fn [x y] x)");
    const builtin = await programValue("+");
    const copy = roundTrip([closure, builtin]) as unknown[];
    expect(format(copy)).toBe(format([closure, builtin]));
    expect(isLispFunction(copy[0])).toBe(true);
    expect(() => (copy[0] as () => unknown)()).toThrow(/isolated worker/);
  });

  it("turns unknown host objects into placeholders that print the same", () => {
    class Connection {}
    const value = [new Connection(), new Map(), () => 1, new Date(0)];
    const copy = roundTrip(value);
    expect(format(copy)).toBe(format(value));
  });

  it("keeps how an unregistered custom value prints, compares and converts", () => {
    class Duration extends CustomValue {
      constructor(readonly seconds: number) {
        super();
      }
      print() {
        return `#duration[${this.seconds}s]`;
      }
      canonical() {
        return `#duration ${this.seconds}`;
      }
      get typeName() {
        return "duration";
      }
      toJSON() {
        return { seconds: this.seconds };
      }
    }
    const copy = roundTrip(new Duration(5)) as CustomValue;
    expect(copy).toBeInstanceOf(TransferredValue);
    expect(copy.print()).toBe("#duration[5s]");
    expect(copy.typeName).toBe("duration");
    expect(toJson(copy)).toEqual({ seconds: 5 });
    expect(equals(copy, roundTrip(new Duration(5)))).toBe(true);
  });

  it("keeps the results of real programs equal and printed the same", async () => {
    const sources = [
      '[1 2.0 :k "s" nil true {:a #{1 2}}]',
      '{"x" {:y [1.5 {:z 2.0}]}}',
      "#{[1 2] {:a 1}}",
      "(str 12345678901234567890)",
      "12345678901234567890",
    ];
    for (const source of sources) {
      const value = await programValue(source);
      const copy = roundTrip(value);
      expect(format(copy), source).toBe(format(value));
      expect(equals(copy, value), source).toBe(true);
      expect(toJson(copy), source).toEqual(toJson(value));
    }
  });
});
