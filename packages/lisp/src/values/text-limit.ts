/**
 * The longest text a program may build, whatever its memory budget. V8 refuses strings past
 * 2^29 - 24 characters, and some of its native paths do not refuse gracefully: a global regex
 * replace over a text with more than 2^27 matches ends the process. A host that lifts the memory
 * budget (`maxMemoryBytes: Infinity`) must still never reach those paths, so every builder of text
 * (`str`, `pr-str`, `format`, `join`, `replace`, JSON, the case functions) stops at this length
 * with `memory_exceeded`, as it stops at the budget.
 *
 * Texts are also escaped and scanned in slices of TEXT_SLICE characters, so that no single
 * native call works on more than that and the clock is read between slices.
 */
import { LispError } from "../errors.js";

/** Half of V8's limit: room for the copy a concatenation or a flattening makes. */
export const MAX_TEXT_LENGTH = 2 ** 28;

/** Characters escaped or scanned by one native call before the clock is read again. */
export const TEXT_SLICE = 65536;

/** The error for a text of `length` characters, past MAX_TEXT_LENGTH. */
export function textTooLongError(length: number): LispError {
  return new LispError(
    "memory_exceeded",
    `the program built a text of ${length} characters, more than the ${MAX_TEXT_LENGTH} a text may hold. Build less text: take a part of it (subs, take), or count and aggregate instead of printing`,
  );
}

/** Throws textTooLongError when a text of `length` characters would be too long. */
export function checkTextLength(length: number): void {
  if (length > MAX_TEXT_LENGTH) throw textTooLongError(length);
}

/**
 * Where a slice of `text` that starts at `start` may end: `size` characters on, or one more so
 * that a surrogate pair is never split (JSON escapes a lone surrogate).
 */
export function sliceEnd(text: string, start: number, size: number = TEXT_SLICE): number {
  let end = Math.min(start + size, text.length);
  if (end < text.length) {
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end++;
  }
  return end;
}
