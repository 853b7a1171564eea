/**
 * Shared pieces of the sequence and set builtins: argument checks with messages that say what to
 * write instead, the "unordered collection" errors, grapheme access to strings, and the memory
 * charge for a vector a builtin builds. Nothing here calls back into user code.
 */
import { type LispError, typeError } from "../../errors.js";
import { print } from "../../format/print.js";
import { active } from "../../runtime/context.js";
import { typeAndValue } from "../../runtime/describe.js";
import { graphemes, isAscii } from "../../runtime/graphemes.js";
import { LispSet } from "../../values/lisp-set.js";
import { isMap } from "../../values/map-access.js";

// The one definition is in runtime/allocation.ts; re-exported for the builtins that import it here.
export { chargeVector, vectorBytes } from "../../runtime/allocation.js";

/**
 * Charges a copy of `slots` items of an existing vector into a new one (rest, pop, conj...):
 * time and the copy allowance, not the memory budget (see `RunContext.copy`).
 */
export function chargeCopy(slots: number): void {
  active.copy(slots);
}

export function shown(value: unknown): string {
  return print(value, { maxChars: 60 });
}

/** A value for an error message: its type and a short print ("vector [1 2]", "nil"). */
export function described(value: unknown): string {
  return typeAndValue(value);
}

/** `first`, `nth`... on a map: maps have no order a program should rely on. */
export function unorderedMapError(who: string): LispError {
  return typeError(
    `${who} does not support maps (maps are unordered). Use (keys m), (vals m), or (entries m) to get a sorted list`,
  );
}

export function unorderedSetError(who: string): LispError {
  return typeError(
    `${who} does not support sets (sets are unordered). Use (vec s) for its members in a fixed order, or (sort (vec s))`,
  );
}

export function notCollectionError(who: string, value: unknown): LispError {
  return typeError(`${who} expects a collection, got ${described(value)}`);
}

/**
 * The items of an ordered collection: vectors, nil (empty), strings (graphemes). Maps and sets get
 * the "unordered" errors; anything else a type error. Shared arrays: never mutate.
 */
export function orderedItems(value: unknown, who: string): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return EMPTY;
  if (typeof value === "string") return graphemes(value);
  throw unorderedOrNotCollection(who, value);
}

export function unorderedOrNotCollection(who: string, value: unknown): LispError {
  if (value instanceof LispSet) return unorderedSetError(who);
  if (isMap(value)) return unorderedMapError(who);
  return notCollectionError(who, value);
}

export const EMPTY: readonly unknown[] = Object.freeze([]);

/** An integer argument (count, index), as a JS number; bigints become ±Infinity-like extremes. */
export function integerArg(value: unknown, who: string, role: string, usage: string): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "bigint") return value > 0n ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  throw typeError(`${who} expects an integer ${role}, got ${described(value)}; write ${usage}`);
}

/** True when every code unit is ASCII and no CRLF pair occurs: then code units are graphemes. */
function simpleText(text: string): boolean {
  return isAscii(text) && !text.includes("\r\n");
}

/** The grapheme at `index` (negative or past the end: nil). */
export function graphemeAt(text: string, index: number): string | null {
  if (index < 0) return null;
  if (simpleText(text)) return index < text.length ? (text[index] as string) : null;
  const parts = graphemes(text);
  return index < parts.length ? (parts[index] as string) : null;
}

export function lastGrapheme(text: string): string | null {
  if (text.length === 0) return null;
  if (simpleText(text)) return text[text.length - 1] as string;
  const parts = graphemes(text);
  return parts[parts.length - 1] as string;
}
