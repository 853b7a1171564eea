/**
 * The native engine is used only where it gives RE2's answer (values/regex-native.ts): these
 * tests generate patterns of the subset and texts, and require the same first match, groups
 * included, from both engines; and they check that patterns outside the subset get no RegExp.
 */
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, test } from "vitest";
import { nativeRegExp } from "./regex-native.js";

const atom = fc.constantFrom(
  "a",
  "b",
  "x",
  "1",
  "=",
  " ",
  "-",
  ":",
  "\\d",
  "\\w",
  "\\.",
  "\\-",
  "[a-c]",
  "[0-9x]",
  "[\\d.]",
  '"',
);
const quantifier = fc.constantFrom("", "", "", "?", "{2}", "{1,3}", "??");
const unbounded = fc.constantFrom("*", "+", "+?", "*?", "{2,}");
const piece = fc.tuple(atom, quantifier).map(([a, q]) => a + q);

/** A pattern of the subset: pieces, at most one unbounded quantifier, groups around runs. */
const pattern = fc
  .tuple(
    fc.array(piece, { minLength: 1, maxLength: 5 }),
    fc.option(fc.tuple(fc.nat(5), atom, unbounded)),
    fc.array(fc.tuple(fc.nat(5), fc.nat(5)), { maxLength: 2 }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([pieces, star, groups, start, end]) => {
    const parts = [...pieces];
    if (star !== null) parts.splice(Math.min(star[0], parts.length), 0, star[1] + star[2]);
    for (const [from, length] of groups) {
      const a = Math.min(from, parts.length - 1);
      const b = Math.min(parts.length - 1, a + length);
      parts[a] = `(${parts[a]}`;
      parts[b] = `${parts[b]})`;
    }
    return `${start ? "^" : ""}${parts.join("")}${end ? "$" : ""}`;
  });

const text = fc.string({
  unit: fc.constantFrom("a", "b", "c", "x", "1", "2", "=", " ", "-", ":", ".", '"', "é", "👍", "\n"),
  maxLength: 40,
});

describe("the native engine agrees with RE2 on its subset", () => {
  test("first matches and groups, for generated patterns and texts", () => {
    let native = 0;
    fc.assert(
      fc.property(pattern, text, (source, input) => {
        const regexp = nativeRegExp(source);
        if (regexp === undefined) return;
        native++;
        expect(matchValueOf(source, input, true), `${source} on ${JSON.stringify(input)}`).toEqual(
          matchValueOf(source, input, false),
        );
      }),
      { numRuns: 3000 },
    );
    // Most generated patterns are in the subset, so the comparison is not vacuous.
    expect(native).toBeGreaterThan(1500);
  });

  test.each([
    "a|b",
    "(ab)+",
    "(a)?",
    "a.b",
    "[^a]",
    "\\s+",
    "\\D",
    "(?i)a",
    "a+b+",
    "x*y*",
    "(?:a)",
    "a$b",
    "^^a",
    "\\bword",
  ])("%s is outside the subset", (source) => {
    expect(nativeRegExp(source)).toBeUndefined();
  });

  test.each(["latency=(\\d+)ms", "^(\\w+): (\\d{1,3})$", "[A-Z][a-z]+", "id-\\d{4}"])(
    "%s is in it",
    (source) => {
      expect(nativeRegExp(source)).toBeInstanceOf(RegExp);
    },
  );
});

/** re-find's answer from one engine or the other. */
function matchValueOf(source: string, text: string, native: boolean): unknown {
  if (native) {
    const match = (nativeRegExp(source) as RegExp).exec(text);
    if (match === null) return null;
    let last = match.length - 1;
    while (last > 0 && match[last] === undefined) last--;
    return last === 0 ? match[0] : match.slice(0, last + 1).map((group) => group ?? "");
  }
  const matcher = RE2JS.compile(source).matcher(text);
  if (!matcher.find()) return null;
  const groups = matcher.groupCount();
  let last = groups;
  while (last > 0 && matcher.group(last) === null) last--;
  if (last === 0) return matcher.group(0);
  return Array.from({ length: last + 1 }, (_, i) => matcher.group(i) ?? "");
}
