/**
 * The vocabulary of native result previews: what a combined-mode native tool call returns to the
 * model instead of the tool's full result. Types only; the builder lives in build-native-preview.ts.
 */
import type { JsonValue } from "@ptc/tool";

export type { JsonValue };

/** A JSON object: the shape every preview has, so a caller can `JSON.stringify` it as is. */
export type JsonObject = Readonly<Record<string, JsonValue>>;

/**
 * Why a custom preview function was replaced by the metadata preview: it threw (`raised`), it
 * returned something other than a plain object (`non_map`), or its object holds a value JSON
 * cannot carry faithfully (`non_encodable`).
 */
export type NativePreviewFallback = "raised" | "non_map" | "non_encodable";

export interface NativePreviewOptions {
  /**
   * False when the full result was too large to keep in the run's cache: the preview then says
   * so, and that calling the tool from a program runs it again. Default true.
   */
  readonly cached?: boolean | undefined;
  /** Size of the full result, for the "too large" hint. */
  readonly tooLargeBytes?: number | undefined;
  /** The cache's per-entry size limit, for the "too large" hint. */
  readonly limitBytes?: number | undefined;
}

export interface NativePreviewResult {
  /** The JSON object the model sees as the tool call's result. */
  readonly preview: JsonObject;
  /** Set when a custom preview failed and the metadata preview stands in for it. */
  readonly fallback?: NativePreviewFallback;
  /** What the custom preview function threw; present only with `fallback: "raised"`. */
  readonly error?: unknown;
}
