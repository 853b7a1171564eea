import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { unknownNativeToolMessage, validateProgram, wellFormedText, wellFormedValue } from "./index.js";

const isWellFormed = (text: string) => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

describe("wellFormedText", () => {
  it.each([
    ["a lone high surrogate at the end", "a\ud83d", "a\ufffd"],
    ["a lone low surrogate at the start", "\ude00b", "\ufffdb"],
    ["a pair in the wrong order", "\ude00\ud83d", "\ufffd\ufffd"],
    ["two high surrogates before a low one", "\ud83d\ud83d\ude00", "\ufffd😀"],
  ])("replaces %s with U+FFFD", (_name, text, expected) => {
    expect(wellFormedText(text)).toBe(expected);
  });

  it("returns well-formed text as it is", () => {
    expect(wellFormedText("plain 😀 é")).toBe("plain 😀 é");
    expect(wellFormedText("")).toBe("");
  });
});

describe("wellFormedText without the native String methods (older engines)", () => {
  const proto = String.prototype as unknown as Record<string, unknown>;
  const saved = ["isWellFormed", "toWellFormed"].map(
    (name) => [name, Object.getOwnPropertyDescriptor(proto, name) as PropertyDescriptor] as const,
  );
  // Put back exactly as they were (not enumerable), whatever happened in the test.
  const restore = () => {
    for (const [name, descriptor] of saved) Object.defineProperty(proto, name, descriptor);
  };
  afterEach(restore);

  it("gives what the native methods give, for any mix of halves and whole pairs", () => {
    const unit = fc.constantFrom("a", "é", "😀", "\ud83d", "\ude00", "\udbff", "\udc00", "\ufffd");
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
        const text = units.join("");
        const native = (text as unknown as { toWellFormed(): string }).toWellFormed();
        delete proto.isWellFormed;
        delete proto.toWellFormed;
        try {
          expect(typeof proto.isWellFormed).toBe("undefined");
          expect(wellFormedText(text)).toBe(native);
        } finally {
          restore();
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("wellFormedValue", () => {
  it("returns the value itself when nothing needs fixing", () => {
    const value = { rows: [{ name: "😀", n: 1 }], note: "ok" };
    expect(wellFormedValue(value)).toBe(value);
  });

  it("copies only what leads to a fixed string, and leaves the original untouched", () => {
    const clean = { n: 1 };
    const value = { clean, rows: ["ok", "cut \ud83d"], "key\ude00": true };
    const fixed = wellFormedValue(value);
    expect(fixed).toEqual({ clean, rows: ["ok", "cut \ufffd"], "key\ufffd": true });
    expect(fixed.clean).toBe(clean);
    expect(value.rows[1]).toBe("cut \ud83d");
  });

  it("keeps a `__proto__` key a key, and leaves objects that are not plain data alone", () => {
    const date = new Date(0);
    const value = JSON.parse('{"__proto__": "x\\ud83d", "when": 1}') as Record<string, unknown>;
    value.when = date;
    const fixed = wellFormedValue(value);
    expect(Object.getPrototypeOf(fixed)).toBe(Object.prototype);
    expect(Object.hasOwn(fixed, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(fixed, "__proto__")?.value).toBe("x\ufffd");
    expect(fixed.when).toBe(date);
  });
});

describe("names and programs quoted back keep whole characters", () => {
  it.each([
    ["", "pairs from the first unit"],
    ["x", "pairs from the second unit"],
  ])("an unknown native tool named with 300 emoji (prefix %j)", (prefix) => {
    const message = unknownNativeToolMessage(`${prefix}${"😀".repeat(300)}`, { combined: true });
    expect(isWellFormed(message)).toBe(true);
    expect(message).toContain("characters)");
  });

  it("a program that is not a string, quoted in the error", () => {
    const result = validateProgram({ text: "😀".repeat(300) });
    expect(result.ok).toBe(false);
    expect(isWellFormed(result.ok ? "" : result.message)).toBe(true);
  });
});
