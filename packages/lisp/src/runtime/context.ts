/**
 * The state of one run: limits and the meters that enforce them, captured prints, the tool-call
 * log, the data/ context, the user namespace. Evaluation code reads the running context through
 * `active` (a module variable, so the hot path pays no argument passing); whoever resumes
 * evaluation after an await restores it first (see async.ts).
 *
 * This module must never let one run's meters or output leak into another's.
 */
import { permitGeneratedCode } from "../code-generation.js";
import { LispError } from "../errors.js";
import type { Position } from "../reader/form.js";
import type { PlainObject } from "../values/plain-object.js";
import { setWalkTarget, type WalkTarget } from "../values/walk-meter.js";
import { subscribeAbort } from "./abort-fanout.js";
import { now } from "./clock.js";
import type { Replay } from "./ledger.js";
import type { Limits } from "./limits.js";
import { type LongTimer, startTimer } from "./long-timer.js";
import type { Namespace } from "./namespace.js";
import type { TaskJournal } from "./task-journal.js";

/** What a tool receives besides its arguments (the shape of @ptc/tool's ToolExecutionOptions). */
export interface ToolCallOptions {
  /** The run's `signal`, when the host gave one: a tool can stop its work when the run is cancelled. */
  readonly signal?: AbortSignal;
  /**
   * The call's place in the program's sequence of tool calls (`"3"`, or `"1.2/0"` inside a pmap
   * branch): the same in every run of the same program with the same tool results, so a host can
   * use it to recognise a call again (an idempotency key; `ledger` answers calls by it).
   */
  readonly position?: string;
}

/**
 * A host tool as a function: one argument map in, any JSON-shaped value (or a promise of one)
 * out. The same shape as @ptc/tool's `ToolFunction` (which adds type parameters for the arguments
 * and the result), so a function written for one works with the other.
 */
export type ToolFunction = (args: Record<string, unknown>, options: ToolCallOptions) => unknown;

/** What a tool's `validate` returns; @ptc/tool's `ToolArgsValidation` is one. */
export type ToolArgsCheck =
  | { readonly ok: true; readonly value?: unknown }
  | { readonly ok: false; readonly message: string };

/**
 * A host tool as an object: `execute`, and optionally a check of a program's arguments. Any
 * object of this shape works, so @ptc/lisp needs no tool library; @ptc/tool's `Tool` (what
 * `createTool`/`createTools` return) is one, and brings its signature or schema check.
 */
export interface ToolObject {
  execute(args: Record<string, unknown>, options: ToolCallOptions): unknown;
  /**
   * Checks a program's arguments before `execute` runs. On `{ ok: false, message }` the call
   * fails with reason invalid_tool_args and the message (for the model to fix its program), and
   * `execute` is not called; `{ ok: true, value }` calls it with `value` (a schema's output).
   */
  validate?(args: Record<string, unknown>): ToolArgsCheck | PromiseLike<ToolArgsCheck>;
  /** Shown to the model when `validate` rejects a call, e.g. "(query :string) -> [:any]". */
  readonly signature?: string | undefined;
}

/** A tool given to `run`: a function or an object with `execute`. */
export type HostTool = ToolFunction | ToolObject;

export interface ToolCallRecord {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly result?: unknown;
  readonly error?: string;
  readonly durationMs: number;
  /** The call's place in the program (see ToolCallOptions.position). */
  readonly position: string;
  /** Answered from the run's `ledger` instead of calling the tool. */
  readonly replayed?: true;
}

/** How many evaluation steps run between two clock reads. */
const FUEL_PER_CHECK = 2048;

/**
 * Vectors are flat arrays, so `conj`, `rest`, `pop`, `assoc`... on a vector copy it. A copy is
 * charged as time and against an allowance of this many times `maxMemoryBytes` (8 bytes a slot),
 * not against the memory budget: an accumulator loop over a few thousand rows must not run out of
 * memory because of our representation, yet a program that keeps every copy must stay bounded.
 */
export const COPY_ALLOWANCE_FACTOR = 20;

/**
 * The tool call options of a run without a signal. Shared, since no tool ever receives it: each
 * call gets a copy with its position (runtime/tools.ts).
 */
const NO_SIGNAL: ToolCallOptions = Object.freeze({});

