/**
 * Text helpers shared by the string, regex and interop builtins: argument checks with messages
 * that name the function, grapheme-based positions (what a person counts as one character, as in
 * the reference), and the reference's notion of whitespace for trimming.
 *
 * Plain ASCII without CRLF is the common case: there a code unit is a grapheme and every helper
 * works on the string directly, with no segmenter.
 */
import { LispError } from "../../errors.js";
import { print } from "../../format/print.js";
import { chargeNewText } from "../../runtime/allocation.js";
import { active } from "../../runtime/context.js";
import { typeName } from "../../runtime/describe.js";
import {
  countGraphemes,
  graphemeRange,
  graphemeStartOffset,
  segmentedGraphemes,
} from "../../runtime/graphemes.js";
import { checkVectorLength } from "../../values/vector-limit.js";
import { chargeWalk } from "../../values/walk-meter.js";
import { strOf } from "../output.js";

/** Type and a short printed form of a value, for messages: `integer 42`, `nil`. */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return "nil";
  return `${typeName(value)} ${print(value, { maxChars: 60, maxItems: 10, maxStringChars: 60 })}`;
}

/** The value as a string, or a type error naming the function. */
export function requireString(value: unknown, who: string, role = "a string"): string {
  if (typeof value === "string") return value;
  throw new LispError("type_error", `${who} expects ${role}, got ${describe(value)}`);
}

/** The value as a safe integer, or a type error naming the function. */
export function requireIndex(value: unknown, who: string, role = "an integer index"): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "bigint") return value < 0n ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  throw new LispError("type_error", `${who} expects ${role}, got ${describe(value)}`);
}

// Loops often slice or search the same long string many times: remember the last answer.
let lastLongText = "";
let lastLongSimple = true;

/** True when code units are graphemes: ASCII and no CRLF (which is one grapheme). */
export function isSimple(text: string): boolean {
  const long = text.length > 256;
  if (long && text === lastLongText) return lastLongSimple;
  // A scan of the whole text: charged when long, so a loop over many long texts reads the clock.
  if (text.length > 4096) chargeWalk(text.length);
  let simple = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 127 || (code === 13 && text.charCodeAt(i + 1) === 10)) {
      simple = false;
      break;
    }
  }
  if (long) {
    lastLongText = text;
    lastLongSimple = simple;
  }
  return simple;
}

export function graphemeLength(text: string): number {
  if (isSimple(text)) return text.length;
  return countGraphemes(text);
}

/** Graphemes from `start` (inclusive) to `end` (exclusive), both clamped to the string. */
export function graphemeSlice(text: string, start: number, end = Number.POSITIVE_INFINITY): string {
  if (isSimple(text)) return text.slice(Math.max(start, 0), Math.max(end, 0));
  const from = Math.max(start, 0);
  return graphemeRange(text, from, Math.max(end, from));
}

/** Code-unit offset of the grapheme at `index` (clamped to the string). */
export function graphemeOffset(text: string, index: number): number {
  if (index <= 0) return 0;
  if (isSimple(text)) return Math.min(index, text.length);
  return graphemeStartOffset(text, index);
}

/** Number of graphemes before a code-unit offset. */
export function graphemeIndexAt(text: string, offset: number): number {
  if (offset <= 0) return 0;
  const prefix = text.slice(0, offset);
  return isSimple(prefix) ? prefix.length : countGraphemes(prefix);
}

/** The graphemes of a string (ASCII fast path), no more than the vector cap (vector-limit.ts). */
export function graphemeList(text: string): string[] {
  if (isSimple(text)) {
    checkVectorLength(text.length);
    return text.split("");
  }
  return segmentedGraphemes(text);
}

/** Unicode White_Space, as the reference's trim functions understand it. */
function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export function trimStart(text: string): string {
  let start = 0;
  while (start < text.length && isWhitespace(text.charCodeAt(start))) start++;
  return start === 0 ? text : text.slice(start);
}

export function trimEnd(text: string): string {
  let end = text.length;
  while (end > 0 && isWhitespace(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

export function trimBoth(text: string): string {
  return trimEnd(trimStart(text));
}

/**
 * `text` in upper or lower case (upper-case, lower-case, .toUpperCase, .toLowerCase). Linear in
 * the text, which may be megabytes, and a loop may convert many: charged per character to the
 * clock, and as a new text to the memory budget before it is made (after, too, for the part a
 * few letters add: "ß" is "SS" in upper case).
 */
export function changeCase(text: string, to: "upper" | "lower"): string {
  active.work(text.length);
  chargeNewText(text.length);
  const changed = to === "upper" ? text.toUpperCase() : text.toLowerCase();
  if (changed.length > text.length) chargeNewText(changed.length - text.length);
  return changed;
}

/** A value as `str` shows it, with special floats as Java names them (`Infinity`, `NaN`). */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" && !Number.isFinite(value)) {
    return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  }
  return strOf(value);
}
