/**
 * Small helpers the sequence builtins share: nil for a missing item, the "is it a collection"
 * test behind swapped-argument hints, and fresh vectors (of a string's graphemes, of a slice)
 * charged to the running program. Nothing here calls back into user code.
 */
import { graphemes } from "../../runtime/graphemes.js";
import { LispSet } from "../../values/lisp-set.js";
import { isMap } from "../../values/map-access.js";
import { chargeCopy, chargeVector } from "./seq-common.js";

export function nil(value: unknown): unknown {
  return value === undefined ? null : value;
}

export function isCollection(value: unknown): boolean {
  return Array.isArray(value) || typeof value === "string" || value instanceof LispSet || isMap(value);
}

/** Items of a string, charged as the fresh vector they are. */
export function stringItems(text: string): string[] {
  const items = graphemes(text);
  chargeVector(items.length);
  return items;
}

/** A slice of a vector: a copy of some of its items (see `chargeCopy`). */
export function slice(items: readonly unknown[], start: number, end: number): unknown[] {
  const out = items.slice(start, end);
  chargeCopy(out.length);
  return out;
}
