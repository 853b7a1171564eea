/**
 * The native result preview of combined mode: what a native call of an
 * `expose: "both", cache: true` tool returns to the model in place of the full result, which
 * stays in the run's cache for `lisp_eval` programs.
 *
 * A pure function of the tool, the result and the arguments. It never throws and never calls
 * the tool; a failing custom preview degrades to the metadata preview and is reported through
 * `fallback` so the caller can log it (docs/combined-mode.md; the reference logs
 * `custom native_result preview for tool "<name>" fell back to metadata: category=<c>`).
 */
import type { Tool } from "@ptc/tool";
import { defineOwn } from "../json/plain-object.js";
import { cacheHint, tooLargeHint } from "./cache-hint.js";
import { runCustomPreview } from "./custom-preview.js";
import { metadataFields } from "./metadata-preview.js";
import type { JsonObject, JsonValue, NativePreviewOptions, NativePreviewResult } from "./preview-types.js";
import { rowLimit, rowsFields } from "./rows-preview.js";

/** The fields every preview carries; they override same-named fields of any preview. */
const UNIVERSAL_KEYS: ReadonlySet<string> = new Set(["status", "full_result_cached", "cache_hint"]);

export function buildNativePreview(
  tool: Pick<Tool, "name" | "nativeResult">,
  fullResult: unknown,
  args: unknown,
  options: NativePreviewOptions = {},
): NativePreviewResult {
  const cached = options.cached !== false;
  const hint = cached ? cacheHint(tool.name, args) : tooLargeHint(tool.name, args, options);
  const universal = { status: "ok", full_result_cached: cached, cache_hint: hint };
  const preview = tool.nativeResult?.preview;

  if (typeof preview === "function") {
    const outcome = runCustomPreview(preview, fullResult, UNIVERSAL_KEYS);
    if (outcome.ok) return { preview: merge(outcome.fields, universal) };
    const fallbackPreview = merge(safeMetadataFields(fullResult), universal);
    return outcome.fallback === "raised"
      ? { preview: fallbackPreview, fallback: "raised", error: outcome.error }
      : { preview: fallbackPreview, fallback: outcome.fallback };
  }
  if (preview === "rows") {
    return {
      preview: merge(
        safeFields(() => rowsFields(fullResult, rowLimit(tool.nativeResult?.limit))),
        universal,
      ),
    };
  }
  // "metadata", no nativeResult at all, or a setting this version does not know.
  return { preview: merge(safeMetadataFields(fullResult), universal) };
}

function safeMetadataFields(fullResult: unknown): Record<string, JsonValue> {
  return safeFields(() => metadataFields(fullResult));
}

/**
 * Inspecting a hostile result (a Proxy, a throwing getter) can throw. The preview is still owed
 * to the model, so it then carries only the universal fields.
 */
function safeFields(build: () => Record<string, JsonValue>): Record<string, JsonValue> {
  try {
    return build();
  } catch {
    return {};
  }
}

/** `status` first, as in the reference transcript (docs/combined-mode.md); universal values win over preview values. */
function merge(fields: Record<string, JsonValue>, universal: Record<string, JsonValue>): JsonObject {
  const result: Record<string, JsonValue> = { status: "ok" };
  for (const key of Object.keys(fields)) defineOwn(result, key, fields[key]);
  for (const key of Object.keys(universal)) defineOwn(result, key, universal[key]);
  return result;
}
