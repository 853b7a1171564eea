/**
 * Turning any collection into a sequence of items, the way every sequence function sees it:
 * vectors as they are, nil as empty, maps as [key value] entries in key order, sets as members,
 * strings as graphemes.
 */
import { LispError } from "../errors.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { mapEntries } from "../values/map-access.js";
import { isPlainObject } from "../values/plain-object.js";
import { typeAndValue } from "./describe.js";
import { graphemes } from "./graphemes.js";

/** Items of a collection, or undefined when the value is not one. Shared arrays: never mutate. */
export function itemsOf(value: unknown): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return EMPTY;
  if (typeof value === "string") return graphemes(value);
  if (value instanceof LispMap || isPlainObject(value))
    return mapEntries(value) as unknown as readonly unknown[];
  if (value instanceof LispSet) return value.members();
  return undefined;
}

const EMPTY: readonly unknown[] = Object.freeze([]);

/** Items of a collection, or a type error naming the function and the offending value. */
export function seqOf(value: unknown, who: string): readonly unknown[] {
  const items = itemsOf(value);
  if (items === undefined) {
    throw new LispError("type_error", `${who} expects a collection, got ${typeAndValue(value)}`);
  }
  return items;
}
