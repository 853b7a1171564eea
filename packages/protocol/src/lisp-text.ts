/**
 * The only module that reaches into @ptc/lisp: value previews in Clojure syntax for the model.
 * Keeping it here means every other renderer works without the language.
 */
import { format, preview } from "@ptc/lisp";

/** Items shown per collection before a preview elides the rest. */
export const PREVIEW_MAX_ITEMS = 50;

/** A bounded Clojure preview; `truncated` when items or characters were cut. */
export function previewValue(value: unknown, maxChars: number): { text: string; truncated: boolean } {
  return preview(value, { maxChars, maxItems: PREVIEW_MAX_ITEMS });
}

/** The full Clojure text of a value. */
export function formatValue(value: unknown): string {
  return format(value);
}
