/**
 * What a caller passes to `run` besides the agent: the model, the data, cancellation, budgets,
 * streaming, events, and the state a chat carries between calls.
 */
import type { LlmRetryOptions } from "../agent/agent-options.js";
import type { EventListener } from "../events/event-types.js";
import type { ProgramIsolation } from "../isolation/program-isolation.js";
import type { Message, ModelFunction, StreamChunk } from "../model/model-types.js";
import type { Step, ToolCache, ToolCacheEntry } from "../step/step-types.js";
import type { TranscriptOption } from "../transcript/transcript-types.js";

export interface BudgetUsage {
  readonly totalTokens: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly llmRequests: number;
}

export type ContinuationDecision =
  | "continue"
  | {
      readonly stop: {
        readonly ok: boolean;
        readonly return?: unknown;
        readonly fail?: { readonly reason: string; readonly message: string };
      };
    };

export interface GuardState {
  readonly turn: number;
  readonly memory: Readonly<Record<string, unknown>>;
  readonly messages: readonly Message[];
}

export interface RunOptions {
  /** The model: a function, or a key of `llmRegistry`. Falls back to the agent's `llm`. */
  readonly llm?: ModelFunction | string;
  readonly llmRegistry?: Readonly<Record<string, ModelFunction>>;
  /** The data programs read under `data/` and the prompt's `{{placeholders}}` expand from. A Step chains. */
  readonly context?: Readonly<Record<string, unknown>> | Step | null;
  /** Cancels the run: the model call in flight, the running program and every tool (via its signal). */
  readonly signal?: AbortSignal;
  /** `true` (default) keeps `step.turns`; `false` drops them; `"on_error"` keeps them only on failure. */
  readonly trace?: boolean | "on_error";
  /** Fill `step.messages` with the conversation. */
  readonly collectMessages?: boolean;
  /** Prompt-caching hint passed to the model on every request. */
  readonly cache?: boolean;
  readonly llmRetry?: LlmRetryOptions;
  /** PTC-Lisp modes: stop once the run's total tokens exceed this. */
  readonly tokenLimit?: number;
  /** What a budget stop yields: a failure (default) or the last good program's value. */
  readonly onBudgetExceeded?: "fail" | "return_partial";
  /** Decides after every model response whether to go on; wins over `tokenLimit`. */
  readonly budget?: (usage: BudgetUsage) => "continue" | "stop";
  /** PTC-Lisp modes: called after every continuing turn; may stop the run with a result. */
  readonly continuationGuard?: (turn: number, before: GuardState, after: GuardState) => ContinuationDecision;
  /** Receives the final answer's text as it streams (text and combined modes). */
  readonly onChunk?: (chunk: StreamChunk) => void;
  /** Messages placed before the first user message (a chat's history). */
  readonly initialMessages?: readonly Message[];
  /** The program memory to start from (a chat's memory). */
  readonly initialMemory?: Readonly<Record<string, unknown>>;
  /** Tool results to start the run's cache with: a Map, or a record as `step.toolCache` serializes. */
  readonly toolCache?: ToolCache | Readonly<Record<string, ToolCacheEntry>>;
  /** The task journal to start from. */
  readonly journal?: Readonly<Record<string, unknown>>;
  /** Every event of the run (and of agents it calls as tools). */
  readonly onEvent?: EventListener;
  /** Include arguments, results and prompts in events. Default false. */
  readonly eventPayloads?: boolean;
  /** Milliseconds any tool call may take (a tool's own `timeoutMs` wins). Overrides the agent's. */
  readonly toolTimeoutMs?: number;
  /** Bytes the run's tool cache may hold in total; least recently used entries go first. */
  readonly toolCacheLimitBytes?: number;
  /**
   * Records the run: every model request and response, every event with its arguments and
   * results, and the final step. Pass `createJsonlTranscript()` (or any function of a record);
   * replay the lines with `replayTranscript` from `@ptc/agent/testing` (docs/observability.md).
   */
  readonly transcript?: TranscriptOption;
  /** Where this run's programs run; wins over the agent's `isolation`. `false`: on the host's thread. */
  readonly isolation?: ProgramIsolation | false;
  /**
   * Signs the state of a run that pauses for approval (HMAC-SHA256), and checks it on `resume`:
   * a state changed in any way is refused with reason `invalid_state`. Use one whenever the state
   * leaves your process; keep it out of the state's store.
   */
  readonly stateSecret?: string;
  /** Milliseconds a paused run's state may wait; `resume` refuses it later with reason `state_expired`. */
  readonly stateTtlMs?: number;
}
