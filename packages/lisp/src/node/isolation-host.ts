/**
 * The host side of one isolation worker: starts it, sends it programs, serves its tool calls, and
 * turns every way it can die into a RunResult. A run that outlives its wall-clock limit (plus a
 * small grace for the worker's own, cooperative timeout to answer first) is stopped by
 * `terminate()`, which works even while the worker is stuck inside one long builtin call; a run
 * that outgrows the heap cap is stopped by V8 itself. A run whose AbortSignal fires is asked to
 * stop (the worker's own run sees a signal), and terminated if it does not answer within
 * ABORT_GRACE_MS.
 *
 * Every run settles. From the moment a program is sent until its promise settles, a watchdog
 * timer is armed (for starting, running, then copying the result out); it is replaced as the run
 * moves on and cleared only when the run settles, so no message that goes missing or cannot be
 * read leaves a run waiting forever.
 *
 * This module must never throw from an event handler (an exception there takes the host process
 * down): worker messages are shape-checked (read-message.ts), tool errors read defensively
 * (thrown-text.ts), and every copy across the boundary is guarded. It must never let a worker's
 * death reject a run's promise (it is a program outcome), and never answer a tool call for a run
 * that has already ended.
 */
import { Worker } from "node:worker_threads";
import type { RunOptions, RunResult } from "@ptc/lisp";
import { LispError } from "../errors.js";
import { withJson } from "../result-json.js";
import { subscribeAbort } from "../runtime/abort-fanout.js";
import { now } from "../runtime/clock.js";
import type { ToolCallOptions, ToolCallRecord, ToolObject } from "../runtime/context.js";
import { abortedError } from "../runtime/context.js";
import { checkLedger, isHeldCall, type PauseBefore } from "../runtime/ledger.js";
import { type Limits, resolveLimits } from "../runtime/limits.js";
import { type LongTimer, startTimer } from "../runtime/long-timer.js";
import { refuseUnknownRunOptions } from "../runtime/option-keys.js";
import { checkSignal } from "../runtime/signal-option.js";
import { invokeTool, normalizeTools } from "../runtime/tool-options.js";
import type { Session } from "../session.js";
import { defineOwn, isPlainObject } from "../values/plain-object.js";
import { decodeValue, encodeValue, type TransferOptions } from "../values/transfer.js";
import { hostFunctionOptions } from "./function-handles.js";
import type {
  ContextTransfer,
  HostMessage,
  RunDone,
  SessionState,
  ToolCallReply,
  ToolCallRequest,
  WorkerMessage,
  WorkerMode,
  WorkerSetup,
} from "./protocol.js";
import { readWorkerMessage } from "./read-message.js";
import { describeStop, type Phase, type StopFacts, type StopReason, stopMessage } from "./stop-messages.js";
import { thrownReason, thrownText } from "./thrown-text.js";
import { workerFlags } from "./worker-flags.js";

/** Default heap cap of a worker, in MB. A program's memory budget in it is at most a quarter of this. */
export const DEFAULT_HEAP_MB = 256;

/**
 * How long a cancelled run may take to stop by itself. A worker waiting on a tool answers within
 * milliseconds; one busy in a loop or a builtin cannot read the message until the program ends, so
 * waiting longer would only delay the stop.
 */
export const ABORT_GRACE_MS = 100;

/**
 * How long a worker may take to start a program (loading the package, copying the context in) or
 * to hand back its result (copying it out) before it is taken for stuck and stopped.
 */
export const TRANSFER_TIMEOUT_MS = 30_000;

/** Options of one program run in a worker: those of `run`, without a Session (see createIsolatedSession). */
export type IsolatedProgramOptions = Omit<RunOptions, "session">;

export interface WorkerOptions {
  readonly heapMb: number;
  readonly workerUrl: URL | string;
  readonly mode: WorkerMode;
  /** Default TRANSFER_TIMEOUT_MS; tests shorten it. */
  readonly transferTimeoutMs?: number;
  /** Send a context entry only when its value is not the one sent with the previous run. */
  readonly reuseContext?: boolean;
}

