/**
 * Builds the Step a run ends with, from its loop state: the answer or the failure, usage figures,
 * turns (per `trace`), messages (per `collectMessages`), tool calls, cache, memory. Every ending
 * goes through here, so nothing gathered before the end is ever dropped, and everything is made
 * JSON-safe here, so the host can store any step as JSON (docs/agents.md).
 */
import type { ErrorReason } from "@ptc/lisp";
import { createJsonSafe } from "../json/to-json-safe.js";
import type { Message } from "../model/model-types.js";
import type { AgentFailReason } from "../step/fail-reasons.js";
import { jsonSafeCache, jsonSafeMemory, jsonSafeToolCalls, jsonSafeTurns } from "../step/json-safe-step.js";
import type { RunResult, Step, StepFail, ToolCallRecord, Usage } from "../step/step-types.js";
import { externalizeMemory, memoryBytes } from "./host-value.js";
import type { LoopState, Run } from "./run-types.js";

export type Ending =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly fail: StepFail };

export interface FinishOptions {
  /** Messages that end the conversation (the final answer and its paired tool message). */
  readonly finalMessages?: readonly Message[];
  /** `usage.turns`; default: the current turn. */
  readonly turns?: number;
  /** The memory to report; default: the state's. */
  readonly memory?: Readonly<Record<string, unknown>>;
  readonly prints?: readonly string[];
  /** Calls that ran in a turn the step has no record of (a paused turn's attempts). */
  readonly extraToolCalls?: readonly ToolCallRecord[];
}

function estimateTokens(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return text === "" ? 0 : Math.max(1, Math.floor(text.length / 4));
}

export function usageOf(
  run: Run,
  state: LoopState,
  turns: number,
  memory: Readonly<Record<string, unknown>>,
): Usage {
  const { tokens } = state;
  const usage: Record<string, unknown> = {
    durationMs: Date.now() - run.startedAt,
    turns,
    llmRequests: state.llmRequests,
    memoryBytes: memoryBytes(memory),
  };
  if (tokens.reported) {
    usage.inputTokens = tokens.input;
    usage.outputTokens = tokens.output;
    usage.totalTokens = tokens.input + tokens.output;
    if (tokens.cacheCreation > 0) usage.cacheCreationTokens = tokens.cacheCreation;
    if (tokens.cacheRead > 0) usage.cacheReadTokens = tokens.cacheRead;
    const systemTokens = estimateTokens(state.firstSystemPrompt);
    if (systemTokens !== undefined) usage.systemPromptTokens = systemTokens;
  }
  if (state.fallbackUsed) usage.fallbackUsed = true;
  if (state.schemaBytes !== undefined) {
    usage.schemaUsed = true;
    usage.schemaBytes = state.schemaBytes;
  }
  if (state.compaction !== undefined) usage.compaction = { ...state.compaction };
  return usage as unknown as Usage;
}

export function finish(
  run: Run,
  state: LoopState,
  ending: Ending,
  options: FinishOptions = {},
): RunResult & { readonly paused?: false } {
  const trace = run.options.trace ?? true;
  const keepTurns = trace === true || (trace === "on_error" && !ending.ok);
  const memory = options.memory ?? state.memory;
  const finalMessages = options.finalMessages ?? [];
  const collect = run.options.collectMessages === true;
  const messages: Message[] | null = collect
    ? [{ role: "system", content: state.firstSystemPrompt ?? "" }, ...state.messages, ...finalMessages]
    : null;
  const usage = usageOf(run, state, options.turns ?? state.turn, memory);
  // One converter for the whole step: the cache, the calls and the turns share their results.
  const json = createJsonSafe();
  const step: Step = {
    // The answer is the agent's own (JSON data, or a Date for a `:datetime` signature): kept as is.
    return: ending.ok ? ending.value : null,
    fail: ending.ok ? null : jsonSafeFail(ending.fail, json),
    memory: jsonSafeMemory(externalizeMemory(memory), json),
    usage,
    turns: keepTurns ? jsonSafeTurns(state.turns, json) : null,
    messages: messages === null ? null : (json(messages) as unknown as Message[]),
    toolCalls: jsonSafeToolCalls([...state.toolCalls, ...(options.extraToolCalls ?? [])], json),
    toolCache: jsonSafeCache(state.toolCache.entries, json),
    prints: options.prints === undefined ? [...state.prints] : [...options.prints],
    journal: state.journal === null ? null : jsonSafeMemory(state.journal, json),
    summaries: { ...state.summaries },
    childSteps: [...state.childSteps],
    name: run.agent.name,
    signature: run.agent.signature,
    fieldDescriptions: run.agent.fieldDescriptions,
    prompt: run.expandedPrompt,
    originalPrompt: run.agent.prompt,
  };
  run.events.emit(run.spanId, run.parentSpanId, {
    type: "run-end",
    ok: ending.ok,
    fail: step.fail,
    usage,
    durationMs: usage.durationMs,
  });
  run.events.record({ type: "step", agentId: run.agentId, ok: ending.ok, step });
  return ending.ok ? { ok: true, step } : { ok: false, step };
}

function jsonSafeFail(fail: StepFail, json: (value: unknown) => unknown): StepFail {
  if (fail.details === undefined) return fail;
  return { ...fail, details: json(fail.details) as Readonly<Record<string, unknown>> };
}

/**
 * A run's failure with a reason of the agent's own: only a reason of `AGENT_FAIL_REASONS`, so
 * every reason the agent writes is in the exported list (docs/limits.md describes each).
 */
export function failure(
  reason: AgentFailReason,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): Ending {
  return chosenFailure(reason, message, details);
}

/** A run's failure that passes a program's own PTC-Lisp reason through (the single-shot path). */
export function programFailure(reason: ErrorReason, message: string): Ending {
  return chosenFailure(reason, message);
}

/** A failure whose reason a program or a callback chose: any text. */
export function chosenFailure(
  reason: string,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): Ending {
  return { ok: false, fail: details === undefined ? { reason, message } : { reason, message, details } };
}
