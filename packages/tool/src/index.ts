export { canonicalCacheKey, canonicalizeArgs } from "./cache-key.js";
export {
  type AnyToolDefinition,
  createTool,
  createTools,
  isTool,
  TOOL_DEFINITION_KEYS,
  type ToolFrom,
} from "./create-tool.js";
export {
  isToolError,
  type JsonValue,
  ToolError,
  type ToolErrorCode,
  type ToolErrorOptions,
} from "./errors.js";
export {
  type AgentOutput,
  defaultExpose,
  type Exposable,
  type ExposeMode,
  effectiveExpose,
  filterByExpose,
  orderedTools,
  type PtcTransport,
} from "./exposure.js";
export { normalizeKey, normalizeKeys } from "./key-normalizer.js";
export { describeUnknownKeys, findUnknownKeys, type UnknownKey } from "./known-keys.js";
export {
  type NativeToolSchema,
  resolveToolName,
  sanitizeToolName,
  toNativeToolSchema,
} from "./native-tool-schema.js";
export { nearestName } from "./nearest-name.js";
export { coerceValue, parseIsoDatetime } from "./signature/coerce.js";
export { type FinalAnswerResult, parseFinalAnswer } from "./signature/final-answer.js";
export {
  type FromJsonSchemaOptions,
  type FromJsonSchemaResult,
  fromJsonSchema,
  type JsonSchema,
  parametersJsonSchema,
  returnsList,
  signatureToJsonSchema,
  typeToJsonSchema,
} from "./signature/json-schema.js";
export { type ParseSignatureResult, parseSignature } from "./signature/parse.js";
export { type RenderTypeOptions, renderSignature, renderType, toLispKey } from "./signature/render.js";
export type {
  ListType,
  MapType,
  OptionalType,
  PrimitiveType,
  Signature,
  SignatureField,
  SignatureType,
} from "./signature/types.js";
export {
  findFieldKey,
  formatValidationErrors,
  type ValidationIssue,
  type ValidationPath,
  type ValidationResult,
  validateInput,
  validateReturn,
  validateType,
} from "./signature/validate.js";
export type {
  ExposeLayer,
  NativePreview,
  NativePreviewFunction,
  NativeResultOptions,
  ResolvedNativeResult,
  Tool,
  ToolArgs,
  ToolDefinition,
  ToolExecutionOptions,
  ToolFunction,
  ToolOptions,
} from "./tool-types.js";
export { type ToolArgsValidation, validateToolArgs } from "./validate-args.js";