export interface ContextInit {
  readonly limits: Limits;
  readonly data: PlainObject;
  readonly tools: ReadonlyMap<string, ToolObject>;
  readonly namespace: Namespace;
  readonly history: readonly unknown[];
  readonly budget: unknown;
  readonly journal: TaskJournal | undefined;
  /** The host's cancel switch: when it fires, the run stops at its next step or tool wait. */
  readonly signal?: AbortSignal | undefined;
  /** A resumable run's ledger and held calls (ledger.ts). */
  readonly replay?: Replay | undefined;
  /** False for a run that must generate no JavaScript (`engine: "general"`, or none allowed). */
  readonly generatesCode?: boolean;
}

export class RunContext implements WalkTarget {
  readonly limits: Limits;
  readonly data: PlainObject;
  readonly tools: ReadonlyMap<string, ToolObject>;
  /** Passed to every tool call: the host's signal, if any. */
  readonly toolCallOptions: ToolCallOptions;
  readonly namespace: Namespace;
  readonly history: readonly unknown[];
  readonly budget: unknown;
  readonly journal: TaskJournal | undefined;
  readonly replay: Replay | undefined;
  readonly startedAt: number;
  readonly deadline: number;
  /** Whether this run may compile JavaScript (field readers, the adaptive tier's promotions). */
  readonly generatesCode: boolean;

  fuel = FUEL_PER_CHECK;
  iterations = 0;
  /**
   * Generated loops test one counter per step: past this count of iterations they call
   * `loopCheck`, which applies the iteration limit and reads the clock (at most every
   * FUEL_PER_CHECK steps). It never exceeds maxIterations, so the limit holds to the step.
   */
  loopCheckAt: number;
  memory = 0;
  /** Bytes of vector copies (see COPY_ALLOWANCE_FACTOR). */
  copied = 0;
  depth = 0;
  prints: string[] = [];
  printsDropped = 0;
  readonly toolCalls: ToolCallRecord[] = [];
  /** What `(step-done ...)` recorded; made on the first (most runs mark no step). */
  stepSummaries: Map<string, string> | undefined;
  /**
   * Set when the run must stop (deadline passed while waiting, the host's signal fired, the run
   * ended); checked at every refuel and before every tool call. See `stop`.
   */
  abortReason: LispError | undefined;
  /** Inside a pmap/pcalls branch: its own defs, and prints are dropped. */
  branchDefs: Map<string, unknown> | undefined;
  /** Nesting of pmap/pcalls (a branch's own branches share the outer deadline). */
  parallelDepth = 0;
  parallelDeadline = Number.POSITIVE_INFINITY;
  /** The positions of this context's tool calls start with this (a branch's path; "" for the run). */
  callPath = "";
  /** Tool calls and parallel steps this context has made so far: the next one's number. */
  callCount = 0;
  /** Set when the run has ended: walks no longer charge it (values/walk-meter.ts). */
  finished = false;
  private iterationsAtBranch = 0;
  private memoryAtBranch = 0;
  private copiedAtBranch = 0;
  private deadlineTimer: LongTimer | undefined;
  private interruptPromise: Promise<never> | undefined;
  private rejectInterrupt: ((error: LispError) => void) | undefined;
  /** The run's own context: branches share its abort flag, interrupt promise and subscription. */
  private readonly root: RunContext;
  /** Leaves the signal's fan-out (abort-fanout.ts): many runs may share one signal. */
  private readonly unsubscribeAbort: (() => void) | undefined;

  constructor(init: ContextInit) {
    this.limits = init.limits;
    this.data = init.data;
    this.tools = init.tools;
    this.toolCallOptions = init.signal === undefined ? NO_SIGNAL : { signal: init.signal };
    this.namespace = init.namespace;
    this.history = init.history;
    this.budget = init.budget;
    this.journal = init.journal;
    this.replay = init.replay;
    this.generatesCode = init.generatesCode ?? true;
    this.loopCheckAt = Math.min(init.limits.maxIterations, FUEL_PER_CHECK);
    this.startedAt = now();
    this.deadline = this.startedAt + init.limits.timeoutMs;
    this.root = this;
    if (init.signal !== undefined) {
      if (init.signal.aborted) this.stop(abortedError());
      else this.unsubscribeAbort = subscribeAbort(init.signal, () => this.stop(abortedError()));
    }
  }

