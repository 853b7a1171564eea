/**
 * Cutting text to a bound without splitting a character. A JavaScript string counts UTF-16
 * units, and an emoji takes two (a surrogate pair): a cut at a fixed length can keep the first
 * half alone. Every request is made well-formed before a model sees it (loop/well-formed-request.ts),
 * so such a half would reach the model as U+FFFD, a character that was never in the text; a cut
 * that would fall inside a pair falls just before it instead.
 */

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The first `limit` UTF-16 units of `text`, one fewer when the last would be a pair's first half. */
export function headOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const splitsPair =
    limit > 0 && isHighSurrogate(text.charCodeAt(limit - 1)) && isLowSurrogate(text.charCodeAt(limit));
  return text.slice(0, splitsPair ? limit - 1 : limit);
}
