/**
 * The page's side of running a program: one Web Worker at a time (run-worker.ts), and a watchdog.
 * @ptc/lisp stops a program at its time limit by itself, between steps; the watchdog is for
 * anything that does not come back (a builtin busy for longer than it should, a stuck worker):
 * when a run has not answered a moment after its time limit, the worker is terminated, the run
 * ends with a timeout, and a fresh worker is started for the next one. The page never waits on a
 * program.
 */
import type { RunReply, RunRequest, ViolationReply, WorkerReply } from "./run-protocol.js";

/** How long past its time limit a run may take to answer before its worker is terminated. */
export function graceMs(timeoutMs: number): number {
  return Math.min(1000, Math.max(250, timeoutMs / 10));
}

export type RunnerOutcome = RunReply | { readonly type: "stopped"; readonly afterMs: number };

export interface RunnerOptions {
  /** The worker script's URL. */
  readonly workerUrl: string;
  /** A CSP violation reported from inside the worker. */
  readonly onViolation?: (violation: ViolationReply) => void;
}

interface Pending {
  readonly id: number;
  readonly startedAt: number;
  readonly resolve: (outcome: RunnerOutcome) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

export class Runner {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private pending: Pending | undefined;
  private nextId = 1;
  /** The newest run asked for: one that was waiting for the worker when a newer came is stopped. */
  private newest = 0;
  /** Workers terminated by the watchdog so far. */
  restarts = 0;

  constructor(private readonly options: RunnerOptions) {}

  private start(): Promise<void> {
    const worker = new Worker(this.options.workerUrl);
    this.worker = worker;
    this.ready = new Promise((resolve) => {
      worker.addEventListener("message", (event: MessageEvent<WorkerReply>) => {
        const message = event.data;
        if (message.type === "ready") resolve();
        else if (message.type === "csp-violation") this.options.onViolation?.(message);
        else this.settle(message);
      });
    });
    return this.ready;
  }

  private settle(reply: RunReply): void {
    const pending = this.pending;
    if (pending === undefined || pending.id !== reply.id) return;
    clearTimeout(pending.timer);
    this.pending = undefined;
    pending.resolve(reply);
  }

  /** Starts the worker ahead of the first run, so that the first Run answers at once. */
  warmUp(): Promise<void> {
    return this.ready ?? this.start();
  }

  /** Runs one program; a run still going when another starts is stopped first. */
  async run(request: Omit<RunRequest, "type" | "id">): Promise<RunnerOutcome> {
    const id = this.nextId++;
    this.newest = id;
    if (this.pending !== undefined) this.stop();
    const askedAt = performance.now();
    await (this.ready ?? this.start());
    // Runs asked for while the worker starts all wait for it: only the newest goes on, as if each
    // had stopped the one before (otherwise two would be pending at once, the older never settling).
    if (id !== this.newest) return { type: "stopped", afterMs: Math.round(performance.now() - askedAt) };
    const worker = this.worker as Worker;
    const allowedMs = request.limits.timeoutMs + graceMs(request.limits.timeoutMs);
    return new Promise((resolve) => {
      // Only while this run is the one pending: a watchdog left behind must not stop a later run.
      const timer = setTimeout(() => {
        if (this.pending?.id === id) this.stop();
      }, allowedMs);
      this.pending = { id, startedAt: performance.now(), resolve, timer };
      worker.postMessage({ ...request, type: "run", id } satisfies RunRequest);
    });
  }

  /**
   * Terminates the worker (and whatever it runs); a run in progress ends as stopped. The next run
   * starts a new worker.
   */
  stop(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.ready = undefined;
    this.restarts++;
    const pending = this.pending;
    this.pending = undefined;
    if (pending !== undefined) {
      clearTimeout(pending.timer);
      pending.resolve({ type: "stopped", afterMs: Math.round(performance.now() - pending.startedAt) });
    }
  }
}
