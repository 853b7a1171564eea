/**
 * @ptc/lisp/node: Node-only extras. Isolation mode runs each program in a worker thread, so a
 * program is stopped outright at its wall-clock limit (even inside one long builtin call) and
 * cannot grow the heap past a cap; tools still run in the host.
 *
 * The worker entry is this package's `worker.js`, next to this module once built.
 */
// Types of the root entry come from the package's own name, so this entry's declarations import
// them from "@ptc/lisp" rather than from a shared chunk (see tsup.config.ts).
import type { RunResult } from "@ptc/lisp";
import {
  type IsolatedRunOptions,
  type IsolatedSession,
  type IsolatedSessionOptions,
  isolatedRunner,
  isolatedSessionFactory,
} from "./isolated.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const runner = isolatedRunner(WORKER_URL);
const sessionFactory = isolatedSessionFactory(WORKER_URL);

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

export type {
  IsolatedRunOptions,
  IsolatedSession,
  IsolatedSessionOptions,
  IsolationOptions,
} from "./isolated.js";
export type { IsolatedProgramOptions } from "./isolation-host.js";
export { DEFAULT_HEAP_MB } from "./isolation-host.js";
