/**
 * Splitting a text at a literal separator, counting and replacing its occurrences, in pieces: for
 * `split`, `split-lines` and `replace` with a string pattern. A native `split` or `join` of a long
 * text is one call the run's clock cannot interrupt (a 10 MB text with millions of separators
 * takes a good part of a second, a 100 MB one seconds), so a long text is walked occurrence by
 * occurrence, charging the clock every few thousand, and only short texts take the native path.
 *
 * The loops find occurrences left to right, each search starting after the previous occurrence,
 * exactly as `String.prototype.split` does, so both paths give the same pieces.
 */
import { active } from "../../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../../runtime/interruptible.js";
import { checkVectorLength, vectorPolicy, vectorTooLongError } from "../../values/vector-limit.js";

/** Texts up to this many code units take the native path: well under a millisecond. */
const LONG_TEXT = 65536;

/**
 * The pieces of `text` between occurrences of `separator` (not empty), as `text.split` gives them.
 * They are a vector, so no more than the vector cap (values/vector-limit.ts): a text may hold four
 * times as many separators as a vector may hold items.
 */
export function splitText(text: string, separator: string): string[] {
  if (text.length <= LONG_TEXT) {
    const pieces = text.split(separator);
    checkVectorLength(pieces.length);
    return pieces;
  }
  const out: string[] = [];
  const cap = vectorPolicy.maxLength;
  let from = 0;
  for (let at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, from)) {
    // The last piece, after the loop, makes one more.
    if (out.length >= cap) throw vectorTooLongError(out.length + 1);
    out.push(text.slice(from, at));
    from = at + separator.length;
    if ((out.length & CHECK_MASK) === 0) active.work(CHECK_EVERY);
  }
  checkVectorLength(out.length + 1);
  out.push(text.slice(from));
  return out;
}

/** Lines of `text`, split at \n or \r\n, as `text.split(/\r?\n/)` gives them (see splitText). */
export function splitLineText(text: string): string[] {
  if (text.length <= LONG_TEXT) {
    const lines = text.split(/\r?\n/);
    checkVectorLength(lines.length);
    return lines;
  }
  const lines = splitText(text, "\n");
  // Every piece but the last ended at a \n: a \r just before it was part of the separator.
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i] as string;
    if (line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return lines;
}

/** Occurrences of `pattern` (not empty) in `text`, non-overlapping, left to right. */
export function countOccurrences(text: string, pattern: string): number {
  let count = 0;
  for (let at = text.indexOf(pattern); at >= 0; at = text.indexOf(pattern, at + pattern.length)) {
    if ((++count & CHECK_MASK) === 0) active.work(CHECK_EVERY);
  }
  return count;
}

/** `text` with every occurrence of `pattern` (not empty) replaced by `by`, taken literally. */
export function replaceText(text: string, pattern: string, by: string): string {
  if (text.length <= LONG_TEXT) return text.split(pattern).join(by);
  // Pieces are joined a chunk at a time, each chunk one native join of a bounded size.
  const chunks: string[] = [];
  let pieces: string[] = [];
  let from = 0;
  for (let at = text.indexOf(pattern); at >= 0; at = text.indexOf(pattern, from)) {
    pieces.push(text.slice(from, at));
    from = at + pattern.length;
    if (pieces.length === CHECK_EVERY) {
      chunks.push(pieces.join(by));
      pieces = [];
      active.work(CHECK_EVERY);
    }
  }
  pieces.push(text.slice(from));
  chunks.push(pieces.join(by));
  return chunks.join(by);
}
