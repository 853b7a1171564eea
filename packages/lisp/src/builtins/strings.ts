/**
 * String builtins: slicing, joining, splitting, trimming, case, searching, `format`, whole-string
 * number parsing and regex capture extraction. Positions and lengths count graphemes, as in the
 * reference. Bad data signals (`subs` out of range is "", `parse-long "x"` is nil); a value of the
 * wrong type (`(upper-case nil)`) raises a type error that names the function.
 */
import { LispError } from "../errors.js";
import { chargeNewText, vectorBytes } from "../runtime/allocation.js";
import { active } from "../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { LispSet } from "../values/lisp-set.js";
import { Regex } from "../values/regex.js";
import { checkTextLength } from "../values/text-limit.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { formatText } from "./support/str-format.js";
import { parseBoolean, parseDouble, parseLong } from "./support/str-numbers.js";
import { countOccurrences, replaceText, splitLineText, splitText } from "./support/str-pieces.js";
import { findFirst, regexOf, replaceAll as replaceRegex, splitAll } from "./support/str-regex.js";
import {
  changeCase,
  describe,
  graphemeIndexAt,
  graphemeLength,
  graphemeList,
  graphemeOffset,
  graphemeSlice,
  isSimple,
  requireIndex,
  requireString,
  textOf,
  trimBoth,
  trimEnd,
  trimStart,
} from "./support/str-text.js";

// ------------------------------------------------------------------ slicing and joining

function subs(s: unknown, start: unknown, end?: unknown): string {
  const text = requireString(s, "subs");
  const from = requireIndex(start, "subs", "an integer start index");
  if (end === undefined) {
    if (from < 0) return "";
    return isSimple(text) ? text.slice(from) : graphemeSlice(text, from);
  }
  const to = requireIndex(end, "subs", "an integer end index");
  if (from < 0 || to <= from) return "";
  return isSimple(text) ? text.slice(from, to) : graphemeSlice(text, from, to);
}

