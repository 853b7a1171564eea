/**
 * @ptc/agent: the programmatic tool calling agent. It talks to a model, runs the PTC-Lisp programs
 * the model writes (fenced in replies, or over the native `lisp_eval` tool), calls tools, keeps
 * budgets, validates the answer and reports everything it did as a Step and as typed events.
 * Text and combined modes answer in text and escalate to programs when results are too large.
 *
 * Model adapters live in subpaths (`@ptc/agent/openai`, `@ptc/agent/ai-sdk`), as do the scripted
 * test model (`@ptc/agent/testing`), the OpenTelemetry bridge (`@ptc/agent/otel`) and, for Node,
 * program isolation in a worker thread (`@ptc/agent/node`).
 */

export type {
  AgentOptions,
  AgentOutput,
  AgentToolDefinition,
  AgentToolExtras,
  CompactionOptions,
  CompletionMode,
  FormatOptions,
  LanguageSpecContext,
  LlmRetryOptions,
  MemoryStrategy,
  PlanItem,
  ProgressFunction,
  ProgressInput,
  PtcTransport,
  SystemPromptOption,
  SystemPromptParts,
} from "./agent/agent-options.js";
export type { Agent, ResolvedCompaction, ResolvedFormatOptions } from "./agent/agent-types.js";
export { createAgent } from "./agent/create-agent.js";
export { type AgentTools, defineTool, defineTools } from "./agent/define-tools.js";
export type { ApprovalContext, NeedsApproval } from "./approvals/approval-policy.js";
export type { Rejection, ResumeOptions } from "./approvals/approval-types.js";
export { resume } from "./approvals/resume.js";
export { AgentError, type AgentErrorCode, type AgentErrorOptions, isAgentError } from "./errors.js";
export type {
  AgentEvent,
  AgentEventType,
  ApprovalRequestedEvent,
  CompactionEvent,
  EventBase,
  EventListener,
  LlmCallEndEvent,
  LlmCallStartEvent,
  NativePreviewFallbackEvent,
  RunEndEvent,
  RunResumedEvent,
  RunStartEvent,
  ToolCallEndEvent,
  ToolCallStartEvent,
  TurnEndEvent,
  TurnStartEvent,
} from "./events/event-types.js";
export type { ProgramIsolation, ProgramRunner } from "./isolation/program-isolation.js";
export { ModelCallError, type ModelCallErrorOptions, type ModelErrorKind } from "./model/model-error.js";
export type {
  Message,
  MessageToolCall,
  ModelErrorFields,
  ModelFunction,
  ModelRequest,
  ModelResponse,
  ModelResponseObject,
  ModelToolCall,
  RequestToolSchema,
  StreamChunk,
  TokenCounts,
} from "./model/model-types.js";
export {
  buildNativePreview,
  cacheHint,
  type NativePreviewFallback,
  type NativePreviewOptions,
  type NativePreviewResult,
} from "./native-preview/index.js";
export { unwrapUntrusted } from "./protocol-text.js";
export {
  type ChatOptions,
  type ChatReply,
  type ChatResumeOptions,
  type ChatState,
  chat,
  resumeChat,
} from "./run/chat.js";
export { type PromptPreview, previewPrompt, type ToolSummary } from "./run/preview-prompt.js";
export { type RunArguments, type RunPromptOptions, run, runOrThrow } from "./run/run.js";
export type { BudgetUsage, ContinuationDecision, GuardState, RunOptions } from "./run/run-options.js";
export { AGENT_FAIL_REASONS, type AgentFailReason } from "./step/fail-reasons.js";
export type {
  CompactionStats,
  ExposureLayer,
  FailReason,
  PausedRunResult,
  PausedRunState,
  PendingApproval,
  RunResult,
  Step,
  StepFail,
  ToolCache,
  ToolCacheEntry,
  ToolCallRecord,
  Turn,
  TurnType,
  Usage,
} from "./step/step-types.js";
export { type AgentTool, type AsToolOptions, asTool, isAgentTool } from "./tools/agent-tool.js";
export { createJsonlTranscript, type JsonlTranscript } from "./transcript/jsonl-transcript.js";
export { redactText } from "./transcript/redact.js";
export type {
  TranscriptOption,
  TranscriptRecord,
  TranscriptWriter,
} from "./transcript/transcript-types.js";
