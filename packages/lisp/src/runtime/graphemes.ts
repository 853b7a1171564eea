/**
 * Strings count, index and split by grapheme (what a person sees as one character: "👍🏽" is one),
 * as in the reference. Plain ASCII, the common case, takes a fast path with no segmenter.
 */
const segmenter: Intl.Segmenter | undefined =
  typeof Intl !== "undefined" && typeof Intl.Segmenter === "function"
    ? new Intl.Segmenter(undefined, { granularity: "grapheme" })
    : undefined;

/** True when every code unit is ASCII (then code units are graphemes, CRLF aside). */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

function asciiSimple(text: string): boolean {
  return isAscii(text) && !text.includes("\r\n");
}

export function graphemes(text: string): string[] {
  if (asciiSimple(text)) return text.split("");
  if (segmenter === undefined) return Array.from(text);
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) out.push(segment);
  return out;
}

export function graphemeCount(text: string): number {
  if (asciiSimple(text)) return text.length;
  if (segmenter === undefined) return Array.from(text).length;
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
}
