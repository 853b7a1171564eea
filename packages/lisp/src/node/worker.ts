/**
 * The isolation worker: runs programs with `run` inside a worker thread, so the host can stop it
 * at any instant (`terminate()`) and cap its heap (`resourceLimits`). Tools stay in the host: each
 * call becomes a message out and a reply in. What it keeps between runs depends on its mode (see
 * protocol.ts): nothing, one Session of its own, or the functions it handed to a host-held session.
 *
 * Two rules keep the host safe from what a program builds here:
 * - A program's memory budget is capped at a quarter of the heap cap (`memoryCapBytes`), so the
 *   program's own accounting stops it long before V8's heap limit, which Node enforces only on a
 *   best-effort basis: one allocation V8 cannot interrupt (growing one huge array, a regex over a
 *   huge text) past a worker's heap limit aborts the whole process (nodejs/node#47224).
 * - Nothing leaves the worker that the host could not receive: values nested deeper than
 *   MAX_TRANSFER_DEPTH are refused here, and a result that cannot be sent turns into a failed
 *   run that changed nothing.
 *
 * This module must never be imported by the host side; it only makes sense as a worker entry.
 */
import { parentPort, workerData } from "node:worker_threads";
import { LispError } from "../errors.js";
import { type RunResult, run } from "../run.js";
import type { ToolFunction } from "../runtime/context.js";
import { HeldCall, type LedgerEntry } from "../runtime/ledger.js";
import { DEFAULT_LIMITS, type Limits } from "../runtime/limits.js";
import { createSession, type Session } from "../session.js";
import { defineOwn } from "../values/plain-object.js";
import { decodeValue, encodeValue, type TransferOptions } from "../values/transfer.js";
import { FunctionTable } from "./function-handles.js";
import {
  type ContextTransfer,
  type HostMessage,
  MAX_TRANSFER_DEPTH,
  type RunRequest,
  type SessionState,
  type ToolCallReply,
  type WorkerMessage,
  type WorkerSetup,
} from "./protocol.js";

const port = parentPort;
if (port === null) throw new Error("@ptc/lisp/node worker.js must be started as a worker thread");

const setup: WorkerSetup = {
  mode: "once",
  memoryCapBytes: DEFAULT_LIMITS.maxMemoryBytes,
  ...((workerData ?? {}) as Partial<WorkerSetup>),
};
/** Session mode: the worker's own session, and what it was before the last run (for "discard"). */
let session: Session | undefined = setup.mode === "session" ? createSession() : undefined;
let beforeLastRun: { run: number; state: Parameters<typeof createSession>[0] } | undefined;
/** Runner mode: functions handed to the host, so its session can hand them back. */
const functions = setup.mode === "runner" ? new FunctionTable() : undefined;
const incoming: TransferOptions = functions?.options ?? {};
/** The context entries of the previous run, for the host to reuse by key (see ContextTransfer). */
let heldContext = new Map<string, unknown>();
const outgoing: TransferOptions = { ...incoming, maxDepth: MAX_TRANSFER_DEPTH };

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const pendingCalls = new Map<number, PendingCall>();
/** The cancel switch of each run in progress, fired by the host's "abort" message. */
const cancellers = new Map<number, AbortController>();
let nextCall = 0;

