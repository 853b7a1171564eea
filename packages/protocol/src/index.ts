export {
  buildErrorFeedback,
  DEFAULT_FEEDBACK_MAX_CHARS,
  type ErrorFeedbackOptions,
} from "./error-feedback.js";
export {
  isProtocolError,
  type JsonValue,
  ProtocolError,
  type ProtocolErrorCode,
  type ProtocolErrorOptions,
} from "./errors.js";
export {
  buildExecutionFeedback,
  DEFAULT_PREVIEW_MAX_CHARS,
  type ExecutionFeedbackOptions,
  type ProgramStep,
} from "./execution-feedback.js";
export type { ExecutionFeedback } from "./execution-feedback-types.js";
export {
  LISP_EVAL_TOOL_NAME,
  type LispEvalToolSchema,
  type ToolProfile,
  toolDescription,
  toolSchema,
} from "./lisp-eval-tool.js";
export {
  MIXED_WITH_LISP_EVAL_MESSAGE,
  MULTIPLE_TOOL_CALLS_MESSAGE,
  type ProtocolErrorReason,
  type ProtocolErrorRenderOptions,
  renderProtocolError,
  unknownNativeToolMessage,
} from "./protocol-error.js";
export {
  COMPACT_REFERENCE_CARD,
  combinedModeReferenceCard,
  REFERENCE_CARD_MAX_BYTES,
  type ReferenceCardDefinition,
  renderPtcToolsSection,
} from "./reference-card.js";
export {
  classifyErrorReason,
  ERROR_REASONS,
  type ErrorReason,
  type LispEvalErrorReason,
  type RenderErrorOptions,
  renderError,
} from "./render-error.js";
export { type RenderSuccessOptions, renderSuccess, type SuccessStep } from "./render-success.js";
export { type RenderSuccessFromStepOptions, renderSuccessFromStep } from "./render-success-from-step.js";
export {
  type RequestTool,
  type RequestToolsDefinition,
  requestTools,
  type ToolCollection,
} from "./request-tools.js";
export { type NamespaceTool, renderToolNamespace } from "./tool-namespace.js";
export {
  UNTRUSTED_PREAMBLE,
  unwrapUntrusted,
  wrapUntrusted,
  wrapUntrustedWithPreamble,
} from "./untrusted.js";
export { type ProgramValidation, validateProgram } from "./validate-program.js";
export { wellFormedText, wellFormedValue } from "./well-formed.js";
