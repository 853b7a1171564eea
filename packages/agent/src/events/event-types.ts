/**
 * Typed events: one discriminated union instead of logging. Every event names the agent and its
 * span; spans nest run → turn → model call / tool call, and a child agent's run nests under the
 * tool call that started it. Arguments, results and prompts appear only when the run opts in with
 * `eventPayloads: true`.
 */
import type { StepFail, TurnType, Usage } from "../step/step-types.js";

export interface EventBase {
  readonly agentName: string | undefined;
  /** Stable per agent definition: 8 hex characters. */
  readonly agentId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  /** Milliseconds since the epoch. */
  readonly timestamp: number;
}

export interface RunStartEvent extends EventBase {
  readonly type: "run-start";
  readonly depth: number;
  readonly mode: "ptc_lisp" | "ptc_lisp_tool_call" | "text" | "combined";
}

export interface RunEndEvent extends EventBase {
  readonly type: "run-end";
  readonly ok: boolean;
  readonly fail: StepFail | null;
  readonly usage: Usage;
  readonly durationMs: number;
}

export interface TurnStartEvent extends EventBase {
  readonly type: "turn-start";
  readonly turn: number;
  readonly turnType: TurnType;
  readonly toolsCount: number;
  /** Retry phase only: which retry this is, and how many remain. */
  readonly attempt?: number;
  readonly remaining?: number;
}

export interface TurnEndEvent extends EventBase {
  readonly type: "turn-end";
  readonly turn: number;
  readonly turnType: TurnType;
  readonly success: boolean;
  readonly program: string | null;
  readonly durationMs: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

export interface LlmCallStartEvent extends EventBase {
  readonly type: "llm-call-start";
  readonly turn: number | undefined;
  readonly attempt: number;
  readonly messageCount: number;
  /** With `eventPayloads`: the request's system prompt and messages. */
  readonly system?: string;
  readonly messages?: readonly unknown[];
}

export interface LlmCallEndEvent extends EventBase {
  readonly type: "llm-call-end";
  readonly turn: number | undefined;
  readonly attempt: number;
  readonly ok: boolean;
  readonly durationMs: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /** The failure's message when `ok` is false. */
  readonly error?: string;
  /** With `eventPayloads`: the response's content and tool calls. */
  readonly response?: unknown;
}

export interface ToolCallStartEvent extends EventBase {
  readonly type: "tool-call-start";
  readonly toolName: string;
  readonly exposureLayer: "native" | "ptc_lisp";
  readonly turn: number | undefined;
  readonly args?: unknown;
}

export interface ToolCallEndEvent extends EventBase {
  readonly type: "tool-call-end";
  readonly toolName: string;
  readonly exposureLayer: "native" | "ptc_lisp";
  /** Answered from the run's tool cache. */
  readonly cached: boolean;
  readonly error: boolean;
  readonly durationMs: number;
  readonly turn: number | undefined;
  /** The error's message when `error` is true. */
  readonly errorMessage?: string;
  readonly args?: unknown;
  readonly result?: unknown;
}

export interface CompactionEvent extends EventBase {
  readonly type: "compaction";
  readonly turn: number;
  readonly strategy: "trim";
  readonly reason: "turns" | "tokens";
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  readonly estimatedTokensBefore: number;
  readonly estimatedTokensAfter: number;
}

export interface NativePreviewFallbackEvent extends EventBase {
  readonly type: "native-preview-fallback";
  readonly toolName: string;
  readonly category: "raised" | "non_map" | "non_encodable";
  readonly message: string;
}

/** A tool call needs a person's approval: the run pauses once its turn cannot go on without it. */
export interface ApprovalRequestedEvent extends EventBase {
  readonly type: "approval-requested";
  /** The id `resume` takes in `approve` or `reject`. */
  readonly approvalId: string;
  readonly toolName: string;
  readonly exposureLayer: "native" | "ptc_lisp";
  readonly turn: number;
  /** With `eventPayloads`: the arguments the tool will receive if approved. */
  readonly args?: unknown;
}

/** A paused run goes on (`resume`), with the decisions made on its waiting calls. */
export interface RunResumedEvent extends EventBase {
  readonly type: "run-resumed";
  /** The turn the run paused in, which it now handles again. */
  readonly turn: number;
  /** When the run paused, ISO 8601. */
  readonly pausedAt: string;
  readonly approved: readonly string[];
  readonly rejected: readonly string[];
}

export type AgentEvent =
  | RunStartEvent
  | RunEndEvent
  | TurnStartEvent
  | TurnEndEvent
  | LlmCallStartEvent
  | LlmCallEndEvent
  | ToolCallStartEvent
  | ToolCallEndEvent
  | CompactionEvent
  | NativePreviewFallbackEvent
  | ApprovalRequestedEvent
  | RunResumedEvent;

export type AgentEventType = AgentEvent["type"];

/** Receives every event of a run (and of the agents it calls). Errors it throws are ignored. */
export type EventListener = (event: AgentEvent) => void;
