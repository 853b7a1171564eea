/**
 * The one turn loop every multi-turn mode runs on. Per turn: stop checks (cancellation, the
 * mode's own budget, the shared turn budget, the mission deadline), the request, the model call,
 * the mode's budget callback, the mode's handling of the response, the turn record and events,
 * then either the end of the run or the next turn. Modes differ only in the `TurnMode` they give.
 */
import { LispError } from "@ptc/lisp";
import { pausedRecords, pauseRun, requestApprovals, resumedRecords } from "../approvals/pause-run.js";
import type { TurnAt, TurnPause } from "../approvals/paused-turn.js";
import { ReplayDivergedError } from "../approvals/replay-diverged.js";
import { errorMessage } from "../error-message.js";
import { AgentError } from "../errors.js";
import { newSpanId } from "../events/event-sink.js";
import type { Message, ModelRequest } from "../model/model-types.js";
import type { NormalizedResponse } from "../model/normalize-response.js";
import type { RunResult, ToolCallRecord, TurnType } from "../step/step-types.js";
import { callModel } from "./call-model.js";
import { chosenFailure, type Ending, type FinishOptions, failure, finish, programFailure } from "./finish.js";
import { externalizeMemory } from "./host-value.js";
import type { LoopState, Run } from "./run-types.js";

/** What the mode learned from one turn, for the turn record. */
export interface TurnRecord {
  readonly rawResponse: string;
  readonly program: string | null;
  readonly result: unknown;
  readonly prints: readonly string[];
  readonly toolCalls: readonly ToolCallRecord[];
  readonly success: boolean;
}

export type TurnOutcome =
  | {
      readonly kind: "continue";
      /** Appended to the conversation (assistant message, tool results, feedback). */
      readonly append: readonly Message[];
      readonly record: TurnRecord;
    }
  | {
      readonly kind: "stop";
      readonly ending: Ending;
      readonly record: TurnRecord;
      readonly finish?: FinishOptions;
    }
  | {
      /** Calls need approval: the run pauses, and a resume handles the same response again. */
      readonly kind: "pause";
      readonly pause: TurnPause;
    };

export interface TurnContext {
  readonly type: TurnType;
  readonly spanId: string;
  readonly streamed: boolean;
}

export interface TurnMode {
  /** Ends the run before a turn starts (the mode's own budget), or lets it go on. */
  beforeTurn(state: LoopState): RunResult | undefined;
  turnType(state: LoopState): TurnType;
  /** The request of this turn, minus messages (the driver supplies them). */
  request(state: LoopState, type: TurnType): Omit<ModelRequest, "messages" | "signal" | "stream" | "cache">;
  /** Compaction of the messages sent (never of the stored history). */
  messagesFor?(state: LoopState): readonly Message[];
  /** Checks budgets after a response arrived, before it is handled; calls `endTurn` before ending the run. */
  afterResponse?(state: LoopState, endTurn: () => void): RunResult | undefined;
  handle(response: NormalizedResponse, state: LoopState, context: TurnContext): Promise<TurnOutcome>;
  /** Spends the budget of a turn that continues. */
  advance(state: LoopState): void;
  /** Whether the run's `continuationGuard` applies (PTC-Lisp loops). */
  readonly guarded: boolean;
  readonly toolsCount: (type: TurnType) => number;
}

/**
 * Runs turns until the run ends (or pauses). `resumeAt` starts a resumed run inside the turn it
 * paused in: the response is the one the model gave then, handled again with the decisions.
 */
