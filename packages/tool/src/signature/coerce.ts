/**
 * Coercion of a final answer that arrived as JSON into the signature's shape. JSON has no
 * datetime, so ISO-8601 strings with an offset become `Date`s where the signature says
 * `:datetime`; everything else is returned unchanged and left for validation to judge.
 */
import { isPlainObject } from "../describe-value.js";
import { setOwn } from "../own-property.js";
import type { SignatureType } from "./types.js";

// Date and time with seconds and an explicit offset; a naive local time is not a point in time.
const ISO_DATETIME_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})$/i;

export function coerceValue(value: unknown, type: SignatureType | undefined): unknown {
  if (type === undefined) return value;
  if (typeof type === "string") {
    if (type === "datetime" && typeof value === "string") return parseIsoDatetime(value) ?? value;
    return value;
  }
  switch (type.kind) {
    case "optional":
      return coerceValue(value, type.type);
    case "list":
      return Array.isArray(value) ? value.map((element) => coerceValue(element, type.type)) : value;
    case "map": {
      if (!isPlainObject(value)) return value;
      const fieldTypes = new Map(type.fields.map((field) => [field.name, field.type] as const));
      const result: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(value))
        setOwn(result, key, coerceValue(child, fieldTypes.get(key)));
      return result;
    }
  }
}

/** A `Date` for an ISO-8601 date-time with an offset, else undefined. */
export function parseIsoDatetime(text: string): Date | undefined {
  if (!ISO_DATETIME_WITH_OFFSET.test(text)) return undefined;
  const normalized = text.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
  const date = new Date(normalized);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
