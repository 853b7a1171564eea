/** The public printing API: readable text, and a bounded preview for a model to read. */
import { type PrintOptions, print, printWithTruncation } from "./print.js";

/** Readable Clojure/EDN text of a value: sorted map keys, `#{}` sets, `##Inf`, `#'var`, escaped strings. */
export function format(value: unknown, options: Pick<PrintOptions, "floats"> = {}): string {
  return print(value, options);
}

export interface PreviewOptions {
  /**
   * Character budget for strings (each string longer than this is cut to it and marked
   * `"abc..." (n/total chars)`); maps share it among their values. Default 250. The preview as a
   * whole is not cut: callers that need a hard cap cut the text and add their own marker.
   */
  readonly maxChars?: number;
  /** Items shown per collection before `... (shown/total)`. Default 50. */
  readonly maxItems?: number;
}

export interface Preview {
  readonly text: string;
  /** True when any cap cut something. */
  readonly truncated: boolean;
}

/** What a model sees of a value: compact floats, capped collections and strings. */
export function preview(value: unknown, options: PreviewOptions = {}): Preview {
  return printWithTruncation(value, {
    floats: "compact",
    maxItems: options.maxItems ?? 50,
    maxStringChars: options.maxChars ?? 250,
  });
}
