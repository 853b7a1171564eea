/**
 * The printer: values as Clojure text. One walk serves the readable form (`format`, `pr-str`),
 * the `str`/`println` form (top-level strings bare) and bounded previews for the model (item and
 * character caps with the reference's truncation markers: `[1 2 ...] (2/5)`,
 * `"long ..." (10/21 chars)`).
 *
 * Maps print with keys in term order and sets in member order, so equal values always print the
 * same. Host internals never appear: unknown host objects print as #object[...].
 *
 * The walk is iterative (a value nested 100,000 deep prints; it does not overflow the stack), it
 * stops as soon as the text passes `maxChars` (a value with shared structure can expand to more
 * text than exists), and it is metered (values/walk-meter.ts): inside a run every collection
 * visited reads the run's clock, so `(str huge)` stops at the run's timeout. Text that becomes a
 * program value (`str`, `pr-str`) is charged to the memory budget as it grows, and a long string
 * is escaped a slice at a time (values/text-limit.ts), so `pr-str` applied to its own output again
 * and again stops at the budget instead of growing past what V8 can hold.
 */
import { headOf } from "../cut-text.js";
import { CustomValue } from "../values/custom-value.js";
import { Keyword } from "../values/keyword.js";
import { FUNCTION_INFO, type LispFunction } from "../values/lisp-function.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { mapEntries } from "../values/map-access.js";
import { WholeFloat } from "../values/numbers.js";
import { isPlainObject } from "../values/plain-object.js";
import { checkTextLength, sliceEnd, TEXT_SLICE } from "../values/text-limit.js";
import { chargeText, chargeTextWork, chargeWalk } from "../values/walk-meter.js";
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
  /**
   * Cut the whole text at this many characters (with "..."). The walk stops there, so the cost of
   * printing is bounded by the cap, whatever the value.
   */
  readonly maxChars?: number;
  /**
   * The text becomes a program value (`str`, `pr-str`): charge it to the running program's
   * memory budget as it is produced, so printing a huge value stops at the budget.
   */
  readonly chargeText?: boolean;
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

// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point
const ESCAPED = /["\\\n\t\r\b\f\u0000-\u001f]/g;
const SURROGATE = /[\ud800-\udfff]/;

/** `text` with its escapes, without the quotes; one native call, so only for a slice of text. */
function escaped(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  // JSON escapes exactly these characters, the same way (`\u0001` in lowercase hex), and V8
  // does it about twenty times faster than a replace that calls back per match; it differs only
  // on surrogates, which it escapes when they stand alone.
  if (!SURROGATE.test(text)) return JSON.stringify(text).slice(1, -1);
  return text.replace(
    ESCAPED,
    (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A string as a Clojure literal. A long text is escaped a slice at a time, with the clock read
 * between slices: escaping is the one step that can double a text (quotes and backslashes) or
 * grow it sixfold (control characters), and a single global replace over more than 2^27 matches
 * ends the process instead of failing.
 */
export function quoteString(text: string): string {
  if (text.length <= TEXT_SLICE) return `"${escaped(text)}"`;
  const parts = ['"'];
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start);
    chargeTextWork(end - start);
    parts.push(escaped(text.slice(start, end)));
    start = end;
  }
  parts.push('"');
  return parts.join("");
}

/** Code points in `text`, counting no further than `stop`. */
function codePoints(text: string, stop: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count < stop; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** The code-unit offset after the first `count` code points of `text`. */
function codePointOffset(text: string, count: number): number {
  let i = 0;
  for (let seen = 0; i < text.length && seen < count; seen++, i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) i++;
    }
  }
  return i;
}

/** A string quoted, cut at `maxChars` code points with the `(n/total chars)` marker. */
function quotedWithin(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text: quoteString(text), truncated: false };
  const total = codePoints(text, Number.POSITIVE_INFINITY);
  if (total <= maxChars) return { text: quoteString(text), truncated: false };
  return {
    text: `${quoteString(`${text.slice(0, codePointOffset(text, maxChars))}...`)} (${maxChars}/${total} chars)`,
    truncated: true,
  };
}

/** Text of anything that is not a string or a collection. */
function scalarText(value: unknown, floats: "full" | "compact"): string {
  switch (typeof value) {
    case "number":
      return Number.isInteger(value)
        ? String(value)
        : floats === "full"
          ? floatFull(value)
          : floatCompact(value);
    case "bigint": {
      // Superlinear in V8, and bounded by the size an integer may have (runtime/big-integers.ts):
      // charged by its length, so printing many of them reads the clock.
      const text = value.toString();
      chargeTextWork(text.length);
      return text;
    }
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
        return floats === "full" ? floatFull(value.value) : floatCompact(value.value);
      if (value instanceof CustomValue) return value.print();
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return `#object[${typeof name === "string" && name !== "" ? name : "Object"}]`;
    }
    default:
      return "#object[unknown]";
  }
}

