/**
 * Pure mapping from agent events to OpenTelemetry attributes: one function per event type, all
 * names under `ptc.`. Arguments, results, prompts, responses and programs are added only when the
 * caller asked for them and the event carries them; nothing here decides span structure.
 */
import type { Attributes } from "@opentelemetry/api";
import type {
  ApprovalRequestedEvent,
  CompactionEvent,
  EventBase,
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
} from "@ptc/agent";
import { AGENT_FAIL_REASONS } from "@ptc/agent";

export const SPAN_NAMES = {
  run: "ptc.agent.run",
  turn: "ptc.agent.turn",
  llmCall: "ptc.agent.llm_call",
  toolCall: "ptc.agent.tool_call",
} as const;

export const SPAN_EVENT_NAMES = {
  compaction: "ptc.compaction",
  nativePreviewFallback: "ptc.native_preview_fallback",
  approvalRequested: "ptc.approval_requested",
  runResumed: "ptc.run_resumed",
} as const;

/** Set on spans that were still open when their run ended (an aborted run, a lost end event). */
export const INCOMPLETE_ATTRIBUTE = "ptc.incomplete";

export interface PayloadOptions {
  readonly recordInputs: boolean;
  readonly recordOutputs: boolean;
}

/** Attributes with the `undefined` entries dropped: OpenTelemetry rejects them. */
function defined(entries: Record<string, string | number | boolean | undefined>): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) attributes[key] = value;
  return attributes;
}

/**
 * Attribute values must be primitives, so structured payloads travel as JSON. Payloads come from
 * tools and models: a value JSON cannot encode must not break the trace, so it degrades to text.
 */
export function toJson(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_key, item: unknown) =>
      typeof item === "bigint" ? item.toString() : item,
    );
    return text ?? String(value);
  } catch (error) {
    return `[unserializable: ${(error as Error).message}]`;
  }
}

export function agentAttributes(event: EventBase): Attributes {
  return defined({ "ptc.agent.name": event.agentName, "ptc.agent.id": event.agentId });
}

export function runStartAttributes(event: RunStartEvent): Attributes {
  return { ...agentAttributes(event), "ptc.run.depth": event.depth, "ptc.run.mode": event.mode };
}

const AGENT_OWN_MESSAGES: ReadonlySet<string> = new Set(
  AGENT_FAIL_REASONS.filter((reason) => reason !== "failed"),
);

/**
 * A failed run's message as a span may record it. The agent's own failures (max_turns_exceeded,
 * aborted, ...) say what went wrong in its words. A program's `(fail v)` (reason "failed", or a
 * reason the program chose on the single-shot path, which also passes its program's errors on)
 * carries the program's value instead: data it read, tool results included, of any size. That is
 * an output, recorded only with recordOutputs.
 */
export function recordedFailMessage(event: RunEndEvent, payloads: PayloadOptions): string | undefined {
  const fail = event.fail;
  if (fail === null) return undefined;
  return payloads.recordOutputs || AGENT_OWN_MESSAGES.has(fail.reason) ? fail.message : undefined;
}

export function runEndAttributes(event: RunEndEvent, payloads: PayloadOptions): Attributes {
  const { usage } = event;
  return defined({
    "ptc.run.ok": event.ok,
    // A pause is not a failure: the span ends without an error status and says it paused.
    "ptc.run.paused": event.fail?.reason === "paused" ? true : undefined,
    "ptc.run.duration_ms": event.durationMs,
    "ptc.run.fail.reason": event.fail?.reason,
    "ptc.run.fail.message": recordedFailMessage(event, payloads),
    "ptc.usage.turns": usage.turns,
    "ptc.usage.llm_requests": usage.llmRequests,
    "ptc.usage.input_tokens": usage.inputTokens,
    "ptc.usage.output_tokens": usage.outputTokens,
    "ptc.usage.total_tokens": usage.totalTokens,
    "ptc.usage.cache_creation_tokens": usage.cacheCreationTokens,
    "ptc.usage.cache_read_tokens": usage.cacheReadTokens,
    "ptc.usage.fallback_used": usage.fallbackUsed,
  });
}