export async function driveTurns(
  run: Run,
  state: LoopState,
  mode: TurnMode,
  resumeAt?: TurnAt,
): Promise<RunResult> {
  let resuming = resumeAt;
  for (;;) {
    if (isAborted(run)) {
      return finish(run, state, abortEnding(run), {
        turns: state.turn - 1,
        extraToolCalls: resumedRecords(state),
      });
    }
    let type: TurnType;
    const spanId = newSpanId();
    const turnStarted = Date.now();
    let system: string;
    let messages: readonly Message[];
    let tokensBefore: { input: number; output: number };
    let called: { readonly response: NormalizedResponse; readonly streamed: boolean };
    // Every way out of a turn that started closes it once, with what it ran (if anything).
    const closeTurn = (program: string | null = null, success = false) =>
      endTurn(run, state, { spanId, type, started: turnStarted, program, success, tokensBefore });
    if (resuming !== undefined) {
      // The model answered this turn before the pause: its tokens are counted, its budgets checked.
      ({ type, system, messages } = resuming);
      called = { response: resuming.response, streamed: resuming.streamed };
      resuming = undefined;
      tokensBefore = { input: state.tokens.input, output: state.tokens.output };
      emitTurnStart(run, state, mode, spanId, type);
    } else {
      const early = mode.beforeTurn(state);
      if (early !== undefined) return early;
      if (state.remainingTurns <= 0) {
        return finish(run, state, failure("turn_budget_exhausted", "Turn budget exhausted"), {
          turns: state.turn - 1,
        });
      }
      if (run.deadline !== undefined && Date.now() >= run.deadline) {
        return finish(run, state, failure("mission_timeout", "Mission timeout exceeded"), {
          turns: state.turn - 1,
        });
      }
      type = mode.turnType(state);
      emitTurnStart(run, state, mode, spanId, type);
      const request = mode.request(state, type);
      system = request.system;
      if (state.turn === 1 || state.firstSystemPrompt === undefined)
        state.firstSystemPrompt ??= request.system;
      messages = mode.messagesFor?.(state) ?? state.messages;
      tokensBefore = { input: state.tokens.input, output: state.tokens.output };
      const answered = await callModel(run, state, { ...request, messages: [...messages] }, spanId);
      if (!answered.ok) {
        const ending =
          answered.kind === "aborted"
            ? abortEnding(run)
            : answered.kind === "mission_timeout"
              ? failure("mission_timeout", "Mission timeout exceeded")
              : failure("llm_error", `LLM call failed: ${answered.message}`);
        closeTurn();
        return finish(run, state, ending, { turns: state.turn - 1 });
      }
      // A budget stop still closes the turn it started, before the run ends.
      const budgetStop = mode.afterResponse?.(state, () => closeTurn());
      if (budgetStop !== undefined) return budgetStop;
      called = answered;
    }

    // A paused turn is handled again on resume: what it numbered must number the same then.
    const syntheticIdsBefore = state.syntheticIds;
    let outcome: TurnOutcome;
    try {
      outcome = await mode.handle(called.response, state, { type, spanId, streamed: called.streamed });
    } catch (error) {
      if (error instanceof AgentError) throw error;
      if (error instanceof ReplayDivergedError) {
        closeTurn();
        return finish(run, state, failure("replay_diverged", error.message), {
          turns: state.turn,
          extraToolCalls: error.records,
        });
      }
      // The turn happened: keep it, with what went wrong, before ending the run.
      const ending = handlerFailure(error, state.turn);
      const raw = called.response.content ?? "";
      const record = {
        rawResponse: raw,
        program: null,
        result: { error: ending.ok ? null : ending.fail },
        prints: [],
        toolCalls: [],
        success: false,
      };
      recordTurn(state, type, record, messages, system);
      closeTurn();
      return finish(run, state, ending, { finalMessages: [{ role: "assistant", content: raw }] });
    }
    if (outcome.kind === "pause") {
      // Cancelled while the turn ran (a call was held, then another saw the abort): the run ends
      // as aborted, keeping the calls that ran; no state is made for a run the host stopped.
      if (isAborted(run)) {
        closeTurn();
        return finish(run, state, abortEnding(run), { extraToolCalls: pausedRecords(outcome.pause) });
      }
      state.syntheticIds = syntheticIdsBefore;
      const waiting = requestApprovals(run, state, outcome.pause, spanId);
      closeTurn();
      const at = {
        type,
        response: called.response,
        streamed: called.streamed,
        system,
        messages: [...messages],
      };
      return pauseRun(run, state, outcome.pause, waiting, at);
    }
    recordTurn(state, type, outcome.record, messages, system);
    closeTurn(outcome.record.program, outcome.record.success);
    // Cancelled while the turn ran: keep what it produced, then end.
    if (isAborted(run)) {
      if (outcome.kind === "continue") state.messages.push(...outcome.append);
      return aborted(run, state, state.turn);
    }
    if (outcome.kind === "stop") return finish(run, state, outcome.ending, outcome.finish);

    const before = mode.guarded ? guardState(state) : undefined;
    state.messages.push(...outcome.append);
    mode.advance(state);
    const guard = run.options.continuationGuard;
    if (mode.guarded && guard !== undefined && before !== undefined) {
      const decision = guard(state.turn - 1, before, guardState(state)) as unknown;
      if (decision !== "continue") {
        const stop = (
          decision as {
            stop?: { ok?: unknown; return?: unknown; fail?: { reason: string; message: string } };
          } | null
        )?.stop;
        if (
          typeof decision !== "object" ||
          decision === null ||
          stop === undefined ||
          typeof stop.ok !== "boolean"
        ) {
          throw new AgentError(
            "PTC_AGENT_CALLBACK_ERROR",
            `continuationGuard returned invalid value: ${JSON.stringify(decision)}; return "continue" or { stop: { ok, return | fail } }`,
            { details: { option: "continuationGuard" } },
          );
        }
        const ending: Ending = stop.ok
          ? { ok: true, value: stop.return ?? null }
          : chosenFailure(
              stop.fail?.reason ?? "stopped",
              stop.fail?.message ?? "stopped by continuationGuard",
            );
        return finish(run, state, ending, { turns: state.turn - 1 });
      }
    }
  }
}

