/**
 * Where an agent runs its programs. By default a program runs on the host's thread (`run` from
 * @ptc/lisp), stopped by the sandbox's cooperative limits. An isolation runs them elsewhere, e.g.
 * in a worker thread (`createWorkerIsolation` from `@ptc/agent/node`), where a program can be
 * stopped at any instant and cannot exhaust the host's memory.
 *
 * Types only: this entry point must load nothing Node-specific (the root entry runs on edge
 * runtimes too), so isolations are built by Node-only subpaths and handed in.
 */
import type { RunOptions, RunResult } from "@ptc/lisp";

/**
 * Runs the programs of one agent run, one at a time, with the options of `run` from @ptc/lisp
 * (a host-held `session` included: after a program it holds what the program defined, as after
 * `run`). Closed when the run ends.
 */
export interface ProgramRunner {
  run(source: string, options: RunOptions): Promise<RunResult>;
  close(): Promise<void>;
}

/** Opens a ProgramRunner for each agent run that runs a program (child agents' runs included). */
export interface ProgramIsolation {
  /** What it is, for messages: e.g. "worker". */
  readonly kind: string;
  open(): ProgramRunner;
}

export function isProgramIsolation(value: unknown): value is ProgramIsolation {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { open?: unknown }).open === "function" &&
    typeof (value as { kind?: unknown }).kind === "string"
  );
}
