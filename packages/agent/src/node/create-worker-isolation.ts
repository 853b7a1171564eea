/**
 * Program isolation in a worker thread, for agents on Node: each agent run gets one worker (from
 * @ptc/lisp/node's `createIsolatedRunner`) for all its programs. A program is then stopped at its
 * time limit or when the run's signal fires even inside one long builtin call (the worker is
 * terminated), and one that exhausts memory ends as `memory_exceeded` instead of taking the host
 * down. Tools, the tool cache, events and nested agents stay on the host.
 *
 * The context is copied into the worker once per run, not once per program (`reuseContext`): an
 * agent passes the same context to every program of a run and never changes it.
 */

import type { ProgramIsolation } from "@ptc/agent";
import { createIsolatedRunner } from "@ptc/lisp/node";

export interface WorkerIsolationOptions {
  /**
   * Heap cap of each run's worker in MB. Default 256 (@ptc/lisp/node's). A program's memory budget
   * (`limits.maxMemoryBytes`) is at most a quarter of it, and the context copied in counts toward it.
   */
  readonly heapMb?: number;
  /** @internal Where the worker module lives (tests point it at a build of the sources). */
  readonly workerUrl?: URL | string;
}

export function createWorkerIsolation(options: WorkerIsolationOptions = {}): ProgramIsolation {
  const runnerOptions = {
    reuseContext: true,
    ...(options.heapMb === undefined ? {} : { heapMb: options.heapMb }),
    ...(options.workerUrl === undefined ? {} : { workerUrl: options.workerUrl }),
  };
  // Checked now (a bad heapMb throws here, where the agent is configured), not at the first program.
  createIsolatedRunner(runnerOptions);
  return Object.freeze({
    kind: "worker",
    open: () => createIsolatedRunner(runnerOptions),
  });
}
