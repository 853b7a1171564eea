/**
 * What a run returns: the Step (the answer or the failure, and everything that happened on the
 * way), its Turns, usage figures and tool-call records. Every failure path fills these up to the
 * point of failure, so a failed run can be inspected as fully as a successful one.
 */
import type { ErrorReason } from "@ptc/lisp";
import type { JsonValue } from "@ptc/tool";
import type { Message } from "../model/model-types.js";
import type { AgentFailReason } from "./fail-reasons.js";

/**
 * Why a run failed: a reason of the agent's (`AGENT_FAIL_REASONS`), a PTC-Lisp reason (the
 * single-shot path passes its program's failure through), or one a program or callback chose
 * (`(fail {:reason "not_found"})` on the single-shot path, a `continuationGuard`'s stop).
 */
export type FailReason = AgentFailReason | ErrorReason | (string & {});

export interface StepFail {
  readonly reason: FailReason;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface Usage {
  readonly durationMs: number;
  /** Turns taken (the turn a run stopped on included). */
  readonly turns: number;
  /** Successful model responses. */
  readonly llmRequests: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly totalTokens?: number;
  readonly cacheCreationTokens?: number;
  readonly cacheReadTokens?: number;
  /** An estimate of the first system prompt's tokens (a quarter of its characters). */
  readonly systemPromptTokens?: number;
  /** Size of the final memory, in bytes of its JSON. */
  readonly memoryBytes?: number;
  /** The answer came from the last successful program when the budget ran out. */
  readonly fallbackUsed?: boolean;
  /** Text mode sent a JSON Schema for the answer. */
  readonly schemaUsed?: boolean;
  readonly schemaBytes?: number;
  readonly compaction?: CompactionStats;
}

export interface CompactionStats {
  readonly count: number;
  readonly messagesBefore: number;
  readonly messagesAfter: number;
}

export type ExposureLayer = "native" | "ptc_lisp";

/** One tool call: native (the model called it) or from a program (`(tool/name ...)`). */
export interface ToolCallRecord {
  readonly name: string;
  readonly args: unknown;
  readonly result?: unknown;
  /** The error message when the call failed. */
  readonly error?: string;
  readonly durationMs: number;
  /** Answered from the run's tool cache without calling the tool. */
  readonly cached?: boolean;
  readonly exposureLayer?: ExposureLayer;
  /** The native call id, for native calls. */
  readonly id?: string;
  readonly turn?: number;
  /** The call needed approval: a person approved it (it ran) or rejected it (it did not). */
  readonly approval?: "approved" | "rejected";
}

export type TurnType = "normal" | "must_return" | "retry";

export interface Turn {
  readonly number: number;
  readonly type: TurnType;
  /** The model's response as text (tool calls rendered after the content). */
  readonly rawResponse: string;
  /** The program run this turn, when there was one. */
  readonly program: string | null;
  /** The program's value, or what went wrong. */
  readonly result: unknown;
  readonly prints: readonly string[];
  readonly toolCalls: readonly ToolCallRecord[];
  /** Memory after the turn. */
  readonly memory: Readonly<Record<string, unknown>>;
  readonly success: boolean;
  /** The messages sent to the model this turn. */
  readonly messages?: readonly Message[];
  readonly systemPrompt?: string;
}

/** One cached tool result, under `canonicalCacheKey(name, args)`. */
export interface ToolCacheEntry {
  readonly result: unknown;
}

export type ToolCache = Map<string, ToolCacheEntry>;

export interface Step {
  /** The answer (null when the run failed). */
  readonly return: unknown;
  readonly fail: StepFail | null;
  /** The program's defs at the end (PTC-Lisp modes). */
  readonly memory: Readonly<Record<string, unknown>>;
  readonly usage: Usage;
  /** Every turn, unless `trace` turned them off. */
  readonly turns: readonly Turn[] | null;
  /** The conversation, when `collectMessages` was set. */
  readonly messages: readonly Message[] | null;
  readonly toolCalls: readonly ToolCallRecord[];
  /** The run's tool cache: full results of cached tools. */
  readonly toolCache: ToolCache;
  readonly prints: readonly string[];
  /** The task journal (`(task "id" ...)`), when journaling. */
  readonly journal: Readonly<Record<string, unknown>> | null;
  /** `(step-done "id" "summary")` summaries. */
  readonly summaries: Readonly<Record<string, string>>;
  /** Steps of agents this run called as tools. */
  readonly childSteps: readonly Step[];
  readonly name: string | undefined;
  readonly signature: string | undefined;
  readonly fieldDescriptions: Readonly<Record<string, string>> | undefined;
  /** The mission as sent (template expanded) and as written. */
  readonly prompt: string;
  readonly originalPrompt: string;
}

/** A tool call that waits for a person's decision. */
export interface PendingApproval {
  /** Unique to this pause: pass it to `resume` in `approve` or `reject`. */
  readonly id: string;
  readonly toolName: string;
  /** The arguments the tool will receive if the call is approved (after its schema or signature check). */
  readonly args: Readonly<Record<string, unknown>>;
  /** Who made the call: the model natively, or a program (`(tool/name ...)`, inside pmap too). */
  readonly layer: ExposureLayer;
}

/** The marker of a paused run's state, and the version of its layout. */
export const PAUSED_STATE_FORMAT = "ptc-paused-run";
export const PAUSED_STATE_VERSION = 1;

/**
 * What a paused run needs to go on, as plain JSON: `JSON.parse(JSON.stringify(state))` is the
 * same state, so it can wait in any store and be resumed in another process by an agent with the
 * same definition. With `stateSecret` it is signed, and `resume` refuses it if anything in it changed.
 */
export interface PausedRunState {
  readonly format: typeof PAUSED_STATE_FORMAT;
  readonly version: typeof PAUSED_STATE_VERSION;
  /** The agent that paused (`agentIdOf`): another agent cannot resume it. */
  readonly agentId: string;
  /** When the run paused, ISO 8601. */
  readonly pausedAt: string;
  /** With `stateTtlMs`: after this instant (ISO 8601) `resume` refuses the state. */
  readonly expiresAt?: string;
  /** The calls waiting for a decision (also on the paused result). */
  readonly pending: readonly PendingApproval[];
  /** The run itself: conversation, budgets used, memory, tool cache, the paused turn and its ledger. */
  readonly run: JsonValue;
  /** With `stateSecret`: HMAC-SHA256 of everything else, base64url. */
  readonly signature?: string;
}

/**
 * A run that stopped at calls needing approval: `step` holds what happened so far (its `fail`
 * reason is "paused"), `pending` the calls waiting, `state` what `resume` needs to go on.
 */
export interface PausedRunResult {
  readonly ok: false;
  readonly paused: true;
  readonly step: Step;
  readonly pending: readonly PendingApproval[];
  readonly state: PausedRunState;
}

/** What `run` and `resume` resolve to: narrow on `ok`, then on `paused`. */
export type RunResult =
  | { readonly ok: true; readonly paused?: false; readonly step: Step }
  | { readonly ok: false; readonly paused?: false; readonly step: Step }
  | PausedRunResult;
