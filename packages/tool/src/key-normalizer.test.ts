import { describe, expect, it } from "vitest";
import { normalizeKey, normalizeKeys } from "./index.js";

describe("normalizeKeys", () => {
  it("replaces every hyphen in object keys, recursively through objects and arrays", () => {
    expect(normalizeKeys({ "was-improved": true })).toEqual({ was_improved: true });
    expect(normalizeKeys({ nested: { "foo-bar": 1 } })).toEqual({ nested: { foo_bar: 1 } });
    expect(normalizeKeys([{ "list-item": 1 }])).toEqual([{ list_item: 1 }]);
    expect(normalizeKey("a-b-c")).toBe("a_b_c");
  });

  it("leaves values, strings and non-plain objects alone", () => {
    const date = new Date(0);
    const map = new Map([["a-b", 1]]);
    expect(normalizeKeys({ "a-b": "c-d", at: date, m: map })).toEqual({ a_b: "c-d", at: date, m: map });
    expect(normalizeKeys("x-y")).toBe("x-y");
  });

  it("keeps a __proto__ key as data", () => {
    const normalized = normalizeKeys(JSON.parse('{"__proto__": {"a-b": 1}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(normalized)).toBe(Object.prototype);
    expect(Object.keys(normalized)).toEqual(["__proto__"]);
  });
});
