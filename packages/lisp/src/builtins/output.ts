/** Text output and conversion to text: println, str, pr-str. */
import { print } from "../format/print.js";
import { chargeNewText } from "../runtime/allocation.js";
import { active } from "../runtime/context.js";
import { graphemeCount } from "../runtime/graphemes.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { assertEffectsAllowed } from "../runtime/pure-mode.js";
import { type BuiltinDefinition, builtin } from "./definition.js";

/** One value as `str` shows it: strings bare, nil empty, everything else readable, floats in full. */
export function strOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    // An integer (an id in `(str "order " id)`) prints as JavaScript writes it, as print does,
    // with no printer options to allocate; special floats read as words in text, as in the
    // reference: (str ##Inf) is "Infinity".
    if (Number.isInteger(value)) return String(value);
    if (!Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  }
  // The text becomes a program value: the printer charges it as it goes (and reads the clock), so
  // `(str huge)` stops at the run's limits instead of building more text than memory holds.
  return print(value, { bareStrings: true, chargeText: true });
}

/** Up to this many arguments, str concatenates instead of joining. */
const FEW_PIECES = 16;

function str(...args: unknown[]): string {
  if (args.length === 1) return strOf(args[0]);
  if (args.length === 2) {
    const first = strOf(args[0]);
    const second = strOf(args[1]);
    chargeNewText(first.length + second.length);
    return first + second;
  }
  if (args.length <= FEW_PIECES) {
    // `(str "order " id " for " customer)`: concatenated as they come (V8 links the pieces, it
    // copies nothing until the text is read), which beats a join of an array of them.
    let text = "";
    for (let i = 0; i < args.length; i++) text += strOf(args[i]);
    chargeNewText(text.length);
    return text;
  }
  // Many arguments (apply str over a long vector): the text of each, then the whole charged
  // before it is joined; the loop reads the clock as it goes.
  const texts = new Array<string>(args.length);
  let length = 0;
  for (let i = 0; i < args.length; i++) {
    const text = strOf(args[i]);
    texts[i] = text;
    length += text.length;
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  chargeNewText(length);
  return texts.join("");
}

/** A non-empty vector of one-character strings: what `(take 3 "abcdef")` gives. */
function isCharacterVector(value: unknown): value is string[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  // Every item decides (one number prints the vector as a vector), and the vector may hold
  // millions: the scan reads the clock as it goes.
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (typeof item !== "string" || graphemeCount(item) !== 1) return false;
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return true;
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
        ? left === undefined || arg.length <= left
          ? arg
          : arg.slice(0, left + 1)
        : isCharacterVector(arg)
          ? // Each character is at least one code unit: past the cap, the rest is never shown.
            (left === undefined || arg.length <= left ? arg : arg.slice(0, left + 1)).join("")
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
