/**
 * The internal shape of one run: `Run` holds what is fixed for the whole run (agent, model, data,
 * tools, limits, cancellation, events), `LoopState` what changes turn by turn. Every way a run can
 * end builds its Step from a LoopState, so whatever happened before the end is kept.
 */
import type { Tool } from "@ptc/tool";
import type { Agent } from "../agent/agent-types.js";
import type { ResumedTurn } from "../approvals/paused-turn.js";
import type { EventSink } from "../events/event-sink.js";
import type { ProgramIsolation } from "../isolation/program-isolation.js";
import type { RunPrograms } from "../isolation/run-programs.js";
import type { DataProvenance } from "../minimization/data-provenance.js";
import type { AbortWatch } from "../model/abort-watch.js";
import type { ResolvedRetry } from "../model/model-retry.js";
import type { Message, ModelFunction } from "../model/model-types.js";
import type { RunOptions } from "../run/run-options.js";
import type { Step, ToolCallRecord, Turn } from "../step/step-types.js";
import type { NestedTool } from "../tools/nested-tools.js";
import type { RunToolCache } from "../tools/tool-cache.js";
import type { Mode } from "./modes.js";

export interface Run {
  readonly agent: Agent;
  readonly agentId: string;
  readonly options: RunOptions;
  /** The run's mode, decided once (loop/modes.ts). */
  readonly mode: Mode;
  readonly llm: ModelFunction;
  readonly llmRegistry: Readonly<Record<string, ModelFunction>>;
  /** The data under `data/`. */
  readonly context: Readonly<Record<string, unknown>>;
  /** Field descriptions received from a chained step, merged over the agent's context descriptions. */
  readonly descriptions: Readonly<Record<string, string>>;
  /** Effective tools: the agent's plus builtins, by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** Nesting depth: 0 for a top-level run. */
  readonly depth: number;
  /** Absolute time (ms since epoch) the mission must end by, if any. */
  readonly deadline: number | undefined;
  /**
   * The run's own signal, following the caller's (`abort.signal`): what the model and programs are
   * handed (a tool gets a signal per call), so their listeners never sit on a signal runs share.
   */
  readonly signal: AbortSignal | undefined;
  /**
   * The run's one subscription to the caller's signal: calls wait on it here, never on a signal
   * itself; `aborted` and `reason` are the caller's signal's own.
   */
  readonly abort: AbortWatch;
  readonly events: EventSink;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly startedAt: number;
  readonly retry: ResolvedRetry;
  readonly toolTimeoutMs: number | undefined;
  /** Where programs run: the run's isolation, if any (child runs inherit it). */
  readonly isolation: ProgramIsolation | undefined;
  /** Runs the run's programs (on the host's thread, or through `isolation`). */
  readonly programs: RunPrograms;
  /** The prompt with its template expanded (as a plain text). */
  readonly expandedPrompt: string;
  /** Whether a call that needs approval may pause the run (a top-level run; agents called as tools cannot). */
  readonly pausable: boolean;
  /** Runs an agent tool (or `llm-query`) as a child of this run. */
  readonly runChild: (
    call: ChildCall,
  ) => Promise<
    { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }
  >;
}

/** A call of an agent tool (or `llm-query`) that runs a child agent. */
export interface ChildCall {
  readonly nested: NestedTool;
  readonly tool: Tool;
  readonly args: Readonly<Record<string, unknown>>;
  /** The parent's loop state: the child spends its shared turn budget and lands in its childSteps. */
  readonly state: LoopState;
  readonly spanId: string;
  /** Aborts the child when the program that called it has ended. */
  readonly stop?: AbortWatch | undefined;
}

export interface TokenTotals {
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
  /** Whether any response reported tokens. */
  reported: boolean;
}

export interface LoopState {
  turn: number;
  messages: Message[];
  /** Program memory: the program's defs, as program values. */
  memory: Record<string, unknown>;
  /** *1 *2 *3, newest first. */
  history: unknown[];
  journal: Record<string, unknown> | null;
  summaries: Record<string, string>;
  workRemaining: number;
  retryRemaining: number;
  /** Turns left of the budget shared with parent and child agents. */
  remainingTurns: number;
  readonly toolCache: RunToolCache;
  lastFail: { readonly reason: string; readonly message: string } | null;
  readonly tokens: TokenTotals;
  llmRequests: number;
  readonly turns: Turn[];
  readonly toolCalls: ToolCallRecord[];
  readonly prints: string[];
  readonly childSteps: Step[];
  /** Native app-tool calls so far (text modes; `lisp_eval` never counts). */
  nativeToolCalls: number;
  /** Tool calls the model sent without an id so far (each gets `tc_<n>`). */
  syntheticIds: number;
  /** The first turn's system prompt, for `step.messages`. */
  firstSystemPrompt: string | undefined;
  progressState: unknown;
  compaction: { count: number; messagesBefore: number; messagesAfter: number } | undefined;
  fallbackUsed: boolean;
  /** The last successful program value (host form) and the memory after it, for the fallback. */
  lastSuccess: { readonly value: unknown; readonly memory: Readonly<Record<string, unknown>> } | undefined;
  schemaBytes: number | undefined;
  /** Combined mode: where program values came from, to keep hidden tool data from the model. */
  readonly provenance: DataProvenance | undefined;
  /** Set while a resumed run handles the turn it paused in again (approvals/paused-turn.ts). */
  resumed: ResumedTurn | undefined;
  /** Approval ids of this run are `<token>_<n>`: random per run, so ids of two runs never meet. */
  readonly approvalToken: string;
  approvalCount: number;
}
