/**
 * Isolation mode: programs run in a worker thread. `runIsolated` starts a worker per program;
 * `createIsolatedSession` keeps one worker (and its Session: defs, *1 *2 *3) across programs;
 * `createIsolatedRunner` keeps one worker for programs that bring their own host-held Session, as
 * `run` takes one. Results have the same shape and value types as `run`'s; the difference is a
 * hard stop at the wall-clock limit and a hard heap cap, at the cost of a worker start and of
 * copying values.
 *
 * Nothing here throws synchronously: a worker that cannot start makes the run reject.
 */

import type { RunOptions, RunResult } from "@ptc/lisp";
import { LispError } from "../errors.js";
import { limitHint, RUN_OPTION_KEYS, refuseUnknownOptions } from "../runtime/option-keys.js";
import { checkHeapMb, type IsolatedProgramOptions, IsolationHost } from "./isolation-host.js";

export interface IsolationOptions {
  /**
   * Heap cap of the worker in MB (V8 old generation). Default 256. Data copied in counts toward
   * it, and a program's memory budget (`maxMemoryBytes`) is at most a quarter of it.
   */
  readonly heapMb?: number;
  /**
   * @internal Where the worker module lives. The package's own `worker.js` by default; tests
   * point it at a build of src/node/worker.ts.
   */
  readonly workerUrl?: URL | string;
  /** @internal How long starting a program or copying its result out may take (tests shorten it). */
  readonly transferTimeoutMs?: number;
}

/** Options of `runIsolated`: those of `run` (context, tools, limits, budget) plus the heap cap. */
export interface IsolatedRunOptions extends IsolatedProgramOptions, IsolationOptions {}

/** Options of a worker that runs many programs. */
export interface LongLivedIsolationOptions extends IsolationOptions {
  /**
   * Copy a context entry into the worker only when it is not the very value (the same object)
   * passed with the previous run. Copying a context of 100,000 rows takes hundreds of
   * milliseconds per run; with this, a context that stays the same across runs is copied once.
   * Only for data the host does not change in place between runs: a change inside the same
   * object would not be seen. Default false.
   */
  readonly reuseContext?: boolean;
}

export type IsolatedSessionOptions = LongLivedIsolationOptions;
export type IsolatedRunnerOptions = LongLivedIsolationOptions;

export interface IsolatedSession {
  /**
   * Runs a program in the session's worker; defs and *1 *2 *3 persist across runs. Rejects (with a
   * LispError whose code is PTC_LISP_EXECUTION_ERROR) once the session is lost or closed, or when
   * its worker could not be started.
   */
  run(source: string, options?: IsolatedProgramOptions): Promise<RunResult>;
  /**
   * "ready"; "lost" once its worker is gone (a run was stopped, taking the state with it, or the
   * worker could not start); "closed".
   */
  readonly status: "ready" | "lost" | "closed";
  /** Replaces the worker with a fresh one: an empty session, status "ready" again. */
  restart(): Promise<void>;
  /** Stops the worker. */
  close(): Promise<void>;
}

export interface IsolatedRunner {
  /**
   * Runs a program in the runner's worker with the options of `run`, `session` included: the
   * program runs against that (host-held) session, which afterwards holds what the program
   * defined, as after `run`. Functions a program defines stay callable in later runs of this
   * runner. After a hard stop (time limit, heap cap, cancel), the next run starts a fresh worker;
   * functions defined before the stop then fail with a message saying they were lost.
   */
  run(source: string, options?: RunOptions): Promise<RunResult>;
  /** "ready", or "closed". */
  readonly status: "ready" | "closed";
  /** Stops the worker. Runs after this reject. */
  close(): Promise<void>;
}

/** Options of a long-lived worker; `workerUrl` and `transferTimeoutMs` are internal, unlisted. */
const LONG_LIVED_KEYS: readonly string[] = Object.freeze(["heapMb", "reuseContext"]);
const INTERNAL_KEYS: readonly string[] = Object.freeze(["workerUrl", "transferTimeoutMs"]);
/** Options of `runIsolated`: those of `run` but `session`, and the heap cap. */
const RUN_ISOLATED_KEYS: readonly string[] = Object.freeze([
  ...RUN_OPTION_KEYS.filter((key) => key !== "session"),
  "heapMb",
]);

/**
 * Where an option of a program given to a long-lived worker's factory belongs: `limits` given to
 * `createIsolatedSession` would otherwise be dropped, and every program run under the defaults.
 */
function perProgram(call: string): (key: string) => string | undefined {
  return (key) => {
    if (RUN_OPTION_KEYS.includes(key))
      return `${key} is an option of each program, as in ${call}(source, { ${key} })`;
    return limitHint(key) === undefined
      ? undefined
      : `${key} is a limit of each program, as in ${call}(source, { limits: { ${key} } })`;
  };
}

