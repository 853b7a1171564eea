/**
 * Worker isolation for tests: @ptc/lisp/node's worker as built once per test run by
 * vitest.global-setup.ts (workers cannot load TypeScript), and a count of the runners it opened
 * and closed, so a test can tell that programs did run in workers and that none was left open.
 */
import { inject } from "vitest";
import type { ProgramIsolation, ProgramRunner } from "../../isolation/program-isolation.js";
import { createWorkerIsolation, type WorkerIsolationOptions } from "../create-worker-isolation.js";

declare module "vitest" {
  export interface ProvidedContext {
    isolationWorker: { directory: string; workerUrl: string; indexUrl: string };
  }
}

export interface CountedIsolation extends ProgramIsolation {
  readonly opened: number;
  readonly closed: number;
}

export function testIsolation(options: WorkerIsolationOptions = {}): CountedIsolation {
  const inner = createWorkerIsolation({ workerUrl: inject("isolationWorker").workerUrl, ...options });
  let opened = 0;
  let closed = 0;
  return {
    kind: inner.kind,
    get opened() {
      return opened;
    },
    get closed() {
      return closed;
    },
    open(): ProgramRunner {
      const runner = inner.open();
      opened++;
      return {
        run: (source, runOptions) => runner.run(source, runOptions),
        close: () => {
          closed++;
          return runner.close();
        },
      };
    },
  };
}

/** The built worker's file URL (for child-process tests that import the built entry). */
export function builtIndexUrl(): string {
  return inject("isolationWorker").indexUrl;
}

type RunAgentModule = typeof import("../../run/run-agent.js");

/**
 * run-agent.js with every top-level run that names no isolation running its programs in a worker
 * (child runs inherit it): the mock factory of the isolated-*.test.ts files. `sink` receives the
 * isolation, so the file can check its counts.
 */
export function isolateRuns(original: RunAgentModule, sink: { isolation?: CountedIsolation }): RunAgentModule {
  const isolation = testIsolation();
  sink.isolation = isolation;
  return {
    ...original,
    runAgent: (agent, options, inherited) =>
      original.runAgent(
        agent,
        inherited === undefined && options.isolation === undefined && agent.isolation === undefined
          ? { ...options, isolation }
          : options,
        inherited,
      ),
  };
}
