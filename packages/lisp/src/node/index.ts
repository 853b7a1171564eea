/**
 * @ptc/lisp/node: Node-only extras. Isolation mode runs each program in a worker thread, so a
 * program is stopped outright at its wall-clock limit (even inside one long builtin call) and
 * cannot grow the heap past a cap; tools still run in the host. Every call settles: a worker that
 * dies, stalls or sends what the host cannot read ends the run with a documented error.
 *
 * The worker entry is this package's `worker.js`, next to this module once built.
 */
// Types of the root entry come from the package's own name, so this entry's declarations import
// them from "@ptc/lisp" rather than from a shared chunk (see tsup.config.ts).
import type { RunResult } from "@ptc/lisp";
import {
  type IsolatedRunner,
  type IsolatedRunnerOptions,
  type IsolatedRunOptions,
  type IsolatedSession,
  type IsolatedSessionOptions,
  isolatedRunner,
  isolatedRunnerFactory,
  isolatedSessionFactory,
} from "./isolated.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const runner = isolatedRunner(WORKER_URL);
const sessionFactory = isolatedSessionFactory(WORKER_URL);
const runnerFactory = isolatedRunnerFactory(WORKER_URL);

/**
 * Runs a program in a fresh worker thread: same options and result as `run`, plus `heapMb`.
 * A run stopped at its time limit or heap cap ends with reason "timeout" or "memory_exceeded".
 */
export function runIsolated(source: string, options?: IsolatedRunOptions): Promise<RunResult> {
  return runner(source, options);
}

/** A long-lived worker holding a Session: defs and *1 *2 *3 persist across its runs. */
export function createIsolatedSession(options?: IsolatedSessionOptions): IsolatedSession {
  return sessionFactory(options);
}

/**
 * A long-lived worker for programs that bring their own (host-held) Session, as `run` takes one:
 * the session stays on the host and functions it holds stay callable in the worker.
 */
export function createIsolatedRunner(options?: IsolatedRunnerOptions): IsolatedRunner {
  return runnerFactory(options);
}

export type {
  IsolatedRunner,
  IsolatedRunnerOptions,
  IsolatedRunOptions,
  IsolatedSession,
  IsolatedSessionOptions,
  IsolationOptions,
} from "./isolated.js";
export type { IsolatedProgramOptions } from "./isolation-host.js";
export { ABORT_GRACE_MS, DEFAULT_HEAP_MB, TRANSFER_TIMEOUT_MS } from "./isolation-host.js";
export { MAX_TRANSFER_DEPTH } from "./protocol.js";