interface ActiveRun {
  readonly id: number;
  readonly limits: Limits;
  readonly tools: ReadonlyMap<string, ToolObject>;
  /** Passed to every tool call: the run's signal, if any. */
  readonly toolCallOptions: ToolCallOptions;
  /** The run's pauseBefore: asked here, on the host, before a call runs. */
  readonly pauseBefore: PauseBefore | undefined;
  /** Positions the ledger approves: they run without asking pauseBefore (the worker checked the call is the same). */
  readonly approved: ReadonlySet<string>;
  /** The host's own log of tool calls, reported when the worker dies and cannot send its own. */
  readonly toolCalls: ToolCallRecord[];
  /** Runner mode: the host-held session the program runs against, held busy until the run settles. */
  readonly session: Session | undefined;
  readonly startedAt: number;
  phase: Phase;
  /** Always armed until the run settles (see the module comment). */
  watchdog: LongTimer | undefined;
  /** Set once the run's signal fired. */
  cancelled: boolean;
  /** Removes the run's abort listener from its signal. */
  detach: (() => void) | undefined;
  resolve(result: RunResult): void;
  reject(error: unknown): void;
}

/** Time the worker gets past its limit to report its own timeout before it is terminated. */
function graceMs(timeoutMs: number): number {
  return Math.min(1000, Math.max(100, timeoutMs / 10));
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}

export function checkHeapMb(heapMb: unknown): number {
  if (heapMb === undefined) return DEFAULT_HEAP_MB;
  if (typeof heapMb !== "number" || !Number.isFinite(heapMb) || heapMb < 8) {
    throw new LispError(
      "invalid_options",
      `heapMb must be a number of megabytes, at least 8 (default ${DEFAULT_HEAP_MB}), got ${String(heapMb)}`,
    );
  }
  return heapMb;
}

function failed(error: RunResult & { ok: false }): RunResult {
  return withJson(error);
}

export class IsolationHost {
  private readonly worker: Worker | undefined;
  private active: ActiveRun | undefined;
  private nextRun = 0;
  /** Whether the worker ever began a program (so a later death is not a failure to start). */
  private everStarted = false;
  private readonly heapMb: number;
  private readonly mode: WorkerMode;
  private readonly transferTimeoutMs: number;
  /** With reuseContext: the context entries the worker holds, as the host passed them. */
  private sentContext: Map<string, unknown> | undefined;
  /** How program values are copied to and from this worker (runner mode: functions by handle). */
  private readonly transfer: TransferOptions;
  /** Set once the worker is gone, with why. */
  stopped: StopReason | undefined;
  /** The error the worker died of, when it crashed. */
  crash: Error | undefined;
  /** Set when the worker could not be started at all; every run then rejects with it. */
  startError: LispError | undefined;
  /** The worker's exit code, once it exited. */
  exitCode: number | undefined;
  /** An error the worker threw before the host saw it start a program, until its exit (onError). */
  private earlyError: { readonly error: unknown } | undefined;

