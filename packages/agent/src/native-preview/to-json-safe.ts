/**
 * Rows as the model will read them: any value made into plain JSON, the way `JSON.stringify`
 * would see it, but total. Dates become ISO-8601 text (the model reads text, and the spec wants
 * temporal values as ISO strings), and what JSON would reject or silently drop becomes something
 * visible instead of an exception.
 *
 * It must never throw and never mutate the rows it reads: they are the cached full result.
 */
import { defineOwn, isPlainObject } from "./plain-object.js";
import type { JsonValue } from "./preview-types.js";

/**
 * - strings, booleans, null and finite numbers: unchanged (`-0` becomes `0`);
 * - NaN and infinities, undefined, functions and symbols: null;
 * - bigints: their decimal text, as @ptc/lisp's `toJson` renders them, so no digit is lost;
 * - Dates: `toISOString()` (an invalid Date becomes null);
 * - arrays and plain objects: converted element by element;
 * - Maps: objects keyed by the text of each key; Sets: arrays;
 * - other objects: their `toJSON()` when they have one, else their own enumerable fields;
 * - a value that contains itself: null where it recurs, since JSON has no way to say it.
 */
export function toJsonSafe(value: unknown): JsonValue {
  return convert(value, new Set());
}

function convert(value: unknown, ancestors: Set<object>): JsonValue {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case "bigint":
      return value.toString();
    case "undefined":
    case "function":
    case "symbol":
      return null;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) return null;
  ancestors.add(object);
  try {
    return convertObject(object, ancestors);
  } catch {
    // A throwing getter or toJSON: the row stays readable, only this value is lost.
    return null;
  } finally {
    ancestors.delete(object);
  }
}

function convertObject(object: object, ancestors: Set<object>): JsonValue {
  if (Array.isArray(object)) return Array.from(object, (element) => convert(element, ancestors));
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
  if (object instanceof Map) {
    const result: Record<string, JsonValue> = {};
    for (const [key, child] of object) defineOwn(result, keyText(key), convert(child, ancestors));
    return result;
  }
  if (object instanceof Set) return Array.from(object, (member) => convert(member, ancestors));
  if (!isPlainObject(object)) {
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return convert(toJSON.call(object), ancestors);
  }
  const result: Record<string, JsonValue> = {};
  for (const key of Object.keys(object)) {
    defineOwn(result, key, convert((object as Record<string, unknown>)[key], ancestors));
  }
  return result;
}

function keyText(key: unknown): string {
  return typeof key === "string" ? key : String(key);
}
