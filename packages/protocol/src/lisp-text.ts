/**
 * Value previews in Clojure syntax for the model. With value-shape.ts, the only modules that reach
 * into @ptc/lisp: every other renderer works without the language.
 */
import { format, preview } from "@ptc/lisp";
import { truncateChars } from "./truncate.js";

/** Items shown per collection before a preview elides the rest. */
export const PREVIEW_MAX_ITEMS = 50;

/**
 * A Clojure preview of at most `maxChars` characters plus the cut marker. @ptc/lisp caps items and
 * each string; the whole text is capped here, with the marker that tells the model what to do.
 */
export function previewValue(value: unknown, maxChars: number): { text: string; truncated: boolean } {
  const shown = preview(value, { maxChars, maxItems: PREVIEW_MAX_ITEMS });
  const cut = truncateChars(shown.text, maxChars);
  if (!cut.truncated) return { text: shown.text, truncated: shown.truncated };
  return {
    text: `${cut.text} ... (truncated at ${maxChars} chars; use println on specific fields)`,
    truncated: true,
  };
}

/** The full Clojure text of a value. */
export function formatValue(value: unknown): string {
  return format(value);
}
