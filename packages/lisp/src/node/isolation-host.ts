/**
 * The host side of one isolation worker: starts it, sends it programs, serves its tool calls, and
 * turns every way it can die into a RunResult. A run that outlives its wall-clock limit (plus a
 * small grace for the worker's own, cooperative timeout to answer first) is stopped by
 * `terminate()`, which works even while the worker is stuck inside one long builtin call; a run
 * that outgrows the heap cap is stopped by V8 itself. A run whose AbortSignal fires is asked to
 * stop (the worker's own run sees a signal), and terminated like a late one if it does not answer
 * within the grace. Either way the host process carries on.
 *
 * This module must never let a worker's death reject a run's promise (it is a program outcome),
 * and never answer a tool call for a run that has already ended.
 */
import { Worker } from "node:worker_threads";
import type { RunOptions, RunResult } from "@ptc/lisp";
import { LispError } from "../errors.js";
import { withJson } from "../result-json.js";
import type { ToolCallOptions, ToolCallRecord, ToolObject } from "../runtime/context.js";
import { abortedError } from "../runtime/context.js";
import { errorText } from "../runtime/error-text.js";
import { type Limits, resolveLimits } from "../runtime/limits.js";
import { checkSignal } from "../runtime/signal-option.js";
import { invokeTool, normalizeTools } from "../runtime/tool-options.js";
import { isPlainObject } from "../values/plain-object.js";
import { decodeValue, encodeValue } from "../values/transfer.js";
import type { HostMessage, ToolCallRequest, WorkerMessage, WorkerSetup } from "./protocol.js";

/** Default heap cap of a worker, in MB. */
export const DEFAULT_HEAP_MB = 64;

/** Options of one program run in a worker: those of `run`, without a Session (see createIsolatedSession). */
export type IsolatedProgramOptions = Omit<RunOptions, "session">;

export interface WorkerOptions {
  readonly heapMb: number;
  readonly workerUrl: URL | string;
  readonly session: boolean;
}

/** Why a worker stopped before its run could answer. */
export type StopReason = "timeout" | "aborted" | "memory_exceeded" | "crashed" | "closed";

interface ActiveRun {
  readonly id: number;
  readonly limits: Limits;
  readonly tools: ReadonlyMap<string, ToolObject>;
  /** Passed to every tool call: the run's signal, if any. */
  readonly toolCallOptions: ToolCallOptions;
  /** The host's own log of tool calls, reported when the worker dies and cannot send its own. */
  readonly toolCalls: ToolCallRecord[];
  readonly startedAt: number;
  started: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Set once the run's signal fired. */
  cancelled: boolean;
  /** Terminates the worker when a cancelled run does not answer within the grace. */
  abortTimer: ReturnType<typeof setTimeout> | undefined;
  /** Removes the run's abort listener from its signal. */
  detach: (() => void) | undefined;
  resolve(result: RunResult): void;
  reject(error: unknown): void;
}

function now(): number {
  return performance.now();
}

/** Time the worker gets past its limit to report its own timeout before it is terminated. */
function graceMs(timeoutMs: number): number {
  return Math.min(1000, Math.max(100, timeoutMs / 10));
}

/**
 * The host's Node flags, minus those that only make sense for the main script: a worker inherits
 * `--input-type` and refuses to start with it (as in `node --input-type=module -e ...`); and
 * `--disallow-code-generation-from-strings`, which holds in workers without being passed.
 */
