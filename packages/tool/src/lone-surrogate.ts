/**
 * Where a text holds half of a character: a UTF-16 surrogate without its other half. A name with
 * one cannot reach a model intact (a UTF-8 encoder writes U+FFFD in its place, and providers that
 * check Unicode refuse the whole request), so the model could never call it by that name.
 */

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The index of the first lone surrogate in `text`, or -1 when every character is whole. */
export function loneSurrogateIndex(text: string): number {
  const match = LONE_SURROGATE.exec(text);
  return match === null ? -1 : match.index;
}
