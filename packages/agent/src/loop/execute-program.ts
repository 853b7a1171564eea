/**
 * Runs one program for a turn: a fresh @ptc/lisp session seeded with the run's memory, `*1 *2 *3`
 * and journal; the context (plus `data/fail` after a failed turn); the tools the program may call,
 * each going through the run's tool cache when it is `cache: true`; the run's signal and limits.
 * It runs where the run runs its programs (run.programs: the host's thread or a worker); tools,
 * the cache and events stay on the host either way.
 * The run's state is not touched here: the caller decides what of the outcome to keep.
 *
 * Each tool reaches @ptc/lisp with its own `validate` and `signature`, so a call whose arguments
 * do not fit fails the program with `run`'s own `invalid_tool_args` error, before the agent's side
 * of the call (the cache, `execute`) is reached; the agent's side receives the checked arguments.
 */
import {
  createSession,
  type LedgerCall,
  type LedgerEntry,
  type Limits,
  type RunResult,
  type ToolObject,
} from "@ptc/lisp";
import { canonicalCacheKey, type Tool, type ToolArgsValidation } from "@ptc/tool";
import { AGENT_MAX_ITERATIONS } from "../agent/program-limits.js";
import { callNeedsApproval, hasApprovalPolicy, unpausableMessage } from "../approvals/approval-policy.js";
import type { HeldCall, TurnPause } from "../approvals/paused-turn.js";
import { ReplayDivergedError } from "../approvals/replay-diverged.js";
import { errorMessage } from "../error-message.js";
import { type AbortWatch, watchAbort } from "../model/abort-watch.js";
import type { ToolCallRecord } from "../step/step-types.js";
import { invokeTool, reportCacheHit } from "../tools/invoke-tool.js";
import { budgetIntrospection } from "./budget-introspection.js";
import { toProgramValue } from "./program-value.js";
import type { LoopState, Run } from "./run-types.js";

export interface ProgramOutcome {
  readonly result: RunResult;
  /** Memory after the program (unchanged when it failed). */
  readonly memory: Record<string, unknown>;
  readonly history: unknown[];
  readonly journal: Record<string, unknown> | null;
  readonly summaries: Record<string, string>;
  /** The program's tool calls, cache hits included (and, in a resumed turn, those of its earlier attempts). */
  readonly toolCalls: ToolCallRecord[];
  /**
   * Set when the program paused at calls that need approval. Nothing of the attempt is kept but
   * what this says: the program runs again from its start once the calls are decided.
   */
  readonly pause?: TurnPause & { readonly layer: "ptc_lisp" };
}

export interface ProgramOptions {
  readonly turn: number;
  /** Tools the program may call. */
  readonly inventory: readonly Tool[];
  readonly parentSpanId: string;
}

export function programLimits(run: Run): Partial<Limits> {
  const { agent } = run;
  return {
    timeoutMs: agent.timeout,
    parallelTimeoutMs: agent.pmapTimeout,
    parallelConcurrency: agent.pmapMaxConcurrency,
    maxPrintLength: agent.formatOptions.maxPrintLength,
    maxIterations: AGENT_MAX_ITERATIONS,
    ...(agent.maxToolCalls === undefined ? {} : { maxToolCalls: agent.maxToolCalls }),
    ...agent.limits,
  };
}

/** A program may not outlive the mission: its timeout is cut to the time the mission has left. */
function withinDeadline(run: Run, limits: Partial<Limits>): Partial<Limits> {
  if (run.deadline === undefined || limits.timeoutMs === undefined) return limits;
  const left = Math.max(1, run.deadline - Date.now());
  return left < limits.timeoutMs ? { ...limits, timeoutMs: left } : limits;
}