function workerExecArgv(): string[] {
  const flags: string[] = [];
  const inherited = process.execArgv;
  for (let i = 0; i < inherited.length; i++) {
    const flag = inherited[i] as string;
    if (["--input-type", "-e", "--eval", "-p", "--print"].includes(flag)) {
      i++; // and its value
      continue;
    }
    if (/^--(input-type|eval|print)=/.test(flag)) continue;
    // A V8 flag: Node refuses a worker whose execArgv holds one, and it applies to the worker anyway.
    if (flag === "--disallow-code-generation-from-strings") continue;
    flags.push(flag);
  }
  return flags;
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

export class IsolationHost {
  private readonly worker: Worker;
  private active: ActiveRun | undefined;
  private nextRun = 0;
  /** Set once the worker is gone, with why. */
  stopped: StopReason | undefined;
  /** The error the worker died of, when it crashed (e.g. its module could not be loaded). */
  crash: Error | undefined;
  private readonly heapMb: number;

  constructor(options: WorkerOptions) {
    this.heapMb = options.heapMb;
    const setup: WorkerSetup = { session: options.session };
    this.worker = new Worker(options.workerUrl, {
      workerData: setup,
      execArgv: workerExecArgv(),
      resourceLimits: {
        maxOldGenerationSizeMb: options.heapMb,
        maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(options.heapMb / 8))),
      },
      stdout: false,
      stderr: false,
    });
    this.worker.on("message", (message: WorkerMessage) => this.onMessage(message));
    this.worker.on("error", (error: Error & { code?: string }) => this.onError(error));
    this.worker.on("exit", () => this.onExit());
    // An idle worker must never keep the host process alive. (After the listeners: adding a
    // message listener refs the worker again.)
    this.worker.unref();
  }

  get busy(): boolean {
    return this.active !== undefined;
  }

  /** Runs one program in the worker. Rejects only for misuse (bad options), like `run`. */
  run(source: string, options: IsolatedProgramOptions): Promise<RunResult> {
    if (typeof source !== "string") {
      throw new LispError("invalid_options", `source must be a string, got ${typeof source}`);
    }
    if (this.active !== undefined) {
      throw new LispError(
        "invalid_options",
        "this isolated session is already running a program: await it before starting the next one",
      );
    }
    const limits = resolveLimits(options.limits);
    const tools = normalizeTools(options.tools);
    if (options.context !== undefined && options.context !== null && !isPlainObject(options.context)) {
      throw new LispError(
        "invalid_options",
        "context must be a plain object whose keys are the data/ names (e.g. { orders: [...] })",
      );
    }
    const signal = checkSignal(options.signal);
    const context = encodeValue(options.context ?? undefined);
    const budget = encodeValue(options.budget);
    if (this.stopped !== undefined) throw new Error("internal: run on a stopped worker");
    if (signal?.aborted) {
      // Cancelled before it began: the worker (and a session's state in it) is not disturbed.
      const { reason, message } = abortedError();
      return Promise.resolve({
        ok: false,
        error: { reason, message },
        prints: [],
        toolCalls: [],
        warnings: [],
        durationMs: 0,
      });
    }

    const id = ++this.nextRun;
    return new Promise<RunResult>((resolve, reject) => {
      this.active = {
        id,
        limits,
        tools,
        toolCallOptions: signal === undefined ? {} : { signal },
        toolCalls: [],
        startedAt: now(),
        started: false,
        timer: undefined,
        cancelled: false,
        abortTimer: undefined,
        detach: undefined,
        resolve,
        reject,
      };
      const run = this.active;
      if (signal !== undefined) {
        const onAbort = () => this.cancel(run);
        signal.addEventListener("abort", onAbort, { once: true });
        run.detach = () => signal.removeEventListener("abort", onAbort);
      }
      this.worker.ref();
      this.post({
        type: "run",
        run: id,
        source,
        context,
        budget,
        tools: [...tools.keys()],
        limits: options.limits,
      });
    });
  }

  /** Stops the worker. A run in progress ends with a failure. */
  async close(): Promise<void> {
    if (this.stopped === undefined) this.stopped = "closed";
    this.finishKilled("closed");
    await this.worker.terminate();
  }

  private post(message: HostMessage): void {
    try {
      this.worker.postMessage(message);
    } catch (error) {
      // A value the structured clone refuses (it should not happen after encoding): fail the run.
      const run = this.active;
      if (run === undefined) return;
      this.settle(run, () =>
        run.reject(
          new LispError("invalid_options", `cannot send data to the isolated worker: ${errorText(error)}`),
        ),
      );
    }
  }

  private onMessage(message: WorkerMessage): void {
    const run = this.active;
    if (run === undefined || message.run !== run.id) return;
    switch (message.type) {
      case "started":
        run.started = true;
        if (Number.isFinite(run.limits.timeoutMs)) {
          const delay = run.limits.timeoutMs + graceMs(run.limits.timeoutMs);
          run.timer = setTimeout(() => this.kill("timeout"), delay);
        }
        if (run.cancelled) this.armAbortTimer(run);
        return;
      case "finished":
        // The program is done; copying a large result out must not count as running too long.
        if (run.timer !== undefined) clearTimeout(run.timer);
        if (run.abortTimer !== undefined) clearTimeout(run.abortTimer);
        run.timer = undefined;
        return;
      case "tool-call":
        void this.serveTool(run, message);
        return;
      case "result": {
        let result: RunResult;
        try {
          result = withJson(decodeValue(message.result) as RunResult);
        } catch (error) {
          this.settle(run, () =>
            run.reject(
              new LispError("runtime_error", `cannot read the isolated run's result: ${errorText(error)}`),
            ),
          );
          return;
        }
        this.settle(run, () => run.resolve(result));
        return;
      }
      case "fault": {
        const error =
          message.reason === undefined
            ? new Error(message.message)
            : new LispError(message.reason, message.message);
        this.settle(run, () => run.reject(error));
        return;
      }
    }
  }

  private async serveTool(run: ActiveRun, request: ToolCallRequest): Promise<void> {
    const started = now();
    const args = decodeValue(request.args) as Record<string, unknown>;
    const tool = run.tools.get(request.name);
    let reply: HostMessage;
    try {
      if (tool === undefined) throw new Error(`no tool named ${request.name}`);
      let result = invokeTool(request.name, tool, args, run.toolCallOptions);
      if (typeof (result as PromiseLike<unknown> | null)?.then === "function") result = await result;
      const value = result === undefined ? null : result;
      reply = { type: "tool-result", call: request.call, ok: true, value: encodeValue(value) };
      run.toolCalls.push({ name: request.name, args, result: value, durationMs: now() - started });
    } catch (error) {
      const message = errorText(error);
      const reason =
        error instanceof LispError &&
        (error.reason === "timeout" ||
          error.reason === "memory_exceeded" ||
          error.reason === "invalid_tool_args")
          ? error.reason
          : undefined;
      reply =
        reason === undefined
          ? { type: "tool-result", call: request.call, ok: false, message }
          : { type: "tool-result", call: request.call, ok: false, message, reason };
      run.toolCalls.push({ name: request.name, args, error: message, durationMs: now() - started });
    }
    // The run may have ended (or the worker died) while the tool was working.
    if (this.active === run && this.stopped === undefined) this.post(reply);
  }

  private onError(error: Error & { code?: string }): void {
    const run = this.active;
    if (error.code === "ERR_WORKER_OUT_OF_MEMORY") {
      this.stopped ??= "memory_exceeded";
      this.finishKilled("memory_exceeded");
      return;
    }
    this.stopped ??= "crashed";
    this.crash ??= error;
    if (run === undefined) return;
    if (!run.started) {
      this.settle(run, () =>
        run.reject(
          new LispError(
            "execution_error",
            `could not start the isolated worker: ${error.message}`,
            undefined,
            {
              cause: error,
            },
          ),
        ),
      );
      return;
    }
    this.finishKilled("crashed");
  }

  private onExit(): void {
    this.stopped ??= "crashed";
    this.finishKilled(this.stopped);
  }

  /**
   * Asks the worker to stop the run (it answers "aborted" at its next step or tool wait), and
   * terminates it if it is still busy past the grace: stuck in a builtin, or in a loop that only
   * a refuel would stop, where it cannot read the message.
   */
  private cancel(run: ActiveRun): void {
    if (this.active !== run || run.cancelled) return;
    run.cancelled = true;
    this.post({ type: "abort", run: run.id });
    // A worker still starting up is not late yet: its grace begins when the run does.
    if (run.started) this.armAbortTimer(run);
  }

  private armAbortTimer(run: ActiveRun): void {
    run.abortTimer = setTimeout(() => {
      if (this.active === run) this.kill("aborted");
    }, graceMs(run.limits.timeoutMs));
  }

  private kill(reason: "timeout" | "aborted"): void {
    this.stopped ??= reason;
    this.finishKilled(reason);
    void this.worker.terminate();
  }

  /** Ends the active run, if any, with the failure a dead worker means. */
  private finishKilled(reason: StopReason): void {
    const run = this.active;
    if (run === undefined) return;
    const result: RunResult = {
      ok: false,
      error: {
        reason: reason === "crashed" || reason === "closed" ? "execution_error" : reason,
        message: this.stopMessage(reason, run),
      },
      prints: [],
      toolCalls: run.toolCalls,
      warnings: [],
      durationMs: now() - run.startedAt,
    };
    this.settle(run, () => run.resolve(result));
  }

  private stopMessage(reason: StopReason, run: ActiveRun): string {
    switch (reason) {
      case "timeout":
        return `execution exceeded ${run.limits.timeoutMs}ms limit and the program was stopped (its isolated worker was terminated). Reduce the work: filter before mapping, avoid repeated passes over large data, or split the task across programs`;
      case "memory_exceeded":
        return `the program exceeded the isolated worker's heap cap of ${this.heapMb} MB and was stopped. Build less data: select fewer fields, filter earlier, or aggregate instead of collecting (the host can raise heapMb)`;
      case "aborted":
        return "the run was cancelled (its AbortSignal fired) and, as the program did not stop in time, its isolated worker was terminated";
      case "closed":
        return "the isolated worker was closed while the program was running";
      default:
        return "the isolated worker stopped unexpectedly while running the program";
    }
  }

  private settle(run: ActiveRun, action: () => void): void {
    if (this.active !== run) return;
    this.active = undefined;
    if (run.timer !== undefined) clearTimeout(run.timer);
    if (run.abortTimer !== undefined) clearTimeout(run.abortTimer);
    run.detach?.();
    if (this.stopped === undefined) this.worker.unref();
    action();
  }
}