  /**
   * The context of one pmap/pcalls branch. It inherits everything from this one (tools, data, the
   * shared tool-call log, the abort flag) but owns its meters, its defs and its prints, so that
   * interleaved branches cannot see each other. `absorb` adds its usage back when it finishes.
   * `path` starts the positions of its tool calls: a branch counts its calls on its own, so their
   * positions do not depend on the order in which branches run.
   */
  branch(path: string): RunContext {
    const child = Object.create(this) as RunContext;
    child.callPath = path;
    child.callCount = 0;
    child.fuel = this.fuel;
    child.iterations = this.iterations;
    child.memory = this.memory;
    child.iterationsAtBranch = this.iterations;
    child.memoryAtBranch = this.memory;
    child.copied = this.copied;
    child.copiedAtBranch = this.copied;
    child.depth = this.depth;
    child.prints = [];
    child.printsDropped = 0;
    child.branchDefs = new Map(this.branchDefs ?? []);
    child.parallelDepth = this.parallelDepth;
    return child;
  }

  /** Adds a finished branch's iterations and allocations to this context's meters. */
  absorb(child: RunContext): void {
    this.iterations += child.iterations - child.iterationsAtBranch;
    this.memory += child.memory - child.memoryAtBranch;
    this.copied += child.copied - child.copiedAtBranch;
    if (this.iterations > this.limits.maxIterations) throw loopLimitError(this.limits.maxIterations);
    if (this.memory > this.limits.maxMemoryBytes) throw memoryError(this.limits.maxMemoryBytes);
    if (this.copied > this.limits.maxMemoryBytes * COPY_ALLOWANCE_FACTOR)
      throw copyError(this.limits.maxMemoryBytes * COPY_ALLOWANCE_FACTOR);
  }

  /** Called when fuel runs out: reads the clock, and stops the run past its deadline. */
  refuel(): void {
    this.fuel = FUEL_PER_CHECK;
    this.checkDeadline();
  }

  /**
   * The rare halves of a call's entry test, which checks depth and fuel in one condition (the
   * general evaluator's closures, generated functions through `$.gate`): past the depth limit, the
   * recursion error; otherwise the fuel ran out, and the clock is read.
   */
  entryCheck(position: Position): void {
    if (this.depth > this.limits.maxDepth) {
      throw new LispError(
        "recursion_limit_exceeded",
        `recursion depth exceeded ${this.limits.maxDepth} nested calls. Use loop/recur or reduce instead of deep recursion`,
        position,
      );
    }
    this.refuel();
  }

  /**
   * Stops the run if it must stop now: its deadline (or its pmap/pcalls deadline) has passed, or
   * the run was stopped. Called at every refuel, and after every tool call returns: a tool that
   * held the thread past the deadline must not let the program go on.
   */
  checkDeadline(): void {
    if (this.abortReason !== undefined) throw this.abortReason;
    const time = now();
    if (time > this.deadline) throw timeoutError(this.limits.timeoutMs);
    if (time > this.parallelDeadline)
      throw new LispError(
        "timeout",
        `parallel operation exceeded its ${this.limits.parallelTimeoutMs}ms deadline`,
      );
  }

  /**
   * A generated loop's step passed `loopCheckAt`: false when the iteration limit is exceeded (the
   * caller raises the error, at its position), else reads the clock and sets the next check.
   */
  loopCheck(): boolean {
    if (this.iterations > this.limits.maxIterations) return false;
    this.loopCheckAt = Math.min(this.limits.maxIterations, this.iterations + FUEL_PER_CHECK);
    this.refuel();
    return true;
  }

  /**
   * Puts the meters back to what they read when a unit of generated code (or a lazy pipeline)
   * started, before the general evaluator runs the same work again: the rerun repeats that work,
   * and counting it twice would stop a program that the general evaluator alone finishes. The
   * fuel is not put back: it only says when to read the clock, and the rerun takes real time.
   */
  rewind(iterations: number, memory: number, copied: number, loopCheckAt: number): void {
    this.iterations = iterations;
    this.memory = memory;
    this.copied = copied;
    this.loopCheckAt = loopCheckAt;
  }

