/** Native result previews for combined mode: the builder, its cache hint, and their types. */
export { buildNativePreview } from "./build-native-preview.js";
export { cacheHint } from "./cache-hint.js";
export type {
  JsonObject,
  JsonValue,
  NativePreviewFallback,
  NativePreviewOptions,
  NativePreviewResult,
} from "./preview-types.js";
