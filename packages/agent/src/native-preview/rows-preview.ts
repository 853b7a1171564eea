/**
 * The rows preview: the first rows of a list result verbatim (made JSON-safe), with the full
 * count and the schema of what is shown. It deliberately exposes data, so it is opt-in
 * (`nativeResult: { preview: "rows" }`); a result that is not a list has no rows and gets the
 * metadata preview instead.
 */

import { toJsonSafe } from "../json/to-json-safe.js";
import { listShape, metadataFields } from "./metadata-preview.js";
import type { JsonValue } from "./preview-types.js";

export const DEFAULT_ROW_LIMIT = 20;

export function rowsFields(result: unknown, limit: number): Record<string, JsonValue> {
  if (!Array.isArray(result)) return metadataFields(result);
  const rows = Array.from(result.slice(0, limit), toJsonSafe);
  // Described from the converted rows so the schema matches what the model reads (a Date row
  // value is reported, and shown, as a string).
  const shape = listShape(rows);
  const fields: Record<string, JsonValue> = { rows, result_count: result.length, schema: shape.schema };
  return shape.sampleKeys === undefined ? fields : { ...fields, sample_keys: shape.sampleKeys };
}

/** A configured limit, or the default when it is not a usable row count. */
export function rowLimit(limit: unknown): number {
  return typeof limit === "number" && Number.isInteger(limit) && limit >= 0 ? limit : DEFAULT_ROW_LIMIT;
}
