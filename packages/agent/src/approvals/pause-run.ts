/**
 * Ending a run that reached calls needing approval: each waiting call gets its id and an
 * `approval-requested` event, the step is built as for any ending (its `fail` says "paused", and
 * its tool calls include those the paused turn really made), and the state that `resume` needs is
 * written as JSON (signed with the run's `stateSecret`, stamped with its expiry).
 *
 * What the paused attempt of the turn did that the next attempt would redo (its program's defs,
 * journal, prints) is not kept; what it did that must not be redone (tool calls that ran, native
 * calls already answered) is.
 */
import { newSpanId } from "../events/event-sink.js";
import { toJsonSafe } from "../json/to-json-safe.js";
import { failure, finish } from "../loop/finish.js";
import type { LoopState, Run } from "../loop/run-types.js";
import {
  PAUSED_STATE_FORMAT,
  PAUSED_STATE_VERSION,
  type PausedRunResult,
  type PausedRunState,
  type PendingApproval,
  type ToolCallRecord,
} from "../step/step-types.js";
import type { TurnAt, TurnPause, WaitingCall } from "./paused-turn.js";
import { snapshotRun } from "./run-snapshot.js";
import { signState } from "./state-signature.js";

/** Calls of the paused turn that ran, for a step built before the turn is recorded. */
export function resumedRecords(state: LoopState): readonly ToolCallRecord[] {
  const resumed = state.resumed;
  if (resumed === undefined) return [];
  if (resumed.layer === "ptc_lisp") return resumed.records;
  return resumed.answered.flatMap((answer) => answer?.records ?? []);
}

/** Calls of a paused turn that ran (whether or not the run then pauses). */
export function pausedRecords(pause: TurnPause): readonly ToolCallRecord[] {
  return pause.layer === "ptc_lisp"
    ? pause.records
    : pause.answered.flatMap((answer) => answer?.records ?? []);
}

/** Gives each held call its id and reports it (inside its turn, before the turn ends). */
export function requestApprovals(
  run: Run,
  state: LoopState,
  pause: TurnPause,
  turnSpanId: string,
): WaitingCall[] {
  const waiting: WaitingCall[] = pause.held.map((call) => {
    state.approvalCount += 1;
    return { ...call, id: `${state.approvalToken}_${state.approvalCount}` };
  });
  for (const call of waiting) {
    run.events.emit(newSpanId(), turnSpanId, {
      type: "approval-requested",
      approvalId: call.id,
      toolName: call.toolName,
      exposureLayer: call.layer,
      turn: state.turn,
      ...(run.events.payloads ? { args: call.args } : {}),
    });
  }
  return waiting;
}

/** The latest instant a Date can hold (ECMAScript's time range: 8.64e15 ms after the epoch). */
const LATEST_DATE_MS = 8.64e15;

/**
 * When the state expires, as ISO 8601. A time-to-live past the last date there is (Infinity: none
 * at all) expires at that date: `toISOString` throws for a later one, and by then the calls before
 * the pause have run, so the pause must not be lost to it.
 */
function expiryOf(pausedAt: number, ttlMs: number): string {
  return new Date(Math.min(pausedAt + ttlMs, LATEST_DATE_MS)).toISOString();
}

export async function pauseRun(
  run: Run,
  state: LoopState,
  pause: TurnPause,
  waiting: readonly WaitingCall[],
  at: TurnAt,
): Promise<PausedRunResult> {
  const pending: PendingApproval[] = waiting.map(({ id, toolName, args, layer }) => ({
    id,
    toolName,
    args,
    layer,
  }));
  const names = [...new Set(pending.map((call) => call.toolName))].join(", ");
  const step = finish(
    run,
    state,
    failure(
      "paused",
      `the run paused: ${pending.length === 1 ? "a tool call needs" : `${pending.length} tool calls need`} approval (${names}); resume it with resume(agent, state, { approve, reject })`,
    ),
    { extraToolCalls: pausedRecords(pause) },
  ).step;
  const pausedAt = Date.now();
  const body = snapshotRun({
    prompt: run.agent.prompt,
    context: run.context,
    descriptions: run.descriptions,
    elapsedMs: pausedAt - run.startedAt,
    state,
    pausedTurn: {
      at,
      layer: pause.layer,
      waiting,
      ...(pause.layer === "native"
        ? { answered: pause.answered }
        : { ledger: pause.ledger, records: pause.records }),
    },
  });
  const ttl = run.options.stateTtlMs;
  const unsigned: PausedRunState = {
    format: PAUSED_STATE_FORMAT,
    version: PAUSED_STATE_VERSION,
    agentId: run.agentId,
    pausedAt: new Date(pausedAt).toISOString(),
    ...(ttl === undefined ? {} : { expiresAt: expiryOf(pausedAt, ttl) }),
    // The state is JSON data; the result's own `pending` keeps the arguments as they were.
    pending: pending.map((call) => ({ ...call, args: toJsonSafe(call.args) as Record<string, unknown> })),
    run: body,
  };
  const secret = run.options.stateSecret;
  const signed =
    secret === undefined ? unsigned : { ...unsigned, signature: await signState(unsigned, secret) };
  return { ok: false, paused: true, step, pending, state: signed };
}