  constructor(options: WorkerOptions) {
    this.heapMb = options.heapMb;
    this.mode = options.mode;
    this.transferTimeoutMs = options.transferTimeoutMs ?? TRANSFER_TIMEOUT_MS;
    this.sentContext = options.reuseContext === true ? new Map() : undefined;
    this.transfer = options.mode === "runner" ? hostFunctionOptions(this) : {};
    const setup: WorkerSetup = {
      mode: options.mode,
      memoryCapBytes: Math.floor((options.heapMb * 1024 * 1024) / 4),
    };
    let worker: Worker | undefined;
    try {
      const url = options.workerUrl;
      worker = new Worker(typeof url === "string" && url.startsWith("file:") ? new URL(url) : url, {
        workerData: setup,
        execArgv: workerFlags(process.execArgv),
        resourceLimits: {
          maxOldGenerationSizeMb: options.heapMb,
          maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(options.heapMb / 8))),
        },
        stdout: false,
        stderr: false,
      });
    } catch (error) {
      // Never a synchronous throw from a constructor the caller cannot guard: the failure waits
      // for the first run, which rejects with it.
      this.failToStart(error);
    }
    this.worker = worker;
    if (worker === undefined) return;
    worker.on("message", (data: unknown) => this.onMessage(data));
    worker.on("messageerror", (error: unknown) => this.onUnreadable(error));
    worker.on("error", (error: unknown) => this.onError(error));
    worker.on("exit", (code: unknown) => this.onExit(code));
    // An idle worker must never keep the host process alive. (After the listeners: adding a
    // message listener refs the worker again.)
    worker.unref();
  }

  get busy(): boolean {
    return this.active !== undefined;
  }

  /**
   * Runs one program in the worker. Throws only for misuse (bad options, a busy worker) and when
   * the worker could not be started, like `run` rejects.
   */
  run(source: string, options: RunOptions): Promise<RunResult> {
    if (typeof source !== "string") {
      throw new LispError("invalid_options", `source must be a string, got ${typeof source}`);
    }
    if (this.active !== undefined) {
      throw new LispError(
        "invalid_options",
        "this isolated worker is already running a program: await it before starting the next one",
      );
    }
    if (this.startError !== undefined) throw this.startError;
    refuseUnknownRunOptions(options);
    const limits = resolveLimits(options.limits);
    const tools = normalizeTools(options.tools);
    if (options.context !== undefined && options.context !== null && !isPlainObject(options.context)) {
      throw new LispError(
        "invalid_options",
        "context must be a plain object whose keys are the data/ names (e.g. { orders: [...] })",
      );
    }
    if (options.engine !== undefined && !["adaptive", "fast", "general"].includes(options.engine)) {
      throw new LispError(
        "invalid_options",
        `engine must be "adaptive", "fast" or "general", got ${String(options.engine)}`,
      );
    }
    const signal = checkSignal(options.signal);
    const approved = new Set<string>();
    if (options.ledger !== undefined) {
      for (const entry of checkLedger(options.ledger).values())
        if (entry.approved === true) approved.add(entry.position);
    }
    const pauseBefore = options.pauseBefore;
    if (pauseBefore !== undefined && typeof pauseBefore !== "function") {
      throw new LispError(
        "invalid_options",
        `pauseBefore must be a function (call) => boolean, got ${typeof pauseBefore}`,
      );
    }
    const resumable = options.ledger !== undefined || pauseBefore !== undefined;
    const ledger = resumable ? this.encodeForWorker(options.ledger ?? [], "the ledger") : undefined;
    const session = options.session;
    if (session !== undefined && this.mode !== "runner") {
      throw new LispError("invalid_options", "session is not an option here; use createIsolatedRunner");
    }
    const context = this.contextTransfer(options.context ?? undefined);
    const budget = this.encodeForWorker(options.budget, "the budget");
    const state = session === undefined ? undefined : this.sessionState(session);
    if (this.stopped !== undefined || this.worker === undefined) {
      throw new Error("internal: run on a stopped isolation worker");
    }
    if (signal?.aborted) {
      // Cancelled before it began: the worker (and a session's state in it) is not disturbed.
      const { reason, message } = abortedError();
      return Promise.resolve(
        failed({
          ok: false,
          error: { reason, message },
          prints: [],
          toolCalls: [],
          warnings: [],
          durationMs: 0,
        }),
      );
    }

    session?.acquire();
    const id = ++this.nextRun;
    const worker = this.worker;
    return new Promise<RunResult>((resolve, reject) => {
      const run: ActiveRun = {
        id,
        limits,
        tools,
        toolCallOptions: signal === undefined ? {} : { signal },
        pauseBefore,
        approved,
        toolCalls: [],
        session,
        startedAt: now(),
        phase: "starting",
        watchdog: undefined,
        cancelled: false,
        detach: undefined,
        resolve,
        reject,
      };
      this.active = run;
      this.arm(run, this.transferTimeoutMs);
      // Through the fan-out: many isolated runs may share one signal (runtime/abort-fanout.ts).
      if (signal !== undefined) run.detach = subscribeAbort(signal, () => this.cancel(run));
      worker.ref();
      const sent = this.post({
        type: "run",
        run: id,
        source,
        context,
        budget,
        tools: [...tools.keys()],
        limits: options.limits,
        engine: options.engine,
        state,
        ...(ledger === undefined ? {} : { ledger }),
      });
      if (sent.ok) {
        if (this.sentContext !== undefined) this.sentContext = new Map(Object.entries(options.context ?? {}));
      } else {
        this.sentContext?.clear();
        this.settle(run, () =>
          run.reject(
            new LispError(
              "invalid_options",
              `cannot send the program's data to the isolated worker: ${sent.message}. Pass plain JSON-shaped data`,
            ),
          ),
        );
      }
    });
  }

  /** Stops the worker. A run in progress ends with a failure. */
  async close(): Promise<void> {
    this.stopped ??= "closed";
    this.finishKilled("closed");
    await this.worker?.terminate();
  }

  private failToStart(error: unknown): void {
    this.stopped ??= "crashed";
    const text = thrownText(error);
    this.crash ??= error instanceof Error ? error : new Error(text);
    this.startError ??= new LispError(
      "execution_error",
      `could not start the isolated worker: ${text}`,
      undefined,
      { cause: error },
    );
  }

  private encodeForWorker(value: unknown, what: string): unknown {
    try {
      return encodeValue(value, this.transfer);
    } catch (error) {
      throw new LispError(
        "invalid_options",
        `cannot copy ${what} into the isolated worker: ${thrownText(error)}`,
        undefined,
        { cause: error },
      );
    }
  }

  /** The context as it crosses: whole, or (reuseContext) only the entries the worker lacks. */
  private contextTransfer(
    context: Readonly<Record<string, unknown>> | undefined,
  ): ContextTransfer | undefined {
    if (context === undefined) return undefined;
    const held = this.sentContext;
    const entries: Record<string, unknown> = {};
    const reused: string[] = [];
    for (const [key, value] of Object.entries(context)) {
      if (held?.has(key) && held.get(key) === value) reused.push(key);
      else defineOwn(entries, key, value);
    }
    return { sent: this.encodeForWorker(entries, "the context"), reused };
  }

  private sessionState(session: Session): SessionState {
    return {
      bindings: this.encodeForWorker(session.bindings(), "the session's definitions"),
      history: this.encodeForWorker([...session.history()], "the session's *1 *2 *3"),
      journal: this.encodeForWorker(session.journalEntries(), "the session's journal"),
    };
  }

  private post(message: HostMessage): { ok: true } | { ok: false; message: string } {
    try {
      this.worker?.postMessage(message);
      return { ok: true };
    } catch (error) {
      // A value the structured clone refuses after encoding (a getter that throws, data nested
      // deeper than the host's stack allows): the caller decides what failed.
      return { ok: false, message: thrownText(error) };
    }
  }

  private arm(run: ActiveRun, delayMs: number): void {
    run.watchdog?.clear();
    // A time limit past what a timer holds must not fire at once; Infinity sets none (long-timer.ts).
    run.watchdog = startTimer(() => this.expire(run), delayMs);
  }

  private expire(run: ActiveRun): void {
    if (this.active !== run) return;
    if (run.cancelled) this.kill("aborted");
    else if (run.phase === "running") this.kill("timeout");
    else this.kill("stalled");
  }

  private onMessage(data: unknown): void {
    const read = readWorkerMessage(data);
    if (!read.ok) {
      this.breakDown("crashed", new Error("the isolated worker sent a message the host does not understand"));
      return;
    }
    const message: WorkerMessage = read.message;
    const run = this.active;
    if (run === undefined || message.run !== run.id) return;
    switch (message.type) {
      case "started":
        this.everStarted = true;
        run.phase = "running";
        if (run.cancelled) this.arm(run, ABORT_GRACE_MS);
        else this.arm(run, run.limits.timeoutMs + graceMs(run.limits.timeoutMs));
        return;
      case "finished":
        // The program is done; copying a large result out must not count as running too long,
        // but it must not wait forever either.
        run.phase = "copying";
        if (!run.cancelled) this.arm(run, this.transferTimeoutMs);
        return;
      case "tool-call":
        this.serveTool(run, message).catch((error: unknown) => this.breakDown("crashed", error));
        return;
      case "result":
        this.finishRun(run, message);
        return;
      case "fault": {
        // The worker may not hold this run's context: send it whole next time.
        this.sentContext?.clear();
        const error =
          message.reason === undefined
            ? new Error(message.message)
            : new LispError(message.reason, message.message);
        this.settle(run, () => run.reject(error));
        return;
      }
    }
  }

  private finishRun(run: ActiveRun, message: RunDone): void {
    let result: RunResult;
    try {
      const decoded = decodeValue(message.result, this.transfer) as RunResult;
      if (typeof decoded !== "object" || decoded === null || typeof decoded.ok !== "boolean") {
        throw new Error("the result is not a RunResult");
      }
      result = withJson(decoded);
      if (result.ok && run.session !== undefined && message.state !== undefined) {
        adopt(run.session, message.state, this.transfer);
      }
    } catch (error) {
      // The worker committed what it ran (a session's defs); the run is reported as failed, so its
      // changes are put back, as for any failed program.
      if (this.mode === "session") this.post({ type: "discard", run: run.id });
      result = failed({
        ok: false,
        error: {
          reason: "execution_error",
          message: `the program ran, but its result could not be read on the host (${thrownText(error)}); it counts as failed and changed nothing. Return a smaller value`,
        },
        prints: [],
        toolCalls: run.toolCalls,
        warnings: [],
        durationMs: now() - run.startedAt,
      });
    }
    this.settle(run, () => run.resolve(result));
  }

  private async serveTool(run: ActiveRun, request: ToolCallRequest): Promise<void> {
    const started = now();
    let args: Record<string, unknown> = {};
    let reply: ToolCallReply;
    try {
      args = decodeValue(request.args, this.transfer) as Record<string, unknown>;
      const tool = run.tools.get(request.name);
      if (tool === undefined) throw new Error(`no tool named ${request.name}`);
      const { position } = request;
      const options = position === undefined ? run.toolCallOptions : { ...run.toolCallOptions, position };
      const pauseBefore = run.pauseBefore;
      const hold =
        pauseBefore === undefined || position === undefined || run.approved.has(position)
          ? undefined
          : (checked: Record<string, unknown>) =>
              pauseBefore({ position, name: request.name, args: checked });
      let result = invokeTool(request.name, tool, args, options, hold);
      if (isThenable(result)) result = await result;
      const value = result === undefined ? null : result;
      let encoded: unknown;
      try {
        encoded = encodeValue(value, this.transfer);
      } catch (error) {
        throw new Error(
          `the tool's result could not be copied into the isolated worker: ${thrownText(error)}`,
        );
      }
      reply = { type: "tool-result", call: request.call, ok: true, value: encoded };
      run.toolCalls.push({ ...logged(request, args, started), result: value });
    } catch (error) {
      if (isHeldCall(error)) {
        reply = { type: "tool-result", call: request.call, ok: false, message: "held", held: true };
      } else {
        const failure = this.toolError(request, error);
        reply = failure;
        run.toolCalls.push({ ...logged(request, args, started), error: failure.message });
      }
    }
    // The run may have ended (or the worker died) while the tool was working.
    if (this.active !== run || this.stopped !== undefined) return;
    const sent = this.post(reply);
    if (!sent.ok) {
      const message = `the tool's result could not be copied into the isolated worker: ${sent.message}`;
      const last = run.toolCalls[run.toolCalls.length - 1];
      if (last !== undefined) run.toolCalls[run.toolCalls.length - 1] = { ...last, error: message };
      this.post({ type: "tool-result", call: request.call, ok: false, message });
    }
  }

  private toolError(request: ToolCallRequest, error: unknown): ToolCallReply & { ok: false } {
    const message = thrownText(error);
    const reason = thrownReason(error);
    return reason === "timeout" ||
      reason === "memory_exceeded" ||
      reason === "invalid_tool_args" ||
      reason === "replay_diverged"
      ? { type: "tool-result", call: request.call, ok: false, message, reason }
      : { type: "tool-result", call: request.call, ok: false, message };
  }

  private onUnreadable(error: unknown): void {
    this.breakDown("unreadable", error);
  }

  /** The worker cannot be trusted to go on: stop it, and end its run with why. */
  private breakDown(reason: "unreadable" | "crashed", error: unknown): void {
    this.crash ??= new Error(thrownText(error));
    this.stopped ??= reason;
    this.finishKilled(reason);
    void this.worker?.terminate();
  }

  private onError(error: unknown): void {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ERR_WORKER_OUT_OF_MEMORY") {
      this.stopped ??= "memory_exceeded";
      this.finishKilled("memory_exceeded");
      return;
    }
    if (!this.everStarted) {
      // Whether it ever ran a program is not known yet: the "error" event and the worker's own
      // messages travel on different ports, so a "started" posted just before the throw may still
      // be on its way (seen on a loaded machine). Node delivers a worker's messages before its
      // "exit", which follows every uncaught error: the exit decides.
      this.earlyError ??= { error };
      return;
    }
    this.crashed(error);
  }

  private crashed(error: unknown): void {
    this.stopped ??= "crashed";
    this.crash ??= new Error(thrownText(error));
    this.finishKilled("crashed");
  }

  private onExit(code: unknown): void {
    const early = this.earlyError;
    this.earlyError = undefined;
    if (early !== undefined && this.everStarted) this.crashed(early.error);
    else if (early !== undefined) {
      // It died before it ever ran a program: its module could not be loaded, or it threw there.
      this.failToStart(early.error);
      const run = this.active;
      if (run !== undefined && this.startError !== undefined) {
        const startError = this.startError;
        this.settle(run, () => run.reject(startError));
      }
    }
    if (typeof code === "number") this.exitCode = code;
    this.stopped ??= "crashed";
    this.finishKilled(this.stopped);
  }

  /**
   * Asks the worker to stop the run (it answers "aborted" at its next step or tool wait), and
   * terminates it if it is still busy past the grace: stuck in a builtin, or in a loop, where it
   * cannot read the message.
   */
  private cancel(run: ActiveRun): void {
    if (this.active !== run || run.cancelled) return;
    run.cancelled = true;
    this.post({ type: "abort", run: run.id });
    this.arm(run, ABORT_GRACE_MS);
  }

  private kill(reason: "timeout" | "aborted" | "stalled"): void {
    this.stopped ??= reason;
    this.finishKilled(reason);
    void this.worker?.terminate();
  }

  /** Ends the active run, if any, with the failure a dead worker means. */
  private finishKilled(reason: StopReason): void {
    const run = this.active;
    if (run === undefined) return;
    const result = failed({
      ok: false,
      error: {
        reason:
          reason === "timeout" || reason === "aborted" || reason === "memory_exceeded"
            ? reason
            : "execution_error",
        message: this.stopMessage(reason, run),
      },
      prints: [],
      toolCalls: run.toolCalls,
      warnings: [],
      durationMs: now() - run.startedAt,
    });
    this.settle(run, () => run.resolve(result));
  }

  /** Why the worker stopped, in words (sessions say it when their state is gone). */
  describeStop(reason: StopReason): string {
    return describeStop(reason, this.stopFacts());
  }

  private stopMessage(reason: StopReason, run: ActiveRun): string {
    return stopMessage(reason, this.stopFacts(), { timeoutMs: run.limits.timeoutMs, phase: run.phase });
  }

  private stopFacts(): StopFacts {
    return {
      heapMb: this.heapMb,
      transferTimeoutMs: this.transferTimeoutMs,
      crash: this.crash?.message,
      exitCode: this.exitCode,
    };
  }

  private settle(run: ActiveRun, action: () => void): void {
    if (this.active !== run) return;
    this.active = undefined;
    run.watchdog?.clear();
    run.watchdog = undefined;
    run.detach?.();
    run.session?.release();
    if (this.stopped === undefined) this.worker?.unref();
    action();
  }
}