function isCollection(value: unknown): boolean {
  return Array.isArray(value) || value instanceof LispSet || value instanceof LispMap || isPlainObject(value);
}

function printFunction(fn: unknown): string {
  const info = (fn as Partial<LispFunction>)[FUNCTION_INFO];
  if (info === undefined) return "#object[host-function]";
  if (info.builtin) return "#<builtin>";
  return `#fn[${info.signature ?? ""}]`;
}

/** A collection being printed: its items (for a map: entries, read as key, value, key...). */
interface Frame {
  readonly items: readonly unknown[];
  readonly isMap: boolean;
  /** Slots to print: items shown (twice the entries shown, for a map). */
  readonly slots: number;
  next: number;
  readonly close: string;
  /** What follows the close bracket when items were left out: ` (shown/total)`. */
  readonly elided: string;
  /** String budget of the items (for a map: of its keys). */
  readonly itemChars: number;
  /** String budget of a map's values (shared among them). */
  readonly valueChars: number;
}

class Printer {
  /**
   * The text so far: finished chunks, and the pieces of the current one. Joining pieces in
   * batches keeps the garbage young (a long chain of appended strings would be kept whole).
   */
  private readonly chunks: string[] = [];
  private pieces: string[] = [];
  private length = 0;
  private readonly stack: Frame[] = [];
  truncated = false;
  /** Set when the text passed `limit`: the walk stops. */
  full = false;
  private charged = 0;

  constructor(
    private readonly floats: "full" | "compact",
    private readonly maxItems: number,
    private readonly limit: number,
    private readonly chargesText: boolean,
  ) {}

  emit(text: string): void {
    const pieces = this.pieces;
    pieces.push(text);
    this.length += text.length;
    if (pieces.length >= 1024) {
      // A piece is about one node: reading the clock here bounds the time between checks
      // whatever the shape of the value (one vector of a million items included).
      chargeWalk(1024);
      this.chunks.push(pieces.join(""));
      this.pieces = [];
    }
    if (this.length > this.limit) this.full = true;
    if (this.chargesText && this.length - this.charged >= 4096) {
      checkTextLength(this.length);
      chargeText(this.length - this.charged);
      this.charged = this.length;
    }
  }

  text(): string {
    if (this.chargesText && this.length > this.charged) chargeText(this.length - this.charged);
    const last = this.pieces.join("");
    return this.chunks.length === 0 ? last : this.chunks.join("") + last;
  }

  /** Emits a string literal cut at `maxChars` code points; a long one a slice at a time. */
  private string(text: string, maxChars: number): void {
    if (text.length <= TEXT_SLICE) {
      const quoted = quotedWithin(text, maxChars);
      if (quoted.truncated) this.truncated = true;
      this.emit(quoted.text);
      return;
    }
    let shown = text;
    let marker = "";
    if (text.length > maxChars) {
      chargeTextWork(text.length);
      const total = codePoints(text, Number.POSITIVE_INFINITY);
      if (total > maxChars) {
        shown = `${text.slice(0, codePointOffset(text, maxChars))}...`;
        marker = ` (${maxChars}/${total} chars)`;
        this.truncated = true;
      }
    }
    // Slice by slice, each charged (emit) before the next is escaped: the text stops at the
    // memory budget, or at the printer's cap, having built at most one slice past it.
    this.emit('"');
    for (let start = 0; start < shown.length && !this.full; ) {
      const end = sliceEnd(shown, start);
      chargeTextWork(end - start);
      this.emit(escaped(shown.slice(start, end)));
      start = end;
    }
    this.emit('"');
    if (marker !== "") this.emit(marker);
  }

  private scalar(value: unknown): string {
    return scalarText(value, this.floats);
  }

  private open(
    items: readonly unknown[],
    isMap: boolean,
    open: string,
    close: string,
    itemLimit: number,
    itemChars: number,
    valueChars: number,
  ): void {
    const count = items.length;
    const shown = Math.min(count, itemLimit);
    chargeWalk(1);
    let elided = "";
    if (shown < count) {
      this.truncated = true;
      elided = ` (${shown}/${count})`;
    }
    this.emit(open);
    this.stack.push({
      items,
      isMap,
      slots: isMap ? 2 * shown : shown,
      next: 0,
      close: shown < count ? ` ...${close}` : close,
      elided,
      itemChars,
      valueChars,
    });
  }

