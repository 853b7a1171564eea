import { describe, expect, it } from "vitest";
import {
  formatValidationErrors,
  parseSignature,
  type Signature,
  type ValidationResult,
  validateInput,
  validateReturn,
} from "../index.js";

function signature(text: string): Signature {
  const result = parseSignature(text);
  if (!result.ok) throw new Error(result.error);
  return result.signature;
}

function errors(result: ValidationResult): unknown {
  return result.ok ? [] : result.errors;
}

describe("validateReturn", () => {
  it.each([
    [":string", "a"],
    [":int", 3],
    [":float", 3],
    [":float", 2.5],
    [":bool", false],
    [":keyword", "ok"],
    [":keyword", "in-progress?"],
    [":map", {}],
    [":any", undefined],
    [":datetime", new Date("2026-05-03T09:14:00Z")],
    [":int?", null],
    ["[:int]", []],
    ["{a :int?}", {}],
  ])("accepts %s %j", (type, value) => {
    expect(validateReturn(signature(type), value)).toEqual({ ok: true });
  });

  it.each([
    [":string", 1, "expected string, got int"],
    [":int", 1.5, "expected int, got float"],
    [":int", true, "expected int, got bool"],
    [":float", "1", "expected float, got string"],
    [":bool", "true", "expected bool, got string"],
    [":keyword", "not a keyword", "expected keyword, got string"],
    [":keyword", null, "expected keyword, got nil"],
    [":map", [], "expected map, got list"],
    [":datetime", "2026-05-03T09:14:00Z", "expected datetime (Date), got string"],
    ["[:int]", {}, "expected list, got map"],
    ["{a :int}", "x", "expected map, got string"],
  ])("rejects %s %j with %j", (type, value, message) => {
    expect(errors(validateReturn(signature(type), value))).toEqual([{ path: [], message }]);
  });

  it("collects every error with its path instead of stopping at the first", () => {
    const result = validateReturn(signature("{count :int, items [{id :int, tags [:string]}]}"), {
      items: [{ id: "1", tags: ["a", 2] }, { tags: [] }],
    });
    expect(errors(result)).toEqual([
      { path: ["count"], message: "expected field, got nil" },
      { path: ["items", 0, "id"], message: "expected int, got string" },
      { path: ["items", 0, "tags", 1], message: "expected string, got int" },
      { path: ["items", 1, "id"], message: "expected field, got nil" },
    ]);
    expect(result.ok ? "" : formatValidationErrors(result.errors)).toBe(
      "count: expected field, got nil; items.0.id: expected int, got string; items.0.tags.1: expected string, got int; items.1.id: expected field, got nil",
    );
  });

  it("lists the first 20 issues and how many more there are, each in at most 300 characters", () => {
    const result = validateReturn(
      signature("[:int]"),
      Array.from({ length: 300_000 }, (_, index) => `s${index}`),
    );
    expect(errors(result)).toHaveLength(300_000);
    const message = result.ok ? "" : formatValidationErrors(result.errors);
    expect(message.length).toBeLessThan(1000);
    expect(message).toMatch(
      /^0: expected int, got string; 1: .*; 19: expected int, got string; \.\.\. \(299980 more\)$/,
    );
    const longKey = "k".repeat(100_000);
    const long = formatValidationErrors([{ path: [longKey], message: "expected int, got string" }]);
    expect(long).toBe(`${longKey.slice(0, 300)}... (100026 characters)`);
  });

  it("finds fields under their underscore or hyphen spelling, and allows extra keys", () => {
    expect(validateReturn(signature("{was_improved :bool}"), { "was-improved": true, extra: 1 })).toEqual({
      ok: true,
    });
    expect(validateReturn(signature("{was-improved :bool}"), { was_improved: true })).toEqual({ ok: true });
  });

  it("names the root when the value itself is wrong", () => {
    const result = validateReturn(signature(":int"), "x");
    expect(result.ok ? "" : formatValidationErrors(result.errors)).toBe("root: expected int, got string");
  });
});

describe("validateInput", () => {
  it("checks arguments against the parameters as an open map", () => {
    const sig = signature("(query :string, limit :int?) -> :any");
    expect(validateInput(sig, { query: "x", other: 1 })).toEqual({ ok: true });
    expect(errors(validateInput(sig, { limit: "5" }))).toEqual([
      { path: ["query"], message: "expected field, got nil" },
      { path: ["limit"], message: "expected int, got string" },
    ]);
  });
});
