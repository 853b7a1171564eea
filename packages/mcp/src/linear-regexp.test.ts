/**
 * The linear-time engine means what JavaScript's RegExp (with `u`, as Ajv passes it) means for
 * JSON Schema patterns, including the classes RE2 reads differently (`.`, `\s`, `\S`), checked
 * over every code point of the Basic Multilingual Plane and a few beyond it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { linearRegExp, loadLinearRegExp, UnsupportedPatternError } from "./linear-regexp.js";

// The engine is loaded by whatever compiles a schema; called directly, it is loaded first.
beforeAll(loadLinearRegExp);

const samples: string[] = [];
for (let code = 0; code <= 0xffff; code++)
  if (code < 0xd800 || code > 0xdfff) samples.push(String.fromCharCode(code));
samples.push("😀", "\u{10FFFF}", "\u{1D400}");

describe("linearRegExp", () => {
  it.each([
    "^.$",
    "^\\s$",
    "^\\S$",
    "^[\\s]$",
    "^[^\\s]$",
    "^[\\S]$",
    "^[^\\S]$",
    "^[a\\s-]$",
    "^\\w$",
    "^\\d$",
    "^\\p{L}$",
    "^[^]$",
    "^[[:alpha:]$",
  ])("matches %s as RegExp does for every code point", (pattern) => {
    const native = new RegExp(pattern, "u");
    const linear = linearRegExp(pattern, "u");
    const differing = samples.filter((text) => native.test(text) !== linear.test(text));
    expect(differing.map((text) => text.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it("tests for a match anywhere in the text, as RegExp.prototype.test does", () => {
    const cases: [string, string, boolean][] = [
      ["\\d{3}", "ab123cd", true],
      ["^abc$", "abc\n", false],
      ["abc$", "xabc", true],
      ["\\bfoo\\b", "a foo b", true],
      ["\\bfoo\\b", "afoo", false],
      ["(?<year>\\d{4})-\\d{2}", "on 2024-05", true],
      ["^a\\/b$", "a/b", true],
      ["\\u{1F600}", "x😀", true],
      ["^\\cJ$", "\n", true],
      ["", "anything", true],
    ];
    for (const [pattern, text, expected] of cases) {
      expect([pattern, text, linearRegExp(pattern, "u").test(text)]).toEqual([pattern, text, expected]);
      expect(new RegExp(pattern, "u").test(text)).toBe(expected);
    }
  });

  it("tells patterns apart by their key, as Ajv keeps one per key", () => {
    expect(String(linearRegExp("a", "u"))).not.toBe(String(linearRegExp("b", "u")));
  });

  it("rejects what JavaScript rejects, and names the construct RE2 cannot run", () => {
    expect(() => linearRegExp("[", "u")).toThrow(SyntaxError);
    expect(() => linearRegExp("\\-", "u")).toThrow(SyntaxError);
    for (const [pattern, construct] of [
      ["^(?=a)", "a lookahead ((?=...)"],
      ["^(?!a)", "a lookahead ((?!...)"],
      ["(?<=a)b", "a lookbehind ((?<=...)"],
      ["(?<!a)b", "a lookbehind ((?<!...)"],
      ["(a)\\1", "a backreference (\\1)"],
      ["(?<x>a)\\k<x>", "a named backreference (\\k<...>)"],
    ]) {
      expect(() => linearRegExp(pattern as string, "u")).toThrow(UnsupportedPatternError);
      expect(() => linearRegExp(pattern as string, "u")).toThrow(construct as string);
    }
    // Inside a class these are plain characters.
    expect(linearRegExp("^[(?=]+$", "u").test("(?=")).toBe(true);
  });
});
