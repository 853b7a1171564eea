/**
 * The metadata preview (the default): a result's shape, never its contents. It is the safe
 * choice for sensitive data, so it must never copy a value out of the result: only counts, key
 * names and type names cross to the model.
 *
 * The table it implements: lists report `result_count` and an array schema whose
 * `items` describe the first element (or the common type of scalar elements); objects report
 * their properties and `sample_keys`; anything else reports just its type.
 */
import { defineOwn, isPlainObject } from "../json/plain-object.js";
import { quotedName } from "../json/quoted-back.js";
import type { JsonValue } from "./preview-types.js";

/** Properties (and sample keys) reported per object before the schema says `truncated`. */
const MAX_PROPERTIES = 20;

/**
 * Elements after the first that must share its keys for a list to count as consistent. Checking
 * a few keeps the preview cheap on huge results while still catching heterogeneous lists.
 */
const CONSISTENCY_WINDOW = 4;

export type TypeName = "integer" | "number" | "string" | "boolean" | "null" | "array" | "object";

/** The schema of a list plus, when its elements are objects with the same keys, those keys. */
export interface ListShape {
  readonly schema: JsonValue;
  readonly sampleKeys?: readonly string[];
}

/** The metadata preview's fields for any result. */
export function metadataFields(result: unknown): Record<string, JsonValue> {
  if (Array.isArray(result)) {
    const shape = listShape(result);
    return withSampleKeys({ result_count: result.length, schema: shape.schema }, shape.sampleKeys);
  }
  if (isPlainObject(result)) return objectFields(result);
  return { schema: { type: typeName(result) } };
}

/** Shared with the rows preview, which describes its sample rather than the whole result. */
export function listShape(list: readonly unknown[]): ListShape {
  if (list.length === 0) return { schema: { type: "array", items: {} } };
  const first = list[0];
  if (isPlainObject(first)) {
    if (!hasConsistentKeys(first, list)) return { schema: { type: "array", items: { type: "object" } } };
    const described = describeProperties(first);
    return {
      schema: { type: "array", items: { type: "object", ...described.schema } },
      sampleKeys: described.keys,
    };
  }
  return { schema: { type: "array", items: { type: commonType(list) } } };
}

/** A JS number is an integer when it has no fraction: JSON cannot tell `1.0` from `1` either. */
export function typeName(value: unknown): TypeName {
  switch (typeof value) {
    case "number":
      return Number.isInteger(value) ? "integer" : "number";
    case "string":
      return "string";
    // Checked by type, not truthiness: the reference's `||` lookup reported `false` as "null" (docs/differences.md).
    case "boolean":
      return "boolean";
    case "undefined":
      return "null";
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (isPlainObject(value)) return "object";
  // Dates, bigints, class instances...: the model will meet them as text once serialized.
  return "string";
}

function objectFields(object: Record<string, unknown>): Record<string, JsonValue> {
  if (Object.keys(object).length === 0) return { schema: { type: "object" }, sample_keys: [] };
  const described = describeProperties(object);
  return { schema: { type: "object", ...described.schema }, sample_keys: described.keys };
}

function withSampleKeys(
  fields: Record<string, JsonValue>,
  sampleKeys: readonly string[] | undefined,
): Record<string, JsonValue> {
  return sampleKeys === undefined ? fields : { ...fields, sample_keys: sampleKeys };
}

/** `properties` (and `truncated` when capped) for an object schema, and the keys shown. */
function describeProperties(object: Record<string, unknown>): {
  schema: Record<string, JsonValue>;
  keys: readonly string[];
} {
  const allKeys = Object.keys(object).sort();
  const shownKeys = allKeys.slice(0, MAX_PROPERTIES);
  const properties: Record<string, JsonValue> = {};
  for (const key of shownKeys) defineOwn(properties, quotedName(key), typeName(object[key]));
  // A key is data too: a result may hold keys 100,000 characters long, and 20 of them twice over.
  const keys = shownKeys.map(quotedName);
  // `truncated` sits inside the schema it qualifies, so a top-level field can never be mistaken
  // for it and the preview's top level stays the same across shapes.
  const schema: Record<string, JsonValue> =
    allKeys.length > MAX_PROPERTIES ? { properties, truncated: true } : { properties };
  return { schema, keys };
}

function hasConsistentKeys(first: Record<string, unknown>, list: readonly unknown[]): boolean {
  const expected = new Set(Object.keys(first));
  const end = Math.min(list.length, 1 + CONSISTENCY_WINDOW);
  for (let index = 1; index < end; index++) {
    const element = list[index];
    if (!isPlainObject(element)) return false;
    const keys = Object.keys(element);
    if (keys.length !== expected.size || !keys.every((key) => expected.has(key))) return false;
  }
  return true;
}

/** The type every element shares, or "any"; unlike consistency, this looks at all of them. */
function commonType(list: readonly unknown[]): TypeName | "any" {
  const first = typeName(list[0]);
  for (let index = 1; index < list.length; index++) {
    if (typeName(list[index]) !== first) return "any";
  }
  return first;
}