  /** Prints `value` with strings cut at `maxChars`; collections are opened and printed by `run`. */
  private value(value: unknown, maxChars: number): void {
    if (typeof value === "string") {
      this.string(value, maxChars);
      return;
    }
    if (typeof value !== "object" || value === null) {
      this.emit(this.scalar(value));
      return;
    }
    if (Array.isArray(value)) {
      this.open(value, false, "[", "]", this.maxItems, maxChars, maxChars);
      return;
    }
    if (value instanceof LispSet) {
      this.open(value.members(), false, "#{", "}", this.maxItems, maxChars, maxChars);
      return;
    }
    if (value instanceof LispMap || isPlainObject(value)) {
      const entries = mapEntries(value);
      // With a character budget, a map shows fewer entries (about 30 characters each) and shares
      // the budget among its values (about 10 characters of overhead per entry, at least 10 per
      // value), as the reference's preview does, so one wide map cannot crowd out the rest.
      let itemLimit = this.maxItems;
      let valueChars = maxChars;
      if (Number.isFinite(maxChars)) {
        itemLimit = Math.min(itemLimit, Math.max(Math.floor(maxChars / 30), 1));
        const n = Math.min(entries.length, itemLimit);
        if (n > 0) valueChars = Math.max(Math.floor(Math.max(maxChars - n * 10, 0) / n), 10);
      }
      this.open(entries as unknown as readonly unknown[], true, "{", "}", itemLimit, maxChars, valueChars);
      return;
    }
    this.emit(this.scalar(value));
  }

  /** Prints a whole value, stopping once the text passes the limit. */
  print(root: unknown, maxChars: number): void {
    this.value(root, maxChars);
    const stack = this.stack;
    while (stack.length > 0 && !this.full) {
      const frame = stack[stack.length - 1] as Frame;
      const slot = frame.next;
      if (slot >= frame.slots) {
        stack.pop();
        this.emit(frame.close);
        if (frame.elided !== "") this.emit(frame.elided);
        continue;
      }
      frame.next = slot + 1;
      if (slot > 0) this.emit(" ");
      if (frame.isMap) {
        const entry = frame.items[slot >> 1] as readonly [unknown, unknown];
        if ((slot & 1) === 0) this.value(entry[0], frame.itemChars);
        else this.value(entry[1], frame.valueChars);
      } else this.value(frame.items[slot], frame.itemChars);
    }
  }
}

function cut(text: string, maxChars: number | undefined): string {
  if (maxChars === undefined || text.length <= maxChars) return text;
  return `${headOf(text, maxChars)}...`;
}

interface Printed {
  readonly text: string;
  /** Some cap cut something. */
  readonly truncated: boolean;
  /** The text passed `maxChars` and was cut there. */
  readonly cut: boolean;
}

function printed(value: unknown, options: PrintOptions): Printed {
  const limit = options.maxChars ?? Number.POSITIVE_INFINITY;
  const longText = typeof value === "string" && value.length > TEXT_SLICE;
  if (!longText && (typeof value !== "object" || value === null || !isCollection(value))) {
    // Scalars and strings, the most printed values, need no walk (a long text takes the printer,
    // which escapes it a slice at a time).
    const shown =
      typeof value === "string"
        ? quotedWithin(value, options.maxStringChars ?? Number.POSITIVE_INFINITY)
        : { text: scalarText(value, options.floats ?? "full"), truncated: false };
    if (options.chargeText === true) chargeText(shown.text.length);
    if (shown.text.length > limit) return { text: cut(shown.text, limit), truncated: true, cut: true };
    return { text: shown.text, truncated: shown.truncated, cut: false };
  }
  const printer = new Printer(
    options.floats ?? "full",
    options.maxItems ?? Number.POSITIVE_INFINITY,
    limit,
    options.chargeText === true,
  );
  printer.print(value, options.maxStringChars ?? Number.POSITIVE_INFINITY);
  const text = printer.text();
  if (printer.full) return { text: cut(text, limit), truncated: true, cut: true };
  return { text, truncated: printer.truncated, cut: false };
}

/** Clojure text of a value. */
export function print(value: unknown, options: PrintOptions = {}): string {
  if (options.bareStrings && typeof value === "string") return cut(value, options.maxChars);
  if (options.bareStrings && value instanceof CustomValue) return cut(value.text(), options.maxChars);
  if (typeof value === "number" && Number.isInteger(value)) return cut(String(value), options.maxChars);
  return printed(value, options).text;
}

/** Clojure text, whether any cap cut something, and whether the text cap did. */
export function printWithTruncation(value: unknown, options: PrintOptions): Printed {
  if (options.bareStrings && typeof value === "string") {
    const text = cut(value, options.maxChars);
    return { text, truncated: text !== value, cut: text !== value };
  }
  return printed(value, options);
}