function hostSettings(
  options: LongLivedIsolationOptions,
  defaultWorkerUrl: URL,
  who: "createIsolatedSession" | "createIsolatedRunner",
) {
  refuseUnknownOptions(
    options,
    who,
    LONG_LIVED_KEYS,
    INTERNAL_KEYS,
    perProgram(who === "createIsolatedSession" ? "session.run" : "runner.run"),
  );
  return {
    heapMb: checkHeapMb(options.heapMb),
    workerUrl: options.workerUrl ?? defaultWorkerUrl,
    reuseContext: options.reuseContext === true,
    ...(options.transferTimeoutMs === undefined ? {} : { transferTimeoutMs: options.transferTimeoutMs }),
  };
}

function closedError(what: string, again: string): LispError {
  return new LispError("execution_error", `this ${what} is closed; create a new one with ${again}`);
}

export function isolatedRunner(defaultWorkerUrl: URL) {
  return async function runIsolated(source: string, options: IsolatedRunOptions = {}): Promise<RunResult> {
    refuseUnknownOptions(options, "runIsolated", RUN_ISOLATED_KEYS, INTERNAL_KEYS);
    const { heapMb, workerUrl, transferTimeoutMs, ...runOptions } = options;
    if ((runOptions as RunOptions).session !== undefined) {
      throw new LispError(
        "invalid_options",
        "runIsolated takes no session: use createIsolatedSession() (the worker keeps the session) or createIsolatedRunner() (you keep it)",
      );
    }
    const host = new IsolationHost({
      heapMb: checkHeapMb(heapMb),
      workerUrl: workerUrl ?? defaultWorkerUrl,
      mode: "once",
      ...(transferTimeoutMs === undefined ? {} : { transferTimeoutMs }),
    });
    try {
      return await host.run(source, runOptions);
    } finally {
      void host.close();
    }
  };
}

class WorkerSession implements IsolatedSession {
  private host: IsolationHost;
  private closed = false;

  constructor(private readonly start: () => IsolationHost) {
    this.host = start();
  }

  get status(): "ready" | "lost" | "closed" {
    if (this.closed) return "closed";
    return this.host.stopped === undefined ? "ready" : "lost";
  }

  async run(source: string, options: IsolatedProgramOptions = {}): Promise<RunResult> {
    if (this.closed) throw closedError("isolated session", "createIsolatedSession()");
    const host = this.host;
    if (host.startError !== undefined) throw host.startError;
    const stopped = host.stopped;
    if (stopped !== undefined) {
      throw new LispError(
        "execution_error",
        `this isolated session lost its state: ${host.describeStop(stopped)}, taking its defs and *1 *2 *3 with it. Call session.restart() (or createIsolatedSession()) to continue with an empty session`,
      );
    }
    if ((options as RunOptions).session !== undefined) {
      throw new LispError(
        "invalid_options",
        "an isolated session keeps its own session in its worker; it takes no session option",
      );
    }
    const result = await host.run(source, options);
    if (!result.ok && host.stopped !== undefined) {
      return {
        ...result,
        error: {
          ...result.error,
          message: `${result.error.message}. The session's defs and *1 *2 *3 were lost with the worker`,
        },
      };
    }
    return result;
  }

  async restart(): Promise<void> {
    if (this.closed) throw closedError("isolated session", "createIsolatedSession()");
    const old = this.host;
    this.host = this.start();
    await old.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.host.close();
  }
}

export function isolatedSessionFactory(defaultWorkerUrl: URL) {
  return function createIsolatedSession(options: IsolatedSessionOptions = {}): IsolatedSession {
    const settings = hostSettings(options, defaultWorkerUrl, "createIsolatedSession");
    return new WorkerSession(() => new IsolationHost({ ...settings, mode: "session" }));
  };
}

class WorkerRunner implements IsolatedRunner {
  private host: IsolationHost | undefined;
  private closed = false;

  constructor(private readonly start: () => IsolationHost) {}

  get status(): "ready" | "closed" {
    return this.closed ? "closed" : "ready";
  }

  async run(source: string, options: RunOptions = {}): Promise<RunResult> {
    if (this.closed) throw closedError("isolated runner", "createIsolatedRunner()");
    // The worker holds no state a later run needs (the session is the caller's), so a worker
    // that was stopped is simply replaced. A new worker starts with the first run.
    if (this.host === undefined || (this.host.stopped !== undefined && !this.host.busy)) {
      void this.host?.close();
      this.host = this.start();
    }
    const host = this.host;
    try {
      return await host.run(source, options);
    } finally {
      // A worker that could not start is not kept: the next run tries a new one.
      if (host.startError !== undefined && this.host === host) this.host = undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.host?.close();
  }
}

export function isolatedRunnerFactory(defaultWorkerUrl: URL) {
  return function createIsolatedRunner(options: IsolatedRunnerOptions = {}): IsolatedRunner {
    const settings = hostSettings(options, defaultWorkerUrl, "createIsolatedRunner");
    return new WorkerRunner(() => new IsolationHost({ ...settings, mode: "runner" }));
  };
}
