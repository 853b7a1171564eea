/**
 * The messages between the page and the Web Worker that runs programs (run-worker.ts). Plain
 * data only: they cross `postMessage`. The worker formats values itself, so no program value ever
 * reaches the page.
 */
import type { CodeGeneration, CodeGenerationStatus, ErrorReason } from "@ptc/lisp";

/** The limits the page lets a user set; the others keep @ptc/lisp's defaults. */
export interface PlaygroundLimits {
  readonly timeoutMs: number;
  readonly maxIterations: number;
  readonly maxMemoryBytes: number;
  readonly maxDepth: number;
}

export interface RunRequest {
  readonly type: "run";
  readonly id: number;
  readonly program: string;
  /** The `data/` namespace, already parsed. */
  readonly context: Readonly<Record<string, unknown>>;
  /** Mock tools: a name and the JSON every call returns. */
  readonly tools: Readonly<Record<string, unknown>>;
  readonly limits: PlaygroundLimits;
  readonly codeGeneration: CodeGeneration;
}

/** Sent once, before anything else, when the worker has loaded @ptc/lisp. */
export interface ReadyReply {
  readonly type: "ready";
}

export interface RunOutcomeBase {
  readonly type: "result";
  readonly id: number;
  readonly prints: readonly string[];
  readonly toolCalls: readonly { readonly name: string; readonly args: unknown }[];
  readonly warnings: readonly string[];
  readonly durationMs: number;
  readonly usage: { readonly iterations: number; readonly memoryBytes: number } | null;
  /** What @ptc/lisp said about code generation after the run. */
  readonly codeGeneration: CodeGenerationStatus;
}

export interface RunValueReply extends RunOutcomeBase {
  readonly ok: true;
  /** The value as PTC-Lisp text (`format`), laid out over lines when long (pretty-value.ts). */
  readonly value: string;
  /** The value as JSON text (`toJson`, indented). */
  readonly json: string;
  readonly returned: boolean;
}

export interface RunErrorReply extends RunOutcomeBase {
  readonly ok: false;
  readonly error: {
    readonly reason: ErrorReason;
    readonly message: string;
    readonly line: number | null;
    readonly column: number | null;
  };
}

export type RunReply = RunValueReply | RunErrorReply;

/** A Content-Security-Policy violation seen inside the worker (the page reports its own). */
export interface ViolationReply {
  readonly type: "csp-violation";
  readonly directive: string;
  readonly blockedURI: string;
}

export type WorkerReply = ReadyReply | RunReply | ViolationReply;
