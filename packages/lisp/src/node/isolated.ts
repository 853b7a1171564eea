/**
 * Isolation mode: programs run in a worker thread. `runIsolated` starts a worker per program;
 * `createIsolatedSession` keeps one worker (and its Session: defs, *1 *2 *3) across programs.
 * Results have the same shape and value types as `run`'s; the difference is a hard stop at the
 * wall-clock limit and a hard heap cap, at the cost of a worker start and of copying values.
 */

import type { RunResult } from "@ptc/lisp";
import { LispError } from "../errors.js";
import { checkHeapMb, type IsolatedProgramOptions, IsolationHost } from "./isolation-host.js";

export interface IsolationOptions {
  /** Heap cap of the worker in MB (V8 old generation). Default 64. Data copied in counts toward it. */
  readonly heapMb?: number;
  /**
   * @internal Where the worker module lives. The package's own `worker.js` by default; tests
   * point it at a build of src/node/worker.ts.
   */
  readonly workerUrl?: URL | string;
}

/** Options of `runIsolated`: those of `run` (context, tools, limits, budget) plus the heap cap. */
export interface IsolatedRunOptions extends IsolatedProgramOptions, IsolationOptions {}

export type IsolatedSessionOptions = IsolationOptions;

export interface IsolatedSession {
  /**
   * Runs a program in the session's worker; defs and *1 *2 *3 persist across runs. Rejects (with a
   * LispError whose code is PTC_LISP_EXECUTION_ERROR) once the session is lost or closed.
   */
  run(source: string, options?: IsolatedProgramOptions): Promise<RunResult>;
  /** "ready"; "lost" after a run was stopped (its state went with the worker); "closed". */
  readonly status: "ready" | "lost" | "closed";
  /** Replaces the worker with a fresh one: an empty session, status "ready" again. */
  restart(): Promise<void>;
  /** Stops the worker. */
  close(): Promise<void>;
}

export function isolatedRunner(defaultWorkerUrl: URL) {
  return async function runIsolated(source: string, options: IsolatedRunOptions = {}): Promise<RunResult> {
    const { heapMb, workerUrl, ...runOptions } = options;
    const host = new IsolationHost({
      heapMb: checkHeapMb(heapMb),
      workerUrl: workerUrl ?? defaultWorkerUrl,
      session: false,
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
    if (this.closed) {
      throw new LispError(
        "execution_error",
        "this isolated session is closed; create a new one with createIsolatedSession()",
      );
    }
    const stopped = this.host.stopped;
    if (stopped !== undefined) {
      const why =
        stopped === "timeout"
          ? "an earlier program ran past its time limit and its worker was terminated"
          : stopped === "aborted"
            ? "an earlier program was cancelled and did not stop in time, so its worker was terminated"
            : stopped === "memory_exceeded"
              ? "an earlier program exceeded the worker's heap cap and its worker was stopped"
              : `its worker stopped unexpectedly${this.host.crash === undefined ? "" : ` (${this.host.crash.message})`}`;
      throw new LispError(
        "execution_error",
        `this isolated session lost its state: ${why}, taking its defs and *1 *2 *3 with it. Call session.restart() (or createIsolatedSession()) to continue with an empty session`,
      );
    }
    const result = await this.host.run(source, options);
    if (
      !result.ok &&
      this.host.stopped !== undefined &&
      (result.error.reason === "timeout" ||
        result.error.reason === "aborted" ||
        result.error.reason === "memory_exceeded")
    ) {
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
    if (this.closed) {
      throw new LispError(
        "execution_error",
        "this isolated session is closed; create a new one with createIsolatedSession()",
      );
    }
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
    const heapMb = checkHeapMb(options.heapMb);
    const workerUrl = options.workerUrl ?? defaultWorkerUrl;
    return new WorkerSession(() => new IsolationHost({ heapMb, workerUrl, session: true }));
  };
}