function joinItems(separator: string, coll: unknown): string {
  let items: readonly unknown[];
  if (Array.isArray(coll)) items = coll;
  else if (coll instanceof LispSet) items = coll.members();
  else {
    throw new LispError(
      "type_error",
      `join expects a vector or set of items, got ${describe(coll)}; write (join ", " items) with the separator first`,
    );
  }
  const n = items.length;
  if (n === 0) return "";
  active.work(n);
  let out = textOf(items[0]);
  chargeNewText(out.length);
  let charged = out.length;
  for (let i = 1; i < n; i++) {
    const piece = textOf(items[i]);
    const length = out.length + separator.length + piece.length;
    // Charged before it grows: a join of a million copies of a long string stops at the budget
    // having built no more than the budget.
    if (length - charged > 65536 || (i & 1023) === 0) {
      checkTextLength(length);
      active.allocate(length - charged);
      charged = length;
    }
    out += separator + piece;
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  active.allocate(out.length - charged);
  return out;
}

function join(first: unknown, second?: unknown): string {
  if (second === undefined) return joinItems("", first);
  if (typeof first !== "string") {
    throw new LispError(
      "type_error",
      `join expects a string separator, got ${describe(first)}; write (join ", " items)`,
    );
  }
  return joinItems(first, second);
}

// ------------------------------------------------------------------ splitting

function split(s: unknown, separator: unknown): string[] {
  const text = requireString(s, "split");
  let out: string[];
  if (separator instanceof Regex) return splitAll(separator, text);
  if (typeof separator !== "string") {
    throw new LispError(
      "type_error",
      `split expects a string or regex separator, got ${describe(separator)}`,
    );
  }
  if (separator === "") out = graphemeList(text);
  else out = splitText(text, separator);
  active.work(out.length);
  active.allocate(vectorBytes(out.length) + text.length);
  return out;
}

function splitLines(s: unknown): string[] {
  const text = requireString(s, "split-lines");
  const lines = splitLineText(text);
  let end = lines.length;
  while (end > 0 && lines[end - 1] === "") end--;
  if (end < lines.length) lines.length = end;
  active.work(lines.length);
  active.allocate(vectorBytes(lines.length) + text.length);
  return lines;
}

// ------------------------------------------------------------------ trimming and case

function trim(s: unknown): string {
  return trimBoth(requireString(s, "trim"));
}

function triml(s: unknown): string {
  return trimStart(requireString(s, "triml"));
}

function trimr(s: unknown): string {
  return trimEnd(requireString(s, "trimr"));
}

function trimNewline(s: unknown): string {
  const text = requireString(s, "trim-newline");
  let end = text.length;
  while (end > 0) {
    const code = text.charCodeAt(end - 1);
    if (code !== 10 && code !== 13) break;
    end--;
  }
  return end === text.length ? text : text.slice(0, end);
}

function blank(s: unknown): boolean {
  if (s === null || s === undefined) return true;
  return trimBoth(requireString(s, "blank?", "a string or nil")) === "";
}

function upperCase(who: string) {
  return (s: unknown): string => changeCase(requireString(s, who), "upper");
}

function lowerCase(who: string) {
  return (s: unknown): string => changeCase(requireString(s, who), "lower");
}

// ------------------------------------------------------------------ replacing

function replace(s: unknown, match: unknown, replacement: unknown): string {
  const text = requireString(s, "replace");
  const by = requireString(
    replacement,
    "replace",
    "a replacement string (functions and $1 group references are not supported)",
  );
  if (match instanceof Regex) return replaceRegex(match, text, by);
  const pattern = requireString(match, "replace", "a string or regex to match");
  // The result is charged before it is built: its length is known from the number of matches.
  if (pattern === "") {
    const count = graphemeLength(text);
    active.work(count);
    chargeNewText(text.length + (count + 1) * by.length);
    return `${by}${graphemeList(text).join(by)}${text === "" ? "" : by}`;
  }
  const matches = countOccurrences(text, pattern);
  if (matches === 0) return text;
  active.work(matches);
  chargeNewText(text.length + matches * (by.length - pattern.length));
  return replaceText(text, pattern, by);
}

// ------------------------------------------------------------------ searching

const LOOK_FOR = "a string to look for";

function startsWith(s: unknown, prefix: unknown): boolean {
  return requireString(s, "starts-with?").startsWith(requireString(prefix, "starts-with?", LOOK_FOR));
}

function endsWith(s: unknown, suffix: unknown): boolean {
  return requireString(s, "ends-with?").endsWith(requireString(suffix, "ends-with?", LOOK_FOR));
}

function includes(s: unknown, part: unknown): boolean {
  return requireString(s, "includes?").includes(requireString(part, "includes?", LOOK_FOR));
}

/** Grapheme index of the first `value` in `text` at or after grapheme `from`, or -1. */
export function indexOfText(text: string, value: string, from?: number): number {
  if (from === undefined) {
    if (value === "") return 0;
    const at = text.indexOf(value);
    return at < 0 ? -1 : graphemeIndexAt(text, at);
  }
  const start = Math.max(from, 0);
  const length = graphemeLength(text);
  if (value === "") return Math.min(start, length);
  if (start >= length) return -1;
  const at = text.indexOf(value, graphemeOffset(text, start));
  return at < 0 ? -1 : graphemeIndexAt(text, at);
}

/** Grapheme index of the last `value` in `text` starting at or before grapheme `from`, or -1. */
export function lastIndexOfText(text: string, value: string, from?: number): number {
  if (from === undefined) {
    if (value === "") return graphemeLength(text);
    const at = text.lastIndexOf(value);
    return at < 0 ? -1 : graphemeIndexAt(text, at);
  }
  const start = Math.max(from, 0);
  const length = graphemeLength(text);
  if (value === "") return Math.min(start, length);
  const at = text.lastIndexOf(value, graphemeOffset(text, Math.min(start, length)));
  return at < 0 ? -1 : graphemeIndexAt(text, at);
}

function indexOf(s: unknown, value: unknown, from?: unknown): number | null {
  const text = requireString(s, "index-of");
  const part = requireString(value, "index-of", LOOK_FOR);
  const index = indexOfText(
    text,
    part,
    from === undefined ? undefined : requireIndex(from, "index-of", "an integer start index"),
  );
  return index < 0 ? null : index;
}

function lastIndexOf(s: unknown, value: unknown, from?: unknown): number | null {
  const text = requireString(s, "last-index-of");
  const part = requireString(value, "last-index-of", LOOK_FOR);
  const index = lastIndexOfText(
    text,
    part,
    from === undefined ? undefined : requireIndex(from, "last-index-of", "an integer start index"),
  );
  return index < 0 ? null : index;
}

// ------------------------------------------------------------------ format

function format(...args: unknown[]): string {
  if (args.length === 0) {
    throw new LispError("runtime_error", 'format requires at least a format string: (format "%s items" n)');
  }
  const template = requireString(args[0], "format", "a format string first");
  return formatText(template, args.slice(1));
}

// ------------------------------------------------------------------ regex captures

function extract(pattern: unknown, s: unknown, group: unknown = 1): string | null {
  const regex = regexOf(pattern, "extract");
  const text = requireString(s, "extract");
  const index = requireIndex(group, "extract", "an integer group number");
  const found = findFirst(regex, text);
  if (found === null) return null;
  if (typeof found === "string") return index === 0 ? found : null;
  const at = index < 0 ? found.length + index : index;
  return found[at] ?? null;
}

function extractInt(pattern: unknown, s: unknown, group: unknown = 1, fallback: unknown = null): unknown {
  requireString(s, "extract-int");
  requireIndex(group, "extract-int", "an integer group number");
  const found = extract(pattern, s, group);
  if (found === null) return fallback;
  return parseLong(found) ?? fallback;
}

const CATEGORY = "Strings";

export const stringsBuiltins: BuiltinDefinition[] = [
  builtin(
    "subs",
    [2, 3],
    ["[s start]", "[s start end]"],
    "Substring from start (inclusive) to end (exclusive), by grapheme; out-of-range positions give a shorter or empty string, never an error.",
    CATEGORY,
    subs,
    [
      ['(subs "hello" 1 3)', '"el"'],
      ['(subs "hello" 10)', '""'],
    ],
  ),
  builtin(
    "join",
    [1, 2],
    ["[coll]", "[separator coll]"],
    "The items' text joined, with separator between them (nil items are empty).",
    CATEGORY,
    join,
    [
      ['(join ", " ["a" "b" "c"])', '"a, b, c"'],
      ["(join [1 2 3])", '"123"'],
    ],
  ),
  builtin(
    "split",
    [2, 2],
    ["[s separator]"],
    'Splits s at each separator (a string or a regex); keeps empty pieces; "" splits into characters.',
    CATEGORY,
    split,
    [
      ['(split "a,,b" ",")', '["a" "" "b"]'],
      ['(split "a1b22c" #"\\d+")', '["a" "b" "c"]'],
    ],
  ),
  builtin(
    "split-lines",
    [1, 1],
    ["[s]"],
    "Splits s into lines at \\n or \\r\\n, dropping trailing empty lines.",
    CATEGORY,
    splitLines,
    [['(split-lines "a\\nb\\r\\nc\\n")', '["a" "b" "c"]']],
  ),
  builtin("trim", [1, 1], ["[s]"], "s without leading and trailing whitespace.", CATEGORY, trim, [
    ['(trim "  hi  ")', '"hi"'],
  ]),
  builtin("triml", [1, 1], ["[s]"], "s without leading whitespace.", CATEGORY, triml, [
    ['(triml "  hi  ")', '"hi  "'],
  ]),
  builtin("trimr", [1, 1], ["[s]"], "s without trailing whitespace.", CATEGORY, trimr, [
    ['(trimr "  hi  ")', '"  hi"'],
  ]),
  builtin(
    "trim-newline",
    [1, 1],
    ["[s]"],
    "s without trailing newline and carriage-return characters.",
    CATEGORY,
    trimNewline,
    [['(trim-newline "hi\\r\\n")', '"hi"']],
  ),
  builtin("blank?", [1, 1], ["[s]"], "True when s is nil, empty or only whitespace.", CATEGORY, blank, [
    ['(blank? "  ")', "true"],
    ["(blank? nil)", "true"],
    ['(blank? "x")', "false"],
  ]),
  builtin(
    "replace",
    [3, 3],
    ["[s match replacement]"],
    "Replaces every occurrence of match (a string or a regex) with the replacement string, taken literally.",
    CATEGORY,
    replace,
    [
      ['(replace "hello" "l" "L")', '"heLLo"'],
      ['(replace "a  b   c" #"\\s+" " ")', '"a b c"'],
    ],
  ),
  builtin("upper-case", [1, 1], ["[s]"], "s in upper case.", CATEGORY, upperCase("upper-case"), [
    ['(upper-case "abc")', '"ABC"'],
  ]),
  builtin("upcase", [1, 1], ["[s]"], "s in upper case (same as upper-case).", CATEGORY, upperCase("upcase"), [
    ['(upcase "abc")', '"ABC"'],
  ]),
  builtin("lower-case", [1, 1], ["[s]"], "s in lower case.", CATEGORY, lowerCase("lower-case"), [
    ['(lower-case "ABC")', '"abc"'],
  ]),
  builtin(
    "downcase",
    [1, 1],
    ["[s]"],
    "s in lower case (same as lower-case).",
    CATEGORY,
    lowerCase("downcase"),
    [['(downcase "ABC")', '"abc"']],
  ),
  builtin("starts-with?", [2, 2], ["[s prefix]"], "True when s begins with prefix.", CATEGORY, startsWith, [
    ['(starts-with? "hello" "he")', "true"],
  ]),
  builtin("ends-with?", [2, 2], ["[s suffix]"], "True when s ends with suffix.", CATEGORY, endsWith, [
    ['(ends-with? "hello" "lo")', "true"],
  ]),
  builtin("includes?", [2, 2], ["[s substring]"], "True when s contains substring.", CATEGORY, includes, [
    ['(includes? "hello" "ell")', "true"],
  ]),
  builtin(
    "index-of",
    [2, 3],
    ["[s value]", "[s value from]"],
    "Position of the first value in s (at or after from), or nil.",
    CATEGORY,
    indexOf,
    [
      ['(index-of "hello" "l")', "2"],
      ['(index-of "hello" "x")', "nil"],
    ],
  ),
  builtin(
    "last-index-of",
    [2, 3],
    ["[s value]", "[s value from]"],
    "Position of the last value in s (starting at or before from), or nil.",
    CATEGORY,
    lastIndexOf,
    [['(last-index-of "hello" "l")', "3"]],
  ),
  builtin(
    "format",
    [0, Number.POSITIVE_INFINITY],
    ["[fmt & args]"],
    "Text from a template: %s %d %f %.2f %e %x %o %% (widths and flags are ignored; nil prints as empty).",
    CATEGORY,
    format,
    [
      ['(format "%s has %d items" "cart" 3)', '"cart has 3 items"'],
      ['(format "%.2f" 3.14159)', '"3.14"'],
    ],
  ),
  builtin("parse-long", [1, 1], ["[s]"], "The integer a whole string spells, or nil.", CATEGORY, parseLong, [
    ['(parse-long "42")', "42"],
    ['(parse-long "4x")', "nil"],
  ]),
  builtin(
    "parse-int",
    [1, 1],
    ["[s]"],
    "The integer a whole string spells, or nil (same as parse-long).",
    CATEGORY,
    (s: unknown) => parseLong(s),
    [['(parse-int "-7")', "-7"]],
  ),
  builtin(
    "parse-double",
    [1, 1],
    ["[s]"],
    "The float a whole string spells, or nil.",
    CATEGORY,
    parseDouble,
    [
      ['(parse-double "3.5")', "3.5"],
      ['(parse-double "42")', "42.0"],
    ],
  ),
  builtin(
    "parse-boolean",
    [1, 1],
    ["[s]"],
    'true for "true", false for "false", otherwise nil.',
    CATEGORY,
    parseBoolean,
    [['(parse-boolean "true")', "true"]],
  ),
  builtin(
    "extract",
    [2, 3],
    ["[pattern s]", "[pattern s group]"],
    "The text a regex group (default 1; 0 is the whole match) captured at the first match in s, or nil.",
    CATEGORY,
    extract,
    [
      ['(extract "ID:(\\\\d+)" "ID:42")', '"42"'],
      ['(extract #"x=(\\d+)" "none")', "nil"],
    ],
  ),
  builtin(
    "extract-int",
    [2, 4],
    ["[pattern s]", "[pattern s group]", "[pattern s group default]"],
    "Like extract, parsed as an integer; default (nil unless given) when there is no match or no number.",
    CATEGORY,
    extractInt,
    [
      ['(extract-int "age=(\\\\d+)" "age=25")', "25"],
      ['(extract-int "age=(\\\\d+)" "none" 1 0)', "0"],
    ],
  ),
];