/** The host's log entry of a call it served (reported when the worker dies). */
function logged(request: ToolCallRequest, args: Record<string, unknown>, started: number) {
  // The worker sends every call's position; "" would mean one that did not.
  return { name: request.name, args, durationMs: now() - started, position: request.position ?? "" };
}

/** Runner mode: what a successful program changed in its session, written into the host's session. */
function adopt(session: Session, state: SessionState, transfer: TransferOptions): void {
  const bindings = decodeValue(state.bindings, transfer);
  const history = decodeValue(state.history, transfer);
  const journal = decodeValue(state.journal, transfer);
  const journalOrder = decodeValue(state.journalOrder, transfer);
  if (
    !isPlainObject(bindings) ||
    !Array.isArray(history) ||
    !isPlainObject(journal) ||
    !Array.isArray(journalOrder) ||
    !journalOrder.every((id) => typeof id === "string")
  ) {
    throw new Error("the session's state is not in the expected shape");
  }
  // The journal as the worker left it: ids the run reset are gone, ids it recorded again are at
  // the end. Values the run did not record are the ones this session already holds.
  const recorded = journal as Record<string, unknown>;
  const entries: [string, unknown][] = (journalOrder as string[]).map((id) => [
    id,
    Object.hasOwn(recorded, id) ? recorded[id] : session.journal.get(id),
  ]);
  for (const [id] of [...session.journal.list()]) session.journal.delete(id);
  session.seed({ bindings: Object.entries(bindings), history, journal: entries });
}
