/** Text output and conversion to text: println, str, pr-str. */
import { print } from "../format/print.js";
import { active } from "../runtime/context.js";
import { graphemeCount } from "../runtime/graphemes.js";
import { assertEffectsAllowed } from "../runtime/pure-mode.js";
import { type BuiltinDefinition, builtin } from "./definition.js";

/** One value as `str` shows it: strings bare, nil empty, everything else readable, floats in full. */
export function strOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  // Special floats read as words in text, as in the reference: (str ##Inf) is "Infinity".
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  // The text becomes a program value: the printer charges it as it goes (and reads the clock), so
  // `(str huge)` stops at the run's limits instead of building more text than memory holds.
  return print(value, { bareStrings: true, chargeText: true });
}

function str(...args: unknown[]): string {
  if (args.length === 1) return strOf(args[0]);
  let out = "";
  for (const arg of args) out += strOf(arg);
  active.allocate(out.length);
  return out;
}

/** A non-empty vector of one-character strings: what `(take 3 "abcdef")` gives. */
function isCharacterVector(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => typeof item === "string" && graphemeCount(item) === 1)
  );
}

/**
 * println text: arguments joined by spaces, strings bare, nil as "nil", floats compact. A vector
 * of characters prints as the text it spells, as in the reference: `(println (take 5 s))`.
 */
export function printlnText(args: readonly unknown[], maxChars?: number): string {
  let line = "";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (i > 0) line += " ";
    // Printing stops at the line's cap: a huge value costs no more than the text kept of it.
    const left = maxChars === undefined ? undefined : Math.max(maxChars - line.length, 0);
    line +=
      typeof arg === "string"
        ? arg
        : isCharacterVector(arg)
          ? arg.join("")
          : print(
              arg,
              left === undefined
                ? { floats: "compact", bareStrings: true }
                : { floats: "compact", bareStrings: true, maxChars: left },
            );
    if (maxChars !== undefined && line.length > maxChars) break;
  }
  return line;
}

function println(...args: unknown[]): null {
  assertEffectsAllowed();
  const context = active;
  const limits = context.limits;
  if (context.prints.length >= limits.maxPrintLines) {
    context.printsDropped++;
    return null;
  }
  let line = printlnText(args, limits.maxPrintLength);
  if (line.length > limits.maxPrintLength) line = `${line.slice(0, limits.maxPrintLength)}...`;
  context.allocate(line.length);
  context.prints.push(line);
  return null;
}

function prStr(...args: unknown[]): string {
  return args.map((arg) => print(arg, { floats: "compact", chargeText: true })).join(" ");
}

const CATEGORY = "Strings";

export const outputBuiltins: BuiltinDefinition[] = [
  builtin(
    "str",
    [0, Infinity],
    ["[]", "[x & more]"],
    "Concatenates the text of each argument (nil is empty, strings unquoted).",
    CATEGORY,
    str,
    [
      ['(str "a" 1 :b nil)', '"a1:b"'],
      ['(str [1 "x"])', '"[1 \\"x\\"]"'],
    ],
  ),
  builtin(
    "pr-str",
    [0, Infinity],
    ["[& xs]"],
    "Readable text of the arguments, separated by spaces (strings quoted).",
    CATEGORY,
    prStr,
    [['(pr-str "a" 1)', '"\\"a\\" 1"']],
  ),
  builtin(
    "println",
    [0, Infinity],
    ["[& xs]"],
    "Records a line of output (arguments joined by spaces); returns nil.",
    "Output",
    println,
    [['(println "total:" 42)', "nil"]],
  ),
];
