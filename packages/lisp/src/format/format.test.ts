import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { equals, format, Keyword, LispMap, LispSet, preview, run, toJson, WholeFloat } from "../index.js";

describe("format: readable Clojure text", () => {
  test("scalars", () => {
    expect(format(null)).toBe("nil");
    expect(format(true)).toBe("true");
    expect(format(42)).toBe("42");
    expect(format(12345678901234567890n)).toBe("12345678901234567890");
    expect(format(new WholeFloat(2))).toBe("2.0");
    expect(format(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(format(new WholeFloat(1e7))).toBe("1.0E7");
    expect(format(1.23e-4)).toBe("1.23E-4");
    expect(format(Number.POSITIVE_INFINITY)).toBe("##Inf");
    expect(format(Number.NaN)).toBe("##NaN");
    expect(format(Keyword.of("user-id"))).toBe(":user-id");
  });

  test("strings are quoted and escaped", () => {
    expect(format('say "hi"\n\ttab\\')).toBe('"say \\"hi\\"\\n\\ttab\\\\"');
    expect(format("\u0001")).toBe('"\\u0001"');
  });

  test("maps print with keys in order, sets in member order, host maps alike", () => {
    expect(
      format(
        LispMap.from([
          [Keyword.of("b"), 1],
          [Keyword.of("a"), [1, 2]],
        ]),
      ),
    ).toBe("{:a [1 2] :b 1}");
    expect(format({ zeta: 1, alpha: { x: null } })).toBe('{"alpha" {"x" nil} "zeta" 1}');
    expect(format(LispSet.from([3, 1, 2]))).toBe("#{1 2 3}");
  });

  test("unknown host objects never show host internals", () => {
    expect(format(new Date(0))).toBe("#object[Date]");
    expect(format(new Map())).toBe("#object[Map]");
  });
});

describe("preview: what a model sees", () => {
  test("collections are cut after maxItems with (shown/total)", () => {
    expect(preview([1, 2, 3, 4, 5], { maxItems: 2 })).toEqual({ text: "[1 2 ...] (2/5)", truncated: true });
    expect(preview(LispSet.from([1, 2, 3]), { maxItems: 1 })).toEqual({
      text: "#{1 ...} (1/3)",
      truncated: true,
    });
  });

  test("strings are cut at maxChars with (n/total chars)", () => {
    expect(preview("very long string here", { maxChars: 10 })).toEqual({
      text: '"very long ..." (10/21 chars)',
      truncated: true,
    });
  });

  test("floats are compact", () => {
    expect(preview(1.1 + 2.2).text).toBe("3.3");
    expect(preview(1 / 3).text).toBe("0.3333333333");
  });

  test("nothing cut, nothing marked", () => {
    expect(preview({ a: 1 })).toEqual({ text: '{"a" 1}', truncated: false });
  });
});

describe("toJson: plain data for the host", () => {
  test("keywords become names, sets arrays, maps objects", () => {
    const value = LispMap.from([
      [Keyword.of("tags"), LispSet.from([Keyword.of("b"), Keyword.of("a")])],
      [Keyword.of("n"), new WholeFloat(2)],
      ["s", [null, true]],
    ]);
    expect(toJson(value)).toEqual({ n: 2, tags: ["a", "b"], s: [null, true] });
  });

  test("values JSON cannot hold are explicit", () => {
    expect(toJson(Number.NaN)).toBeNull();
    expect(toJson(2n ** 70n)).toBe("1180591620717411303424");
  });
});

/** Values a program can write as literals. */
const literal: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  scalar: fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.bigInt({ min: 2n ** 60n, max: 2n ** 80n }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
    fc.integer({ min: -1000, max: 1000 }).map((n) => new WholeFloat(n)),
    fc.string(),
    fc.stringMatching(/^[a-z][a-z0-9?!*+_-]{0,8}$/).map((name) => Keyword.of(name)),
  ),
  any: fc.oneof(
    { depthSize: "small" },
    tie("scalar"),
    fc.array(tie("any"), { maxLength: 4 }),
    fc.array(fc.tuple(tie("scalar"), tie("any")), { maxLength: 4 }).map((entries) => LispMap.from(entries)),
    fc.array(tie("scalar"), { maxLength: 4 }).map((items) => LispSet.from(items)),
  ),
})).any;

describe("round trips", () => {
  test("format then read and evaluate gives an equal value", async () => {
    await fc.assert(
      fc.asyncProperty(literal, async (value) => {
        const text = format(value);
        const result = await run(text, { limits: { maxNesting: 1000 } });
        expect(result.ok, `${text} failed: ${JSON.stringify(!result.ok && result.error)}`).toBe(true);
        if (result.ok) {
          expect(equals(result.value, value), text).toBe(true);
          expect(format(result.value)).toBe(text);
        }
      }),
      { numRuns: 400 },
    );
  });
});