export async function executeProgram(
  run: Run,
  state: LoopState,
  source: string,
  options: ProgramOptions,
): Promise<ProgramOutcome> {
  // A resumed turn: the attempt's ledger and records, and the decisions (used once).
  const resumed = state.resumed?.layer === "ptc_lisp" ? state.resumed : undefined;
  state.resumed = undefined;
  const records: ToolCallRecord[] = [...(resumed?.records ?? [])];
  const approved = resumed?.approved ?? new Map<string, string>();
  // A program that ends (a timeout, an error elsewhere) while a tool still runs stops that tool:
  // its signal aborts and its call is settled and recorded before the turn is.
  const programDone = new AbortController();
  // Calls wait on this watch, not on the signal: a pmap has many calls waiting at once.
  const stop = watchAbort(programDone.signal);
  const pending = new Set<Promise<unknown>>();
  const tools: Record<string, ToolObject> = {};
  for (const tool of options.inventory) {
    tools[tool.name] = {
      execute: (args, toolOptions) => {
        const approvalId = approved.get(toolOptions.position ?? "");
        const call = callFromProgram(run, state, {
          tool,
          args,
          records,
          options,
          programDone: stop,
          approvalId,
        });
        pending.add(call);
        const settled = () => pending.delete(call);
        call.then(settled, settled);
        return call;
      },
      validate: (args) => checkFromProgram(tool, args, records, options),
      signature: tool.signature,
    };
  }
  const session = createSession({
    bindings: state.memory,
    history: state.history,
    ...(state.journal === null ? {} : { journal: state.journal }),
  });
  const context = state.lastFail === null ? run.context : { ...run.context, fail: { ...state.lastFail } };
  const held = new Map<string, HeldCall>();
  const pauseBefore = options.inventory.some(hasApprovalPolicy)
    ? (call: LedgerCall) => holdForApproval(run, state, options, call, held)
    : undefined;
  let result: RunResult;
  try {
    result = await run.programs.run(source, {
      context,
      tools,
      session,
      budget: budgetIntrospection(run, state),
      limits: withinDeadline(run, programLimits(run)),
      ...(run.signal === undefined ? {} : { signal: run.signal }),
      ...(resumed === undefined ? {} : { ledger: resumed.ledger }),
      ...(pauseBefore === undefined ? {} : { pauseBefore }),
    });
  } catch (error) {
    // `run` throws only for invalid options (e.g. a bad `limits` entry): a host mistake, reported
    // to the model as a runtime error so that the run itself still ends cleanly.
    result = {
      ok: false,
      error: { reason: "runtime_error", message: `the program could not start: ${(error as Error).message}` },
      prints: [],
      toolCalls: [],
      warnings: [],
      durationMs: 0,
    };
  }
  if (pending.size > 0) {
    programDone.abort(new Error("the program ended before the tool answered"));
    await Promise.allSettled([...pending]);
  }
  stop.dispose();
  if (!result.ok && result.error.reason === "replay_diverged")
    throw new ReplayDivergedError(result.error.message, records);
  if (!result.ok && result.error.reason === "paused") {
    return {
      result,
      memory: state.memory,
      history: state.history,
      journal: state.journal,
      summaries: {},
      toolCalls: records,
      pause: {
        layer: "ptc_lisp",
        ledger: result.toolCalls.map(toLedgerEntry),
        records,
        held: (result.paused ?? []).map((call) => heldCall(held, call)),
      },
    };
  }
  return {
    result,
    memory: result.ok ? { ...session.bindings() } : state.memory,
    history: [...session.history()],
    // A run keeps a journal when the agent journals (or was given one); then it is always an object.
    // A failed program's session keeps no task, but the tasks it completed did their work: they
    // are carried forward, so that the next turn's `(task "id" ...)` does not do it again.
    journal:
      state.journal === null
        ? null
        : result.ok
          ? session.journalEntries()
          : { ...session.journalEntries(), ...result.completedTasks },
    summaries: result.ok ? { ...result.summaries } : {},
    toolCalls: records,
  };
}

/** A program's call as the next attempt's ledger holds it: where, what, and how it answered. */
function toLedgerEntry(call: RunResult["toolCalls"][number]): LedgerEntry {
  const { position, name, args } = call;
  return call.error === undefined
    ? { position, name, args, result: call.result }
    : { position, name, args, error: call.error };
}

function heldCall(held: ReadonlyMap<string, HeldCall>, call: LedgerCall): HeldCall {
  const known = held.get(call.position);
  // Every call @ptc/lisp holds was held here; the fallback only keeps the types whole.
  return {
    ...(known ?? { toolName: call.name, args: call.args, layer: "ptc_lisp" as const }),
    position: call.position,
    programArgs: call.args,
  };
}

/**
 * @ptc/lisp's `pauseBefore`: true holds the call for a person. A call the run's cache answers does
 * not run its tool, so it needs no approval. An agent called as a tool cannot pause its parent:
 * its gated call fails instead (the tool does not run), with a message that says so.
 */
function holdForApproval(
  run: Run,
  state: LoopState,
  options: ProgramOptions,
  call: LedgerCall,
  held: Map<string, HeldCall>,
): boolean | Promise<boolean> {
  // Answered at once for tools without a policy: their calls need not wait a turn of the event loop.
  const tool = options.inventory.find((candidate) => candidate.name === call.name);
  if (tool === undefined || !hasApprovalPolicy(tool)) return false;
  if (tool.cache && state.toolCache.has(canonicalCacheKey(tool.name, call.args))) return false;
  return askPolicy(run, options, tool, call, held);
}