  /** Charges work proportional to `units` elements, reading the clock when due. */
  work(units: number): void {
    this.fuel -= units;
    if (this.fuel <= 0) this.refuel();
  }

  /** Charges an allocation of about `bytes` bytes. */
  allocate(bytes: number): void {
    this.memory += bytes;
    if (this.memory > this.limits.maxMemoryBytes) throw memoryError(this.limits.maxMemoryBytes);
  }

  /**
   * Charges a copy of `slots` existing items into a new vector (conj, rest, pop, assoc... on a
   * vector): time, and the copy allowance (see COPY_ALLOWANCE_FACTOR). The items the copy adds
   * are charged with `allocate` by the caller.
   */
  copy(slots: number): void {
    this.copied += 8 * slots;
    const allowance = this.limits.maxMemoryBytes * COPY_ALLOWANCE_FACTOR;
    if (this.copied > allowance) throw copyError(allowance);
    this.fuel -= slots;
    if (this.fuel <= 0) this.refuel();
  }

  /** The position of the next tool call or parallel step of this context (see ToolCallOptions.position). */
  nextPosition(): string {
    return this.callPath + String(this.callCount++);
  }

  elapsedMs(): number {
    return now() - this.startedAt;
  }

  /**
   * Stops the run: code still running stops at its next step (refuel, the next tool call), and a
   * wait on a tool ends at once. The first reason wins.
   */
  stop(error: LispError): void {
    const root = this.root;
    root.abortReason ??= error;
    root.rejectInterrupt?.(root.abortReason);
  }

  /**
   * Rejects when the run must stop (its deadline passes, or `stop` is called): raced against
   * every await of a tool.
   */
  interrupted(): Promise<never> {
    const root = this.root;
    if (root.interruptPromise === undefined) {
      root.interruptPromise = new Promise<never>((_, reject) => {
        root.rejectInterrupt = reject;
      });
      // Nobody may be listening when it fires; that is fine.
      root.interruptPromise.catch(() => undefined);
      if (root.abortReason !== undefined) root.rejectInterrupt?.(root.abortReason);
      else {
        const remaining = Math.max(0, root.deadline - now());
        // Unref'd: a pending deadline must never keep the host process alive. A limit past what a
        // timer holds (Infinity: none) must not fire at once (long-timer.ts).
        root.deadlineTimer = startTimer(() => root.stop(timeoutError(root.limits.timeoutMs)), remaining, {
          unref: true,
        });
      }
    }
    return root.interruptPromise;
  }

  /** Releases the deadline timer and the signal listener; called when the run ends. */
  dispose(): void {
    this.root.finished = true;
    this.deadlineTimer?.clear();
    this.unsubscribeAbort?.();
  }
}

export function timeoutError(limitMs: number): LispError {
  return new LispError(
    "timeout",
    `execution exceeded ${limitMs}ms limit. Reduce the work: filter before mapping, avoid repeated passes over large data, or split the task across programs`,
  );
}

export function abortedError(): LispError {
  return new LispError("aborted", "the run was cancelled (its AbortSignal fired)");
}

export function memoryError(limitBytes: number): LispError {
  return new LispError(
    "memory_exceeded",
    `heap limit ${limitBytes} bytes exceeded: the program built too much data. Select fewer fields, filter earlier, or aggregate instead of collecting`,
  );
}

export function copyError(allowanceBytes: number): LispError {
  return new LispError(
    "memory_exceeded",
    `the program copied more than ${allowanceBytes} bytes of vectors: conj, rest, pop and assoc on a vector copy it, so building or walking a long vector one item at a time costs its length squared. Build vectors with mapv, filterv, for, into or reduce with conj, and walk them with reduce, doseq or map instead of recur over rest`,
  );
}

export function loopLimitError(limit: number): LispError {
  return new LispError(
    "loop_limit_exceeded",
    `Loop iteration limit exceeded (${limit} iterations). Use reduce/map over a finite sequence instead, or split work across smaller loops.`,
  );
}

/** The context of the code running right now. Only valid while a run is executing. */
export let active: RunContext = undefined as unknown as RunContext;

export function enter(context: RunContext): void {
  active = context;
  setWalkTarget(context);
  permitGeneratedCode(context.generatesCode);
}
