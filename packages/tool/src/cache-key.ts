/**
 * Canonical cache keys: one key per (tool, arguments) however the arguments arrived. Native calls
 * (JSON from a provider) and `(tool/name ...)` calls inside programs must meet on the same entry,
 * so string and keyword keys converge, `a-b` and `a_b` converge, key order never matters, and
 * integer-valued numbers collapse (`-0` to `0`; JS already has `1.0 === 1`).
 *
 * The key is fast-json-stable-stringify over a tagged normal form. Values that JSON cannot tell
 * apart (a Map, a Set and `{}`; NaN, Infinity and null; undefined and absence) are wrapped in
 * single-key "tag" objects first. Tag keys contain a hyphen and normalized object keys never do,
 * so no argument object can impersonate a tag.
 *
 * It never mutates its input and never calls a tool.
 */
import stableStringify from "fast-json-stable-stringify";
import { describeValue, isPlainObject } from "./describe-value.js";
import { ToolError } from "./errors.js";
import { normalizeKey } from "./key-normalizer.js";
import { setOwn } from "./own-property.js";

/** The key for a call of `toolName` with `args`. Equal keys mean "the same call". */
export function canonicalCacheKey(toolName: string, args: unknown): string {
  if (typeof toolName !== "string") {
    throw new ToolError(
      "PTC_TOOL_UNKEYABLE_VALUE",
      `tool name must be a string, got ${describeValue(toolName)}`,
    );
  }
  // Non-object arguments are off-spec but must not crash the cache: they get their own
  // namespace, so they can still hit each other but never an object's entry.
  const canonical = isPlainObject(args)
    ? canonicalize(args, new Set())
    : tag("non_map", canonicalize(args, new Set()));
  return stableStringify([toolName, canonical]);
}

/**
 * The JSON-safe normal form behind `canonicalCacheKey`: plain JSON values come out as plain JSON
 * (keys normalized); anything else comes out as a tag object. Exposed for debugging and tests;
 * the tag shapes are not a stable interface.
 */
export function canonicalizeArgs(args: unknown): unknown {
  return canonicalize(args, new Set());
}

function tag(kind: string, value: unknown): Record<string, unknown> {
  return { [`ptc-${kind}`]: value };
}

function canonicalize(value: unknown, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (Number.isFinite(value)) return value === 0 ? 0 : value;
      return tag("number", String(value));
    case "bigint":
      // One integer type in the reference: a bigint equal to a safe number is that number.
      return Number.isSafeInteger(Number(value)) ? Number(value) : tag("bigint", value.toString());
    case "undefined":
      return tag("undefined", true);
    case "symbol":
      return tag("symbol", value.description ?? "");
    case "function":
      return tag("function", value.name);
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) {
    throw new ToolError(
      "PTC_TOOL_UNKEYABLE_VALUE",
      "cannot build a cache key for a value that contains itself",
    );
  }
  ancestors.add(object);
  try {
    return canonicalizeObject(object, ancestors);
  } finally {
    ancestors.delete(object);
  }
}

function canonicalizeObject(object: object, ancestors: Set<object>): unknown {
  if (Array.isArray(object)) return object.map((element) => canonicalize(element, ancestors));
  if (isPlainObject(object)) {
    const result: Record<string, unknown> = {};
    // Sorted so that, when `a-b` and `a_b` collide, the same one wins whatever the insertion order.
    for (const key of Object.keys(object).sort()) {
      setOwn(result, normalizeKey(key), canonicalize(object[key], ancestors));
    }
    return result;
  }
  if (object instanceof Date)
    return tag("date", Number.isNaN(object.getTime()) ? "invalid" : object.toISOString());
  if (object instanceof Map) {
    const entries = [...object.entries()].map(([key, child]) => {
      const canonicalKey = typeof key === "string" ? normalizeKey(key) : canonicalize(key, ancestors);
      return [canonicalKey, canonicalize(child, ancestors)] as const;
    });
    return tag(
      "map",
      sortByKeyText(entries, ([key]) => key),
    );
  }
  if (object instanceof Set) {
    const members = [...object].map((member) => canonicalize(member, ancestors));
    return tag(
      "set",
      sortByKeyText(members, (member) => member),
    );
  }
  // Class instances (keywords, dates of other libraries...) stay distinct from plain data: their
  // JSON form if they define one, else their own fields, under their class name.
  const className = (object as { constructor?: { name?: unknown } }).constructor?.name;
  const label = typeof className === "string" ? className : "Object";
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function")
    return tag("instance", [label, canonicalize(toJSON.call(object), ancestors)]);
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort()) {
    setOwn(fields, key, canonicalize((object as Record<string, unknown>)[key], ancestors));
  }
  return tag("instance", [label, fields]);
}

function sortByKeyText<T>(items: readonly T[], keyOf: (item: T) => unknown): T[] {
  return items
    .map((item) => [stableStringify(keyOf(item)), item] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, item]) => item);
}
