import { describe, expect, it } from "vitest";
import { coerceValue, parseFinalAnswer, parseSignature, type Signature } from "../index.js";

function signature(text: string): Signature {
  const result = parseSignature(text);
  if (!result.ok) throw new Error(result.error);
  return result.signature;
}

describe("coerceValue", () => {
  it("turns ISO date-times with an offset into Dates, shifted to UTC", () => {
    const value = coerceValue(
      { at: "2026-05-03T11:14:00+02:00", items: ["2026-05-03T09:14:00Z"] },
      signature("{at :datetime, items [:datetime]}").returns,
    );
    expect(value).toEqual({
      at: new Date("2026-05-03T09:14:00Z"),
      items: [new Date("2026-05-03T09:14:00Z")],
    });
  });

  it("leaves naive or invalid date strings, and everything else, unchanged", () => {
    expect(coerceValue("2026-05-03T09:14:00", "datetime")).toBe("2026-05-03T09:14:00");
    expect(coerceValue("tomorrow", { kind: "optional", type: "datetime" })).toBe("tomorrow");
    expect(coerceValue({ n: "1", extra: "2026-05-03T09:14:00Z" }, signature("{n :int}").returns)).toEqual({
      n: "1",
      extra: "2026-05-03T09:14:00Z",
    });
  });
});

describe("parseFinalAnswer", () => {
  it("returns the raw text without a signature, or for :string and :any", () => {
    expect(parseFinalAnswer("  hello ", undefined)).toEqual({ ok: true, value: "  hello " });
    expect(parseFinalAnswer("", signature(":string"))).toEqual({ ok: true, value: "" });
    expect(parseFinalAnswer("{not json", signature("(x :int) -> :any"))).toEqual({
      ok: true,
      value: "{not json",
    });
  });

  it("parses strict JSON for other types, then validates", () => {
    expect(parseFinalAnswer(" 42\n", signature(":int"))).toEqual({ ok: true, value: 42 });
    expect(parseFinalAnswer('{"count": 2}', signature("{count :int}"))).toEqual({
      ok: true,
      value: { count: 2 },
    });
    expect(parseFinalAnswer("```json\n42\n```", signature(":int"))).toEqual({
      ok: false,
      error: "Could not parse JSON from response.",
    });
    expect(parseFinalAnswer('"42"', signature(":int"))).toEqual({
      ok: false,
      error: "Return validation failed: root: expected int, got string",
    });
    expect(parseFinalAnswer("{}", signature("{count :int}"))).toEqual({
      ok: false,
      error: "Return validation failed: count: expected field, got nil",
    });
  });

  it("accepts a quoted or bare ISO date-time for :datetime", () => {
    const expected = { ok: true, value: new Date("2026-05-03T09:14:00Z") };
    expect(parseFinalAnswer('"2026-05-03T09:14:00Z"', signature(":datetime"))).toEqual(expected);
    expect(parseFinalAnswer(" 2026-05-03T11:14:00+02:00 ", signature(":datetime"))).toEqual(expected);
    expect(parseFinalAnswer("May 3rd ", signature(":datetime"))).toEqual({
      ok: false,
      error: 'Could not parse datetime from response: "May 3rd"',
    });
  });
});
