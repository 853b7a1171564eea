/**
 * The public printing API: readable text, and a bounded preview for a model to read. Both are
 * bounded whatever the value: a value with shared structure can stand for more text than memory
 * holds, so the text stops at a cap and says so.
 */
import { HOST_WALK_NODES, hostWalk } from "../values/walk-meter.js";
import { type PrintOptions, printWithTruncation } from "./print.js";

/** Characters `format` produces at most, unless told otherwise. */
export const FORMAT_MAX_CHARS = 10_000_000;

export interface FormatOptions extends Pick<PrintOptions, "floats"> {
  /**
   * Longest text returned (default 10,000,000 characters). Past it the walk stops and the text
   * ends with `... (cut at N characters)`. Raise it for values you trust to be that large.
   */
  readonly maxChars?: number;
}

/** Readable Clojure/EDN text of a value: sorted map keys, `#{}` sets, `##Inf`, `#'var`, escaped strings. */
export function format(value: unknown, options: FormatOptions = {}): string {
  const maxChars = options.maxChars ?? FORMAT_MAX_CHARS;
  const printOptions: PrintOptions =
    options.floats === undefined ? { maxChars } : { floats: options.floats, maxChars };
  // The printer's own walk is bounded by the text cap (a node prints at least one character);
  // the node budget is for what printing asks on the way (ordering map keys, set members).
  const shown = hostWalk(() => printWithTruncation(value, printOptions), HOST_WALK_NODES + 2 * maxChars, [
    value,
  ]);
  return shown.cut ? `${shown.text} (cut at ${maxChars} characters)` : shown.text;
}

export interface PreviewOptions {
  /**
   * Character budget for strings (each string longer than this is cut to it and marked
   * `"abc..." (n/total chars)`); maps share it among their values. Default 250.
   */
  readonly maxChars?: number;
  /** Items shown per collection before `... (shown/total)`. Default 50. */
  readonly maxItems?: number;
  /**
   * Longest preview text (default 100,000 characters); past it the walk stops and the text ends
   * with `...`. Callers that need a tighter cap cut the text and add their own marker.
   */
  readonly maxTotalChars?: number;
}

export interface Preview {
  readonly text: string;
  /** True when any cap cut something. */
  readonly truncated: boolean;
}

/** What a model sees of a value: compact floats, capped collections and strings. */
export function preview(value: unknown, options: PreviewOptions = {}): Preview {
  const maxTotalChars = options.maxTotalChars ?? 100_000;
  const shown = hostWalk(
    () =>
      printWithTruncation(value, {
        floats: "compact",
        maxItems: options.maxItems ?? 50,
        maxStringChars: options.maxChars ?? 250,
        maxChars: maxTotalChars,
      }),
    HOST_WALK_NODES + 2 * maxTotalChars,
    [value],
  );
  return { text: shown.text, truncated: shown.truncated };
}