async function askPolicy(
  run: Run,
  options: ProgramOptions,
  tool: Tool,
  call: LedgerCall,
  held: Map<string, HeldCall>,
): Promise<boolean> {
  const needed = await callNeedsApproval(tool, call.args, {
    toolName: tool.name,
    layer: "ptc_lisp",
    turn: options.turn,
    context: run.context,
    agentName: run.agent.name,
  });
  if (!needed) return false;
  if (!run.pausable) throw new Error(unpausableMessage(tool.name));
  held.set(call.position, { toolName: tool.name, args: call.args, layer: "ptc_lisp" });
  return true;
}

/**
 * `tool.validate` for @ptc/lisp, which turns a rejection into the program's `invalid_tool_args`
 * error; the rejected call is recorded here, since it never reaches `callFromProgram`.
 */
function checkFromProgram(
  tool: Tool,
  args: Record<string, unknown>,
  records: ToolCallRecord[],
  options: ProgramOptions,
): ReturnType<Tool["validate"]> {
  const reject = (error: string) =>
    records.push({
      name: tool.name,
      args,
      error,
      durationMs: 0,
      cached: false,
      exposureLayer: "ptc_lisp",
      turn: options.turn,
    });
  const note = (result: ToolArgsValidation) => {
    if (!result.ok) reject(`invalid arguments: ${result.message}`);
    return result;
  };
  try {
    const result = tool.validate(args);
    return result instanceof Promise
      ? result.then(note, (error: unknown) => {
          reject(errorMessage(error));
          throw error;
        })
      : note(result);
  } catch (error) {
    reject(errorMessage(error));
    throw error;
  }
}

/** A program's call with arguments @ptc/lisp has checked: the run's cache, else the tool. */
async function callFromProgram(
  run: Run,
  state: LoopState,
  programCall: {
    readonly tool: Tool;
    readonly args: Record<string, unknown>;
    /** The program's records, appended to. */
    readonly records: ToolCallRecord[];
    readonly options: ProgramOptions;
    readonly programDone: AbortWatch;
    /** Set when a person approved this call: the tool receives it as an idempotency key. */
    readonly approvalId: string | undefined;
  },
): Promise<unknown> {
  const { tool, args, records, options, programDone, approvalId } = programCall;
  const marked = approvalId === undefined ? {} : { approval: "approved" as const };
  const key = tool.cache ? canonicalCacheKey(tool.name, args) : undefined;
  if (key !== undefined) {
    const hit = state.toolCache.get(key);
    if (hit !== undefined) {
      records.push({
        name: tool.name,
        args,
        result: hit.result,
        durationMs: 0,
        cached: true,
        exposureLayer: "ptc_lisp",
        turn: options.turn,
      });
      reportCacheHit(run, options.parentSpanId, tool.name, "ptc_lisp", options.turn);
      // Cached by a native call in combined mode: read it the way a fresh call would be read.
      const cached = toProgramValue(hit.result);
      if (!cached.ok) throw new Error(cached.error);
      return cached.value;
    }
  }
  const outcome = await invokeTool(run, state, tool, args, {
    layer: "ptc_lisp",
    turn: options.turn,
    parentSpanId: options.parentSpanId,
    stop: programDone,
    ...(approvalId === undefined ? {} : { approvalId }),
  });
  // A value a program could not read (a cycle, a function, an opaque host object) is a tool error
  // or converted to the data the model would see natively, never an opaque or misleading value.
  const converted = outcome.ok ? toProgramValue(outcome.value) : undefined;
  if (!outcome.ok || converted?.ok === false) {
    const message = outcome.ok ? (converted as { error: string }).error : outcome.message;
    records.push({
      name: tool.name,
      args,
      error: message,
      durationMs: outcome.durationMs,
      cached: false,
      exposureLayer: "ptc_lisp",
      turn: options.turn,
      ...marked,
    });
    throw !outcome.ok && isError(outcome.error) ? outcome.error : new Error(message);
  }
  const value = (converted as { value: unknown }).value;
  records.push({
    name: tool.name,
    args,
    result: value,
    durationMs: outcome.durationMs,
    cached: false,
    exposureLayer: "ptc_lisp",
    turn: options.turn,
    ...marked,
  });
  if (key !== undefined) state.toolCache.set(key, value, tool.maxCachedBytes);
  return value;
}

/** `instanceof Error`, false for what cannot even be asked (a revoked proxy throws). */
function isError(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}
