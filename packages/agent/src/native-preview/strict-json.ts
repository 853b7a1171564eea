/**
 * The encodability check for custom previews. A custom preview is the user's promise of JSON;
 * when the promise is broken the builder falls back to metadata rather than sending the model a
 * silently mangled object, so this check is strict where `to-json-safe.ts` is lenient.
 *
 * It never throws and never mutates its input.
 */
import { defineOwn, isPlainObject } from "../json/plain-object.js";
import type { JsonValue } from "./preview-types.js";

export type StrictJsonResult = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false };

/**
 * Accepted: strings, booleans, null, finite numbers, valid Dates (as ISO text, the way a JSON
 * encoder writes them), arrays and plain objects of those. `undefined` is accepted as null, since
 * `{ top: rows[0]?.score }` on an empty result is a normal thing to write.
 *
 * Rejected, because `JSON.stringify` would throw on them or quietly change them: functions,
 * symbols, bigints, NaN and infinities, invalid Dates, Maps, Sets, other class instances and
 * values that contain themselves.
 */
export function toStrictJson(value: unknown): StrictJsonResult {
  try {
    return { ok: true, value: convert(value, new Set()) };
  } catch {
    return { ok: false };
  }
}

/** Thrown internally to unwind from any depth; never escapes this module. */
class NotEncodable extends Error {}

function convert(value: unknown, ancestors: Set<object>): JsonValue {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new NotEncodable();
      return value === 0 ? 0 : value;
    case "undefined":
      return null;
    case "bigint":
    case "function":
    case "symbol":
      throw new NotEncodable();
  }
  if (value === null) return null;
  const object = value as object;
  if (object instanceof Date) {
    if (Number.isNaN(object.getTime())) throw new NotEncodable();
    return object.toISOString();
  }
  // Only the current path counts: the same object may appear twice side by side without a cycle.
  if (ancestors.has(object)) throw new NotEncodable();
  ancestors.add(object);
  try {
    if (Array.isArray(object)) return Array.from(object, (element) => convert(element, ancestors));
    if (!isPlainObject(object)) throw new NotEncodable();
    const result: Record<string, JsonValue> = {};
    for (const key of Object.keys(object)) defineOwn(result, key, convert(object[key], ancestors));
    return result;
  } finally {
    ancestors.delete(object);
  }
}
