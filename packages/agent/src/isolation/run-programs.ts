/**
 * How one agent run runs its programs: on the host's thread, or through its isolation. An isolated
 * runner is opened with the run's first program (a run that never runs one starts no worker) and
 * kept for the whole run, so memory, functions and the context stay in one worker across turns;
 * it is closed when the run ends.
 */
import { type RunOptions, type RunResult, run as runOnHost } from "@ptc/lisp";
import type { ProgramIsolation, ProgramRunner } from "./program-isolation.js";

export interface RunPrograms {
  run(source: string, options: RunOptions): Promise<RunResult>;
  /** Closes the isolated runner, if one was opened. Never rejects. */
  close(): Promise<void>;
}

const ON_HOST: RunPrograms = { run: runOnHost, close: async () => undefined };

export function runPrograms(isolation: ProgramIsolation | undefined): RunPrograms {
  if (isolation === undefined) return ON_HOST;
  let runner: ProgramRunner | undefined;
  return {
    run(source, options) {
      runner ??= isolation.open();
      return runner.run(source, options);
    },
    async close() {
      const opened = runner;
      runner = undefined;
      // The run's outcome is decided; a runner that fails to close must not change it.
      await opened?.close().catch(() => undefined);
    },
  };
}