function emitTurnStart(run: Run, state: LoopState, mode: TurnMode, spanId: string, type: TurnType): void {
  run.events.emit(spanId, run.spanId, {
    type: "turn-start",
    turn: state.turn,
    turnType: type,
    toolsCount: mode.toolsCount(type),
    ...(type === "retry"
      ? { attempt: run.agent.retryTurns - state.retryRemaining + 1, remaining: state.retryRemaining }
      : {}),
  });
}

/**
 * A turn whose handling threw. The sandbox's own limits can surface here when a program's value is
 * turned into host data (a value with enormous shared structure, nesting deeper than the host
 * stack): those end the run with their reason; anything else is a bug, reported as such.
 */
function handlerFailure(error: unknown, turn: number): Ending {
  if (error instanceof LispError) return programFailure(error.reason, error.message);
  if (error instanceof RangeError && /call stack/i.test(errorMessage(error))) {
    return failure(
      "recursion_limit_exceeded",
      "the program's value is nested too deeply to hand to the host; return a flatter value",
    );
  }
  return failure("internal_error", `the agent failed while handling turn ${turn}: ${errorMessage(error)}`);
}

/** A function, so that checks after an await are not narrowed away by the one before it. */
function isAborted(run: Run): boolean {
  return run.abort.aborted;
}

function guardState(state: LoopState) {
  return { turn: state.turn, memory: externalizeMemory(state.memory), messages: [...state.messages] };
}

function recordTurn(
  state: LoopState,
  type: TurnType,
  record: TurnRecord,
  messages: readonly Message[],
  systemPrompt: string,
): void {
  state.turns.push({
    number: state.turn,
    type,
    rawResponse: record.rawResponse,
    program: record.program,
    result: record.result,
    prints: record.prints,
    toolCalls: record.toolCalls,
    memory: externalizeMemory(state.memory),
    success: record.success,
    // A copy: the conversation array grows after this turn.
    messages: [...messages],
    systemPrompt,
  });
  state.toolCalls.push(...record.toolCalls);
  state.prints.push(...record.prints);
}

/** A turn as `turn-end` reports it: its span, when it started, its program and the tokens before it. */
interface EndedTurn {
  readonly spanId: string;
  readonly type: TurnType;
  readonly started: number;
  readonly program: string | null;
  readonly success: boolean;
  readonly tokensBefore: { readonly input: number; readonly output: number };
}

function endTurn(run: Run, state: LoopState, turn: EndedTurn): void {
  const { spanId, type, started, program, success, tokensBefore } = turn;
  const input = state.tokens.input - tokensBefore.input;
  const output = state.tokens.output - tokensBefore.output;
  run.events.emit(spanId, run.spanId, {
    type: "turn-end",
    turn: state.turn,
    turnType: type,
    success,
    program,
    durationMs: Date.now() - started,
    ...(input > 0 ? { inputTokens: input } : {}),
    ...(output > 0 ? { outputTokens: output } : {}),
  });
}

export function abortEnding(run: Run): Ending {
  return failure("aborted", `The run was aborted${abortDetail(run.abort.reason)}`);
}

/** The host chose the reason: an Error (its message) or a string says why; it is read defensively. */
function abortDetail(reason: unknown): string {
  if (typeof reason === "string") return `: ${errorMessage(reason)}`;
  try {
    if (!(reason instanceof Error)) return "";
  } catch {
    return ""; // a revoked Proxy
  }
  return `: ${errorMessage(reason)}`;
}

export function aborted(run: Run, state: LoopState, turns = state.turn - 1): RunResult {
  return finish(run, state, abortEnding(run), { turns });
}
