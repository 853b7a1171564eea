/**
 * The runner's bookkeeping against a stand-in Web Worker (Node has none that loads a URL): each
 * run is answered after the delay its program names, so the order of answers is the test's.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { PlaygroundLimits, RunRequest } from "./run-protocol.js";
import { Runner, type RunnerOutcome } from "./runner.js";

class FakeWorker {
  static started = 0;
  private readonly listeners: ((event: { data: unknown }) => void)[] = [];
  private terminated = false;

  constructor(_url: string) {
    FakeWorker.started++;
    setTimeout(() => this.send({ type: "ready" }), 5);
  }

  addEventListener(_type: "message", listener: (event: { data: unknown }) => void): void {
    this.listeners.push(listener);
  }

  postMessage(request: RunRequest): void {
    const delay = Number(request.program);
    setTimeout(() => this.send({ type: "result", id: request.id, ok: true, value: request.program }), delay);
  }

  terminate(): void {
    this.terminated = true;
  }

  private send(data: unknown): void {
    if (!this.terminated) for (const listener of this.listeners) listener({ data });
  }
}

const limits = (timeoutMs: number): PlaygroundLimits => ({
  timeoutMs,
  maxIterations: 1000,
  maxMemoryBytes: 1_000_000,
  maxDepth: 100,
});

function request(answerAfterMs: number, timeoutMs: number) {
  return {
    program: String(answerAfterMs),
    context: {},
    tools: {},
    limits: limits(timeoutMs),
    codeGeneration: "auto" as const,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The outcome, or "pending" if the run has not settled within `ms`. */
function settledWithin(run: Promise<RunnerOutcome>, ms: number): Promise<RunnerOutcome | "pending"> {
  return Promise.race([run, sleep(ms).then(() => "pending" as const)]);
}

let saved: unknown;
beforeEach(() => {
  saved = (globalThis as { Worker?: unknown }).Worker;
  (globalThis as { Worker?: unknown }).Worker = FakeWorker;
  FakeWorker.started = 0;
});
afterEach(() => {
  (globalThis as { Worker?: unknown }).Worker = saved;
});

describe("Runner", () => {
  test("two runs started while the worker starts: the first is stopped, and its watchdog spares later runs", async () => {
    const runner = new Runner({ workerUrl: "run-worker.js" });
    // Run pressed twice before the worker is ready (a double click, Ctrl-Enter twice).
    const first = runner.run(request(10, 100));
    const second = runner.run(request(10, 100));
    expect(await settledWithin(second, 1000)).toMatchObject({ type: "result", value: "10" });
    expect(await settledWithin(first, 50)).toMatchObject({ type: "stopped" });

    // A later run well within its own limit, still going when the first run's watchdog (100 ms
    // + 250 ms grace after it started) would fire: it must finish, not be stopped.
    const third = runner.run(request(500, 2000));
    expect(await settledWithin(third, 1500)).toMatchObject({ type: "result", value: "500" });
  });

  test("stops a run that does not answer past its limit and grace, on a fresh worker next time", async () => {
    const runner = new Runner({ workerUrl: "run-worker.js" });
    expect(await runner.run(request(2000, 100))).toMatchObject({ type: "stopped" });
    expect(runner.restarts).toBe(1);
    expect(await runner.run(request(10, 100))).toMatchObject({ type: "result", value: "10" });
    expect(FakeWorker.started).toBe(2);
  });
});
