/**
 * Cutting text for a message or a preview without splitting a character. A JavaScript string is
 * UTF-16: an emoji is two units, a surrogate pair, and a cut at a fixed length can keep the first
 * half alone. Such a lone half is not Unicode: a UTF-8 encoder turns it into U+FFFD, and a
 * provider whose JSON parser checks it refuses the request that carries it (HTTP 400). So a cut
 * that would fall between the two halves falls one unit earlier (or later, for a tail).
 */

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The first `limit` UTF-16 units of `text`, one fewer when the last would be a pair's first half. */
export function headOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const end =
    limit > 0 && isHigh(text.charCodeAt(limit - 1)) && isLow(text.charCodeAt(limit)) ? limit - 1 : limit;
  return text.slice(0, end);
}

/** The last `count` UTF-16 units of `text`, one fewer when the first would be a pair's second half. */
export function tailOf(text: string, count: number): string {
  if (text.length <= count) return text;
  const start = text.length - count;
  return text.slice(isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1)) ? start + 1 : start);
}
