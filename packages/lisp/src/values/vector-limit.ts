/**
 * The most items a vector may hold, whatever the memory budget. A vector is a JS array, and V8
 * cannot give an array more than about 134 million slots: an array that grows one `push` at a
 * time past that (its backing store grows by half again each time, so the abort comes near 112
 * million) ends the whole process with "Fatal JavaScript invalid size error", which no `catch`
 * sees. The memory budget alone does not keep a program short of that once a host raises it past
 * about 0.9 GB (8 bytes a slot), so every builder of a vector whose length no input bounds (`for`,
 * `mapcat`, `flatten`, `range`, the matches of a regex...) stops at this length with
 * `memory_exceeded`, as texts stop at MAX_TEXT_LENGTH (text-limit.ts).
 */
import { LispError } from "../errors.js";

/** Half of V8's largest array: room for the copy a concatenation or a growing `push` makes. */
export const MAX_VECTOR_LENGTH = 2 ** 26;

/**
 * The cap in force. Only tests lower it, to reach it without building 2^26 items (as
 * promotionPolicy's threshold is lowered in compiler/promotion.ts).
 */
export const vectorPolicy: { maxLength: number } = { maxLength: MAX_VECTOR_LENGTH };

/** The error for a vector of `length` items, past the cap. */
export function vectorTooLongError(length: number): LispError {
  return new LispError(
    "memory_exceeded",
    `the program built a vector of ${length} items, more than the ${vectorPolicy.maxLength} a vector may hold. Build less: take a part of it (take, first), or count and aggregate (count, reduce) instead of building it`,
  );
}

/** Throws vectorTooLongError when a vector of `length` items would be too long. */
export function checkVectorLength(length: number): void {
  if (length > vectorPolicy.maxLength) throw vectorTooLongError(length);
}
