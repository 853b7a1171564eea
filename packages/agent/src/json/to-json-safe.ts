/**
 * Any value as JSON data, total: what the agent hands the host (the step, chat state, transcript
 * lines, event payloads) and what a rows preview shows the model. `JSON.stringify` of the result
 * never throws, and parsing that text gives the same data back.
 *
 * - strings, booleans, null and finite numbers: unchanged (`-0` becomes `0`);
 * - NaN, infinities, undefined, functions and symbols: null;
 * - bigints: their decimal text, as @ptc/lisp's `toJson` writes them, so no digit is lost;
 * - Dates: `toISOString()` (an invalid Date becomes null);
 * - arrays and plain objects: converted element by element;
 * - Maps: objects keyed by the text of each key; Sets: arrays;
 * - other objects: their `toJSON()` when they have one (PTC-Lisp values do), else their own
 *   enumerable fields, as `JSON.stringify` reads them;
 * - a value that contains itself: null where it recurs, since JSON has no way to say it;
 * - what cannot be read (a getter or `toJSON` that throws, a revoked proxy): null in its place,
 *   the rest of the value stays readable;
 * - nesting deeper than 1,000 levels: null below that depth (`JSON.stringify` itself overflows
 *   the stack somewhere past it).
 *
 * Data that is already JSON comes back as the same objects, never copied; only the parts that
 * need converting are new. A value shared by several places is converted once, so a value with
 * much shared structure costs what its distinct parts cost. The input is never mutated.
 */
import type { JsonValue } from "@ptc/tool";
import { defineOwn, isPlainObject } from "./plain-object.js";

/** Levels of nesting kept; deeper values become null. */
export const MAX_JSON_DEPTH = 1000;

export function toJsonSafe(value: unknown): JsonValue {
  return createJsonSafe()(value);
}

/**
 * A converter that remembers what it converted, for several values that share parts (a step's
 * tool calls, turns and cache hold the same results): each shared part is converted once.
 */
export function createJsonSafe(): (value: unknown) => JsonValue {
  const done = new WeakMap<object, JsonValue>();
  return (value) => convert(value, new Set(), done, 0);
}

function convert(
  value: unknown,
  ancestors: Set<object>,
  done: WeakMap<object, JsonValue>,
  depth: number,
): JsonValue {
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
  const known = done.get(object);
  if (known !== undefined) return known;
  if (ancestors.has(object) || depth >= MAX_JSON_DEPTH) return null;
  ancestors.add(object);
  let result: JsonValue;
  try {
    result = convertObject(object, ancestors, done, depth + 1);
  } catch {
    // A revoked proxy, or an object that throws when asked what it is.
    result = null;
  } finally {
    ancestors.delete(object);
  }
  done.set(object, result);
  return result;
}

function convertObject(
  object: object,
  ancestors: Set<object>,
  done: WeakMap<object, JsonValue>,
  depth: number,
): JsonValue {
  const child = (item: unknown): JsonValue => convert(item, ancestors, done, depth);
  if (Array.isArray(object)) {
    let copy: JsonValue[] | undefined;
    for (let index = 0; index < object.length; index++) {
      const item = readSafely(() => object[index]);
      const converted = item.ok ? child(item.value) : null;
      if (copy === undefined && (!item.ok || converted !== item.value)) {
        copy = object.slice(0, index) as JsonValue[];
      }
      copy?.push(converted);
    }
    return copy ?? (object as JsonValue[]);
  }
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
  if (object instanceof Map) {
    const result: Record<string, JsonValue> = {};
    for (const [key, item] of object) defineOwn(result, keyText(key), child(item));
    return result;
  }
  if (object instanceof Set) return Array.from(object, child);
  const plain = isPlainObject(object);
  if (!plain) {
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return child(toJSON.call(object));
  }
  const keys = Object.keys(object);
  const values: JsonValue[] = [];
  let changed = !plain;
  for (const key of keys) {
    const item = readSafely(() => (object as Record<string, unknown>)[key]);
    const converted = item.ok ? child(item.value) : null;
    changed ||= !item.ok || converted !== item.value;
    values.push(converted);
  }
  if (!changed) return object as Record<string, JsonValue>;
  const copy: Record<string, JsonValue> = {};
  for (const [index, key] of keys.entries()) defineOwn(copy, key, values[index] as JsonValue);
  return copy;
}

type Read = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly value?: never };

/** A property read that a throwing getter cannot break: only that property is lost. */
function readSafely(read: () => unknown): Read {
  try {
    return { ok: true, value: read() };
  } catch {
    return { ok: false };
  }
}

function keyText(key: unknown): string {
  if (typeof key === "string") return key;
  try {
    return String(key);
  } catch {
    return Object.prototype.toString.call(key);
  }
}
