/**
 * The printer: values as Clojure text. One walk serves the readable form (`format`, `pr-str`),
 * the `str`/`println` form (top-level strings bare) and bounded previews for the model (item and
 * character caps with the reference's truncation markers: `[1 2 ...] (2/5)`,
 * `"long ..." (10/21 chars)`).
 *
 * Maps print with keys in term order and sets in member order, so equal values always print the
 * same. Host internals never appear: unknown host objects print as #object[...].
 */
import { CustomValue } from "../values/custom-value.js";
import { Keyword } from "../values/keyword.js";
import { FUNCTION_INFO, type LispFunction } from "../values/lisp-function.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { mapEntries } from "../values/map-access.js";
import { WholeFloat } from "../values/numbers.js";
import { isPlainObject } from "../values/plain-object.js";
import { floatCompact, floatFull } from "./numbers.js";

export interface PrintOptions {
  /** Float style: `full` (default) or `compact` (at most 10 decimals). */
  readonly floats?: "full" | "compact";
  /** Print a top-level string without quotes (as `str` and `println` do). */
  readonly bareStrings?: boolean;
  /** Show at most this many items of each collection, then `... (shown/total)`. */
  readonly maxItems?: number;
  /** Show at most this many characters of each string, then `..." (n/total chars)`. */
  readonly maxStringChars?: number;
  /** Cut the whole text at this many characters (with "..."): for error messages. */
  readonly maxChars?: number;
}

interface Printer {
  readonly floats: "full" | "compact";
  readonly maxItems: number;
  readonly maxStringChars: number;
  truncated: boolean;
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\t": "\\t",
  "\r": "\\r",
  "\b": "\\b",
  "\f": "\\f",
};

export function quoteString(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point
  return `"${text.replace(/["\\\n\t\r\b\f\u0000-\u001f]/g, (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

function printString(text: string, printer: Printer): string {
  if (text.length <= printer.maxStringChars) return quoteString(text);
  const chars = Array.from(text);
  if (chars.length <= printer.maxStringChars) return quoteString(text);
  printer.truncated = true;
  return `${quoteString(`${chars.slice(0, printer.maxStringChars).join("")}...`)} (${printer.maxStringChars}/${chars.length} chars)`;
}

function printItems(
  items: readonly unknown[],
  open: string,
  close: string,
  printer: Printer,
  total = items.length,
): string {
  const shown = Math.min(items.length, printer.maxItems);
  const parts = new Array<string>(shown);
  for (let i = 0; i < shown; i++) parts[i] = printValue(items[i], printer);
  if (shown < total) {
    printer.truncated = true;
    return `${open}${parts.join(" ")} ...${close} (${shown}/${total})`;
  }
  return `${open}${parts.join(" ")}${close}`;
}

/**
 * With a character budget, a map shows fewer entries (about 30 characters each) and shares the
 * budget among its values (about 10 characters of overhead per entry, at least 10 per value), as
 * the reference's preview does, so one wide map cannot crowd out everything else.
 */
function printMap(entries: ReadonlyArray<readonly [unknown, unknown]>, printer: Printer): string {
  let itemLimit = printer.maxItems;
  let valuePrinter = printer;
  if (Number.isFinite(printer.maxStringChars)) {
    itemLimit = Math.min(itemLimit, Math.max(Math.floor(printer.maxStringChars / 30), 1));
    const n = Math.min(entries.length, itemLimit);
    if (n > 0) {
      const available = Math.max(printer.maxStringChars - n * 10, 0);
      valuePrinter = { ...printer, maxStringChars: Math.max(Math.floor(available / n), 10) };
    }
  }
  const shown = Math.min(entries.length, itemLimit);
  const parts = new Array<string>(shown);
  for (let i = 0; i < shown; i++) {
    const [key, value] = entries[i] as readonly [unknown, unknown];
    parts[i] = `${printValue(key, printer)} ${printValue(value, valuePrinter)}`;
  }
  if (valuePrinter !== printer && valuePrinter.truncated) printer.truncated = true;
  if (shown < entries.length) {
    printer.truncated = true;
    return `{${parts.join(" ")} ...} (${shown}/${entries.length})`;
  }
  return `{${parts.join(" ")}}`;
}

function printFunction(fn: unknown): string {
  const info = (fn as Partial<LispFunction>)[FUNCTION_INFO];
  if (info === undefined) return "#object[host-function]";
  if (info.builtin) return "#<builtin>";
  return `#fn[${info.signature ?? ""}]`;
}

function printValue(value: unknown, printer: Printer): string {
  switch (typeof value) {
    case "string":
      return printString(value, printer);
    case "number":
      return Number.isInteger(value)
        ? String(value)
        : printer.floats === "full"
          ? floatFull(value)
          : floatCompact(value);
    case "bigint":
      return value.toString();
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return "nil";
    case "function":
      return printFunction(value);
    case "object": {
      if (value === null) return "nil";
      if (value instanceof Keyword) return `:${value.name}`;
      if (value instanceof WholeFloat)
        return printer.floats === "full" ? floatFull(value.value) : floatCompact(value.value);
      if (Array.isArray(value)) return printItems(value, "[", "]", printer);
      if (value instanceof LispMap || isPlainObject(value)) return printMap(mapEntries(value), printer);
      if (value instanceof LispSet) return printItems(value.members(), "#{", "}", printer);
      if (value instanceof CustomValue) return value.print();
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return `#object[${typeof name === "string" && name !== "" ? name : "Object"}]`;
    }
    default:
      return "#object[unknown]";
  }
}

function cut(text: string, maxChars: number | undefined): string {
  if (maxChars === undefined || text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}...`;
}

/** Clojure text of a value. */
export function print(value: unknown, options: PrintOptions = {}): string {
  if (options.bareStrings && typeof value === "string") return cut(value, options.maxChars);
  if (options.bareStrings && value instanceof CustomValue) return cut(value.text(), options.maxChars);
  const printer: Printer = {
    floats: options.floats ?? "full",
    maxItems: options.maxItems ?? Number.POSITIVE_INFINITY,
    maxStringChars: options.maxStringChars ?? Number.POSITIVE_INFINITY,
    truncated: false,
  };
  return cut(printValue(value, printer), options.maxChars);
}

/** Clojure text and whether any cap cut something. */
export function printWithTruncation(
  value: unknown,
  options: PrintOptions,
): { text: string; truncated: boolean } {
  const printer: Printer = {
    floats: options.floats ?? "full",
    maxItems: options.maxItems ?? Number.POSITIVE_INFINITY,
    maxStringChars: options.maxStringChars ?? Number.POSITIVE_INFINITY,
    truncated: false,
  };
  const text = printValue(value, printer);
  return { text, truncated: printer.truncated };
}
