/**
 * The native engine is used only where it gives RE2's answer (values/regex-native.ts): these
 * tests generate patterns of the subset and texts, and require the same first match and the same
 * sequence of matches, groups included, from both engines (and from `re-seq` and `split` over long
 * texts searched a line at a time); and they check that patterns outside the subset get no RegExp.
 */
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, test } from "vitest";
import { toJson } from "../format/to-json.js";
import { run } from "../run.js";
import { Regex } from "./regex.js";
import { NATIVE_TEXT_LIMIT, nativePattern, nativeRegExp } from "./regex-native.js";

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
  "\\s",
  "\\S",
  "\\D",
  "\\W",
  ".",
  "[^a-c]",
  "[^\\s=]",
  "(ERROR|WARN)",
);
const quantifier = fc.constantFrom("", "", "", "?", "{2}", "{1,3}", "??");
const unbounded = fc.constantFrom("*", "+", "+?", "*?", "{2,}");
const piece = fc.tuple(atom, quantifier).map(([a, q]) => a + q);

/** A pattern of the subset: pieces, at most one unbounded quantifier, groups around runs. */
const pattern = fc
  .tuple(
    fc.array(piece, { minLength: 1, maxLength: 5 }),
    fc.array(fc.tuple(fc.nat(5), atom, unbounded), { maxLength: 3 }),
    fc.array(fc.tuple(fc.nat(5), fc.nat(5)), { maxLength: 2 }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([pieces, star, groups, start, end]) => {
    const parts = [...pieces];
    for (const [at, a, q] of star) parts.splice(Math.min(at, parts.length), 0, a + q);
    for (const [from, length] of groups) {
      const a = Math.min(from, parts.length - 1);
      const b = Math.min(parts.length - 1, a + length);
      parts[a] = `(${parts[a]}`;
      parts[b] = `${parts[b]})`;
    }
    return `${start ? "^" : ""}${parts.join("")}${end ? "$" : ""}`;
  });

const text = fc.string({
  unit: fc.constantFrom(
    "a",
    "b",
    "c",
    "x",
    "1",
    "2",
    "=",
    " ",
    "-",
    ":",
    ".",
    '"',
    "é",
    "👍",
    "\n",
    "\t",
    "\v",
    "\u00a0",
    "ERROR",
    "WARN",
  ),
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
    // About half the generated patterns are in the subset, so the comparison is not vacuous.
    expect(native).toBeGreaterThan(1000);
  });

  test("every match in order, for generated patterns and texts", () => {
    let native = 0;
    fc.assert(
      fc.property(pattern, text, (source, input) => {
        const found = nativePattern(source);
        if (found === undefined || !found.nonEmpty) return;
        native++;
        expect(allMatchesOf(source, input, true), `${source} on ${JSON.stringify(input)}`).toEqual(
          allMatchesOf(source, input, false),
        );
      }),
      { numRuns: 3000 },
    );
    expect(native).toBeGreaterThan(1000);
  });

  test("re-seq, split and replace over long texts searched a line at a time", async () => {
    const lines = fc.array(
      text.map((line) => line.replaceAll("\n", " ")),
      { minLength: 1, maxLength: 8 },
    );
    const samples = fc.sample(fc.tuple(pattern, lines), { numRuns: 1500, seed: 22 });
    let lineByLine = 0;
    for (const [source, parts] of samples) {
      const found = nativePattern(source);
      if (found === undefined || !found.nonEmpty || !found.lineLocal) continue;
      lineByLine++;
      // Long enough to leave the short-text path, with a line past the native limit among them.
      const long = "x=1 ".repeat(NATIVE_TEXT_LIMIT / 2);
      const input = [...parts, long, ...parts].join("\n").repeat(8);
      const program = `[(re-seq (re-pattern data/p) data/s) (str/split data/s (re-pattern data/p)) (str/replace data/s (re-pattern data/p) "_") (re-find (re-pattern data/p) data/s)]`;
      const result = await run(program, { context: { p: source, s: input } });
      if (!result.ok) throw new Error(result.error.message);
      const [seq, pieces, replaced, first] = toJson(result.value) as [unknown[], string[], string, unknown];
      const expected = allMatchesOf(source, input, false);
      expect(seq, source).toEqual(expected);
      expect(first, source).toEqual(expected[0] ?? null);
      expect(replaced, source).toBe(RE2JS.compile(source).matcher(input).replaceAll("_"));
      expect(pieces.length, source).toBeGreaterThanOrEqual(expected.length + 1);
    }
    expect(lineByLine).toBeGreaterThan(60);
  });

  test.each([
    "(ab)+",
    "(a)?",
    "(?i)a",
    "x*y*",
    "(?:a)",
    "a$b",
    "^^a",
    "\\bword",
    "a*[ab]+",
    "[\\S\\d]",
    "^a|b$",
  ])("%s is outside the subset", (source) => {
    expect(nativeRegExp(source)).toBeUndefined();
  });

  test.each([
    "latency=(\\d+)ms",
    "^(\\w+): (\\d{1,3})$",
    "[A-Z][a-z]+",
    "id-\\d{4}",
    "(\\w+)=(\\S+)",
    "ERROR|WARN",
    "(ERROR|WARN) (\\w+)",
    "\\s+",
    "a.b",
    "[^a]",
    "\\D",
    "a+b+",
  ])("%s is in it", (source) => {
    expect(nativeRegExp(source)).toBeInstanceOf(RegExp);
  });
});

