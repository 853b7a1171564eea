/**
 * `resume`: a paused run goes on with a person's decisions. The state is read and checked first
 * (a refused state runs nothing: no model call, no tool, no program); then the run is rebuilt as
 * it was when it paused and handles the turn it paused in again, from the model response it had
 * then: native calls already answered keep their answers, a program runs again from its start
 * with its earlier calls answered from its ledger, an approved call runs once, a rejected one is
 * a tool error. From there the run goes on like any run, and may pause again.
 */
import type { Agent } from "../agent/agent-types.js";
import { describe, isPlainObject } from "../agent/describe.js";
import { isAgent } from "../agent/is-agent.js";
import { RESUME_OPTION_KEYS, RUN_OPTION_ERROR, refuseUnknownKeys } from "../agent/option-keys.js";
import { AgentError } from "../errors.js";
import { newSpanId } from "../events/event-sink.js";
import { failure, finish } from "../loop/finish.js";
import type { LoopState } from "../loop/run-types.js";
import { hiddenToolNames } from "../minimization/hidden-tools.js";
import { watchAbort } from "../model/abort-watch.js";
import { checkRunOptions } from "../run/check-run-options.js";
import { announceRun, buildRun, driveAndClose, initialState, turnModeOf } from "../run/run-agent.js";
import type { PausedRunState, RunResult, ToolCallRecord } from "../step/step-types.js";
import type { Rejection, ResumeOptions } from "./approval-types.js";
import { type Decision, type ResumedTurn, rejectionText, type WaitingCall } from "./paused-turn.js";
import { readPausedState } from "./read-state.js";
import type { RestoredRun } from "./run-snapshot.js";

function misuse(option: string, message: string): AgentError {
  return new AgentError("PTC_AGENT_INVALID_RUN_OPTION", message, { details: { option } });
}

/**
 * Resumes a paused run (`state` from its result) with a decision on every pending call. Resolves
 * like `run`: `ok`, paused again, or failed (`invalid_state` or `state_expired` when the state is
 * refused). Throws `AgentError` only for misuse: bad options, or decisions that do not match the
 * pending calls one to one.
 */
export async function resume(
  agent: Agent,
  state: PausedRunState,
  options: ResumeOptions,
): Promise<RunResult> {
  if (!isAgent(agent)) {
    throw misuse("agent", `resume needs the agent made by createAgent that paused, got ${describe(agent)}`);
  }
  if (!isPlainObject(options as unknown)) {
    throw misuse("options", `resume needs options ({ llm, approve, reject }), got ${describe(options)}`);
  }
  refuseUnknownKeys(options, RESUME_OPTION_KEYS, RUN_OPTION_ERROR("resume"));
  checkRunOptions(options);
  const approve = options.approve ?? [];
  const reject = options.reject ?? [];
  checkDecisionShapes(approve, reject);

  const read = await readPausedState(agent, state, options.stateSecret, Date.now());
  const abort = watchAbort(options.signal);
  try {
    if (!read.ok) return refused(agent, options, abort, read.reason, read.message);
    const { restored } = read;
    const decisions = matchDecisions(restored.pausedTurn.waiting, approve, reject);
    const { run, resolved } = buildRun(agent, options, undefined, abort, {
      context: restored.context,
      descriptions: restored.descriptions,
      elapsedMs: restored.elapsedMs,
    });
    const loop = restored.state(
      options.toolCacheLimitBytes,
      run.mode.name === "combined" ? hiddenToolNames(run.tools.values(), agent) : undefined,
    );
    announceRun(run);
    run.events.emit(newSpanId(), run.spanId, {
      type: "run-resumed",
      turn: loop.turn,
      pausedAt: read.pausedAt,
      approved: [...approve],
      rejected: reject.map((rejection) => rejection.id),
    });
    if (!resolved.ok) {
      return finish(run, loop, failure(resolved.reason, resolved.message), { turns: loop.turn - 1 });
    }
    loop.resumed = resumedTurn(restored, loop, decisions);
    return await driveAndClose(run, loop, turnModeOf(run), restored.pausedTurn.at);
  } finally {
    abort.dispose();
  }
}