function send(message: WorkerMessage): void {
  port?.postMessage(message);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function hostTool(runId: number, name: string): ToolFunction {
  return (args, options) =>
    new Promise((resolve, reject) => {
      const call = ++nextCall;
      let encoded: unknown;
      try {
        encoded = encodeValue(args, outgoing);
        pendingCalls.set(call, { resolve, reject });
        const { position } = options;
        send(
          position === undefined
            ? { type: "tool-call", run: runId, call, name, args: encoded }
            : { type: "tool-call", run: runId, call, name, args: encoded, position },
        );
      } catch (error) {
        pendingCalls.delete(call);
        reject(new Error(`its arguments could not be sent to the host: ${errorMessage(error)}`));
      }
    });
}

function settleCall(reply: ToolCallReply): void {
  const pending = pendingCalls.get(reply.call);
  if (pending === undefined) return;
  pendingCalls.delete(reply.call);
  if (reply.ok) {
    try {
      pending.resolve(decodeValue(reply.value, incoming));
    } catch (error) {
      pending.reject(error);
    }
  } else if (reply.held === true) {
    pending.reject(new HeldCall("the host holds the call for a decision"));
  } else if (reply.reason !== undefined) {
    pending.reject(new LispError(reply.reason, reply.message));
  } else {
    pending.reject(new Error(reply.message));
  }
}

/**
 * The limits the program runs with: the host's, with the memory budget capped (see the module
 * comment). `capped` says whether the cap lowered what the host asked for.
 */
function workerLimits(requested: Partial<Limits> | undefined): { limits: Partial<Limits>; capped: boolean } {
  const asked = requested?.maxMemoryBytes ?? DEFAULT_LIMITS.maxMemoryBytes;
  if (asked <= setup.memoryCapBytes) return { limits: requested ?? {}, capped: false };
  return { limits: { ...requested, maxMemoryBytes: setup.memoryCapBytes }, capped: true };
}

/** A memory_exceeded message that names the worker's cap when it was the cap that stopped the program. */
function explainCap(result: RunResult, capped: boolean): RunResult {
  if (!capped || result.ok || result.error.reason !== "memory_exceeded") return result;
  const heapMb = Math.round((setup.memoryCapBytes * 4) / (1024 * 1024));
  return {
    ...result,
    error: {
      ...result.error,
      message: `${result.error.message} (in an isolated worker a program may build at most a quarter of the worker's heap cap of ${heapMb} MB; the host can raise heapMb)`,
    },
  };
}

/**
 * What a program tells a model when something cannot leave the worker: which part failed to
 * cross, and what to do instead. In runner mode the host holds the session, so what a program
 * defines is copied back after it: the usual advice (keep a large value in a def) is then wrong.
 */
const UNSENDABLE = {
  value: {
    what: "the program's value",
    advice: "Return a smaller or flatter value (keep a large one in a def and return parts of it)",
  },
  state: {
    what: "the session's state (its defs, *1 *2 *3 and task results)",
    advice:
      "Keep smaller or flatter values in defs: the host holds this session, so what a program defines is copied back after it",
  },
} as const;

/** The failure a result becomes when it (or, in runner mode, the session's changes) cannot leave the worker. */
function unsendable(result: RunResult, error: unknown, part: keyof typeof UNSENDABLE = "value"): RunResult {
  const reason = error instanceof LispError ? error.reason : "runtime_error";
  const { what, advice } = UNSENDABLE[part];
  return {
    ok: false,
    error: {
      reason,
      message: `${what} could not be copied out of its isolated worker: ${errorMessage(error)}. ${advice}`,
    },
    prints: result.prints,
    toolCalls: [],
    warnings: result.warnings,
    durationMs: result.durationMs,
  };
}

/** The run's context: the entries sent now, and those the host reused from the previous run. */
function contextOf(transfer: ContextTransfer | undefined): Record<string, unknown> | undefined {
  if (transfer === undefined) {
    heldContext = new Map();
    return undefined;
  }
  const sent = decodeValue(transfer.sent, incoming) as Record<string, unknown>;
  const context: Record<string, unknown> = {};
  for (const key of transfer.reused) {
    if (!heldContext.has(key))
      throw new Error(`internal: the host reused context entry ${key}, which this worker does not hold`);
    defineOwn(context, key, heldContext.get(key));
  }
  for (const key of Object.keys(sent)) defineOwn(context, key, sent[key]);
  heldContext = new Map(Object.entries(context));
  return context;
}

/** Runner mode: the session to run against, from the state the host sent. */
function sessionFrom(state: SessionState): Session {
  return createSession({
    bindings: decodeValue(state.bindings, incoming) as Record<string, unknown>,
    history: decodeValue(state.history, incoming) as unknown[],
    journal: decodeValue(state.journal, incoming) as Record<string, unknown>,
  });
}

/**
 * Runner mode: what the run changed (defs it made, *1 *2 *3, tasks it completed). The journal goes
 * back as the ids it now holds, in order, with the values of the tasks this run recorded: a
 * `task-reset` removes an id and a task recorded again after one moves it to the end, and the
 * host's session must show both, while the values it already holds need not be copied back.
 */
function changes(
  runSession: Session,
  result: RunResult,
  journalBefore: ReadonlyMap<string, unknown>,
): unknown {
  const bindings: Record<string, unknown> = Object.create(null);
  if (result.ok) for (const name of result.defined) bindings[name] = runSession.get(name);
  const journal: Record<string, unknown> = Object.create(null);
  const journalOrder: string[] = [];
  for (const [id, value] of runSession.journal.list()) {
    journalOrder.push(id);
    if (!journalBefore.has(id) || !Object.is(journalBefore.get(id), value)) journal[id] = value;
  }
  return { bindings, history: [...runSession.history()], journal, journalOrder };
}

/** Sends the result (and the session's changes); a failure to encode or send changes nothing. */
function sendResult(
  request: RunRequest,
  result: RunResult,
  runSession: Session | undefined,
  journalBefore: ReadonlyMap<string, unknown>,
): void {
  // What failed to cross, for the message (see UNSENDABLE).
  let copying: keyof typeof UNSENDABLE = "value";
  try {
    // Its own fields as a plain object: a result's class (result-json.ts) does not cross threads.
    const encoded = encodeValue({ ...result }, outgoing);
    if (request.state !== undefined && runSession !== undefined && result.ok) {
      copying = "state";
      const state = encodeValue(changes(runSession, result, journalBefore), outgoing) as SessionState;
      send({ type: "result", run: request.run, result: encoded, state });
    } else {
      send({ type: "result", run: request.run, result: encoded });
    }
  } catch (error) {
    // The run's changes go with its result: a session is put back as it was.
    if (setup.mode === "session") restore(request.run);
    send({
      type: "result",
      run: request.run,
      result: encodeValue({ ...unsendable(result, error, copying) }),
    });
  }
}

function snapshot(current: Session): Parameters<typeof createSession>[0] {
  return { bindings: current.bindings(), history: [...current.history()], journal: current.journalEntries() };
}

function restore(runId: number): void {
  if (beforeLastRun?.run === runId) session = createSession(beforeLastRun.state);
  beforeLastRun = undefined;
}

async function execute(request: RunRequest): Promise<void> {
  const tools: Record<string, ToolFunction> = Object.create(null);
  for (const name of request.tools) tools[name] = hostTool(request.run, name);
  const canceller = new AbortController();
  cancellers.set(request.run, canceller);
  let result: RunResult;
  let runSession: Session | undefined;
  let journalBefore: ReadonlyMap<string, unknown> = new Map();
  let capped = false;
  try {
    const context = contextOf(request.context);
    const budget = decodeValue(request.budget, incoming);
    const ledger =
      request.ledger === undefined ? undefined : (decodeValue(request.ledger, incoming) as LedgerEntry[]);
    runSession = request.state === undefined ? session : sessionFrom(request.state);
    if (runSession !== undefined) journalBefore = new Map(runSession.journal.list());
    if (setup.mode === "session" && session !== undefined)
      beforeLastRun = { run: request.run, state: snapshot(session) };
    const limited = workerLimits(request.limits);
    capped = limited.capped;
    send({ type: "started", run: request.run });
    result = await run(request.source, {
      ...(context === undefined ? {} : { context }),
      ...(budget === undefined ? {} : { budget }),
      ...(runSession === undefined ? {} : { session: runSession }),
      ...(request.engine === undefined ? {} : { engine: request.engine }),
      // The host holds calls (its pauseBefore); here the ledger only makes the run resumable.
      ...(ledger === undefined ? {} : { ledger }),
      limits: limited.limits,
      tools,
      signal: canceller.signal,
    });
  } catch (error) {
    send({
      type: "fault",
      run: request.run,
      reason: error instanceof LispError ? error.reason : undefined,
      message: errorMessage(error),
    });
    return;
  } finally {
    cancellers.delete(request.run);
  }
  send({ type: "finished", run: request.run });
  sendResult(request, explainCap(result, capped), runSession, journalBefore);
}

port.on("message", (message: HostMessage) => {
  if (typeof message !== "object" || message === null) return;
  if (message.type === "run") void execute(message);
  else if (message.type === "tool-result") settleCall(message);
  else if (message.type === "abort") cancellers.get(message.run)?.abort();
  else if (message.type === "discard") restore(message.run);
});