/** re-seq's answer from one engine or the other, on a short text. */
function allMatchesOf(source: string, text: string, native: boolean): unknown[] {
  const shape = (groups: Array<string | null | undefined>) => {
    let last = groups.length - 1;
    while (last > 0 && (groups[last] === undefined || groups[last] === null)) last--;
    return last === 0 ? groups[0] : groups.slice(0, last + 1).map((group) => group ?? "");
  };
  const out: unknown[] = [];
  if (native) {
    for (const match of text.matchAll((nativePattern(source) as { global: RegExp }).global))
      out.push(shape([...match]));
    return out;
  }
  const matcher = RE2JS.compile(source).matcher(text);
  const groups = matcher.groupCount();
  while (matcher.find()) out.push(shape(Array.from({ length: groups + 1 }, (_, i) => matcher.group(i))));
  return out;
}

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

describe("the builtins use the native engine where they may", () => {
  // Regex.compile returns the instance a program's literal made (patterns are kept by source), so
  // whether RE2 ever compiled it tells which engine served the searches.
  test("re-seq, split and re-find over short lines and a long text of short lines never reach RE2", async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `t=${i} service=api latency=${i % 97}ms`);
    const program = `[(count (mapcat #(re-seq #"(\\w+)=(\\S+)" %) data/lines))
      (count (re-seq #"latency=(\\d+)ms" data/text))
      (count (filter #(re-find #"ERROR|api" %) data/lines))
      (count (mapcat #(str/split % #"\\s+") data/lines))]`;
    const result = await run(program, { context: { lines, text: lines.join("\n") } });
    expect(result.ok && toJson(result.value)).toEqual([9000, 3000, 3000, 9000]);
    for (const source of ["(\\w+)=(\\S+)", "latency=(\\d+)ms", "ERROR|api", "\\s+"])
      expect(Regex.compile(source).compiledOnRe2, source).toBe(false);
  });

  test("a line too long for the native engine is searched by RE2, with the same matches", async () => {
    const long = "k=v ".repeat(NATIVE_TEXT_LIMIT);
    const text = ["a=1", long, "b=2"].join("\n");
    const result = await run('(count (re-seq #"(\\w)=(\\w)" data/text))', { context: { text } });
    expect(result.ok && result.value).toBe(NATIVE_TEXT_LIMIT + 2);
    expect(Regex.compile("(\\w)=(\\w)").compiledOnRe2).toBe(true);
  });
});