function checkDecisionShapes(approve: unknown, reject: unknown): void {
  if (!Array.isArray(approve) || approve.some((id) => typeof id !== "string")) {
    throw misuse("approve", `approve must be an array of pending call ids, got ${describe(approve)}`);
  }
  if (
    !Array.isArray(reject) ||
    reject.some(
      (rejection) =>
        !isPlainObject(rejection) ||
        typeof rejection.id !== "string" ||
        typeof rejection.message !== "string",
    )
  ) {
    throw misuse(
      "reject",
      `reject must be an array of { id, message } (the message is what the model reads), got ${describe(reject)}`,
    );
  }
}

/** Every waiting call decided exactly once, and nothing else decided. */
function matchDecisions(
  waiting: readonly WaitingCall[],
  approve: readonly string[],
  reject: readonly Rejection[],
): Map<string, { readonly call: WaitingCall; readonly decision: Decision }> {
  const byId = new Map(waiting.map((call) => [call.id, call]));
  const decided = new Map<string, { call: WaitingCall; decision: Decision }>();
  const decide = (id: string, decision: Decision, option: "approve" | "reject") => {
    const call = byId.get(id);
    if (call === undefined) {
      throw misuse(
        option,
        `${option}: ${JSON.stringify(id)} is not a pending call of this state; its pending ids are ${[...byId.keys()].map((key) => JSON.stringify(key)).join(", ")}`,
      );
    }
    if (decided.has(id))
      throw misuse(
        option,
        `${option}: ${JSON.stringify(id)} is decided twice; decide each pending call once`,
      );
    decided.set(id, { call, decision });
  };
  for (const id of approve) decide(id, { approved: true }, "approve");
  for (const { id, message } of reject) decide(id, { approved: false, message }, "reject");
  const undecided = waiting.filter((call) => !decided.has(call.id)).map((call) => call.id);
  if (undecided.length > 0) {
    throw misuse(
      "approve",
      `every pending call needs a decision: approve or reject ${undecided.map((id) => JSON.stringify(id)).join(", ")}`,
    );
  }
  return decided;
}

/** The paused turn with its decisions, for the turn's handler. */
function resumedTurn(
  restored: RestoredRun,
  loop: LoopState,
  decisions: ReadonlyMap<string, { readonly call: WaitingCall; readonly decision: Decision }>,
): ResumedTurn {
  const paused = restored.pausedTurn;
  if (paused.layer === "native") {
    const byIndex = new Map<number, { call: WaitingCall; decision: Decision }>();
    for (const entry of decisions.values()) byIndex.set(entry.call.index ?? -1, entry);
    return { layer: "native", answered: paused.answered ?? [], decisions: byIndex };
  }
  const ledger = [...(paused.ledger ?? [])];
  const records: ToolCallRecord[] = [...(paused.records ?? [])];
  const approved = new Map<string, string>();
  for (const { call, decision } of decisions.values()) {
    const entry = { position: call.position ?? "", name: call.toolName, args: call.programArgs ?? call.args };
    if (decision.approved) {
      ledger.push({ ...entry, approved: true });
      approved.set(entry.position, call.id);
    } else {
      const message = rejectionText(decision.message);
      ledger.push({ ...entry, error: message });
      records.push({
        name: call.toolName,
        args: call.args,
        error: message,
        durationMs: 0,
        cached: false,
        exposureLayer: "ptc_lisp",
        turn: loop.turn,
        approval: "rejected",
      });
    }
  }
  return { layer: "ptc_lisp", ledger, records, approved };
}

/** A state that cannot be resumed: a run that ends at once with why, having run nothing. */
function refused(
  agent: Agent,
  options: ResumeOptions,
  abort: ReturnType<typeof watchAbort>,
  reason: "invalid_state" | "state_expired",
  message: string,
): RunResult {
  const { run } = buildRun(agent, { ...options, context: {} }, undefined, abort);
  const loop = initialState(run, {}, undefined);
  announceRun(run);
  return finish(run, loop, failure(reason, message), { turns: 0 });
}
