/**
 * The custom preview: a user function turns the full result into the object the model sees.
 * User code may fail in any way, and a failed preview must not fail the tool call, so every
 * failure is classified and reported to the caller, which shows the metadata
 * preview instead. Nothing here throws.
 */
import type { NativePreviewFunction } from "@ptc/tool";
import { defineOwn, isPlainObject } from "../json/plain-object.js";
import type { JsonValue, NativePreviewFallback } from "./preview-types.js";
import { toStrictJson } from "./strict-json.js";

export type CustomPreviewOutcome =
  | { readonly ok: true; readonly fields: Record<string, JsonValue> }
  | { readonly ok: false; readonly fallback: "raised"; readonly error: unknown }
  | { readonly ok: false; readonly fallback: Exclude<NativePreviewFallback, "raised"> };

/**
 * `overridden` names the universal fields: their values in the custom object are replaced
 * anyway, so they must not decide whether the object is encodable.
 */
export function runCustomPreview(
  preview: NativePreviewFunction,
  fullResult: unknown,
  overridden: ReadonlySet<string>,
): CustomPreviewOutcome {
  let returned: unknown;
  try {
    // Only the result: a preview that needs the arguments or the tool name closes over them.
    returned = preview(fullResult);
  } catch (error) {
    return { ok: false, fallback: "raised", error };
  }
  if (!isPlainObject(returned)) return { ok: false, fallback: "non_map" };
  const kept: Record<string, unknown> = {};
  try {
    for (const key of Object.keys(returned)) {
      if (!overridden.has(key)) defineOwn(kept, key, returned[key]);
    }
  } catch (error) {
    // A getter on the returned object threw: the function's own code failed, just later.
    return { ok: false, fallback: "raised", error };
  }
  const encoded = toStrictJson(kept);
  if (!encoded.ok) return { ok: false, fallback: "non_encodable" };
  return { ok: true, fields: encoded.value as Record<string, JsonValue> };
}