export function turnStartAttributes(event: TurnStartEvent): Attributes {
  return {
    ...agentAttributes(event),
    ...defined({
      "ptc.turn.number": event.turn,
      "ptc.turn.type": event.turnType,
      "ptc.turn.tools_count": event.toolsCount,
      "ptc.turn.retry_attempt": event.attempt,
      "ptc.turn.retry_remaining": event.remaining,
    }),
  };
}

export function turnEndAttributes(event: TurnEndEvent, payloads: PayloadOptions): Attributes {
  return defined({
    "ptc.turn.success": event.success,
    "ptc.turn.duration_ms": event.durationMs,
    "ptc.usage.input_tokens": event.inputTokens,
    "ptc.usage.output_tokens": event.outputTokens,
    // The program is the model's output, so it follows recordOutputs like a response does.
    "ptc.turn.program": payloads.recordOutputs && event.program !== null ? event.program : undefined,
  });
}

export function llmCallStartAttributes(event: LlmCallStartEvent, payloads: PayloadOptions): Attributes {
  return {
    ...agentAttributes(event),
    ...defined({
      "ptc.turn.number": event.turn,
      "ptc.llm.attempt": event.attempt,
      "ptc.llm.message_count": event.messageCount,
      "ptc.llm.system": payloads.recordInputs ? event.system : undefined,
      "ptc.llm.messages":
        payloads.recordInputs && event.messages !== undefined ? toJson(event.messages) : undefined,
    }),
  };
}

export function llmCallEndAttributes(event: LlmCallEndEvent, payloads: PayloadOptions): Attributes {
  return defined({
    "ptc.llm.ok": event.ok,
    "ptc.llm.duration_ms": event.durationMs,
    "ptc.usage.input_tokens": event.inputTokens,
    "ptc.usage.output_tokens": event.outputTokens,
    "ptc.llm.response":
      payloads.recordOutputs && event.response !== undefined ? toJson(event.response) : undefined,
  });
}

export function toolCallStartAttributes(event: ToolCallStartEvent, payloads: PayloadOptions): Attributes {
  return {
    ...agentAttributes(event),
    ...defined({
      "ptc.turn.number": event.turn,
      "ptc.tool.name": event.toolName,
      "ptc.tool.exposure_layer": event.exposureLayer,
      "ptc.tool.args": payloads.recordInputs && event.args !== undefined ? toJson(event.args) : undefined,
    }),
  };
}

export function toolCallEndAttributes(event: ToolCallEndEvent, payloads: PayloadOptions): Attributes {
  return defined({
    "ptc.tool.cached": event.cached,
    "ptc.tool.error": event.error,
    "ptc.tool.duration_ms": event.durationMs,
    "ptc.tool.args": payloads.recordInputs && event.args !== undefined ? toJson(event.args) : undefined,
    "ptc.tool.result":
      payloads.recordOutputs && event.result !== undefined ? toJson(event.result) : undefined,
  });
}

export function compactionAttributes(event: CompactionEvent): Attributes {
  return {
    "ptc.turn.number": event.turn,
    "ptc.compaction.strategy": event.strategy,
    "ptc.compaction.reason": event.reason,
    "ptc.compaction.messages_before": event.messagesBefore,
    "ptc.compaction.messages_after": event.messagesAfter,
    "ptc.compaction.estimated_tokens_before": event.estimatedTokensBefore,
    "ptc.compaction.estimated_tokens_after": event.estimatedTokensAfter,
  };
}

export function nativePreviewFallbackAttributes(event: NativePreviewFallbackEvent): Attributes {
  return {
    "ptc.tool.name": event.toolName,
    "ptc.native_preview.category": event.category,
    "ptc.native_preview.message": event.message,
  };
}

export function approvalRequestedAttributes(
  event: ApprovalRequestedEvent,
  payloads: PayloadOptions,
): Attributes {
  return defined({
    "ptc.approval.id": event.approvalId,
    "ptc.tool.name": event.toolName,
    "ptc.tool.exposure_layer": event.exposureLayer,
    "ptc.turn": event.turn,
    "ptc.tool.args": payloads.recordInputs && event.args !== undefined ? toJson(event.args) : undefined,
  });
}

export function runResumedAttributes(event: RunResumedEvent): Attributes {
  return {
    "ptc.turn": event.turn,
    "ptc.run.paused_at": event.pausedAt,
    "ptc.approval.approved": [...event.approved],
    "ptc.approval.rejected": [...event.rejected],
  };
}
