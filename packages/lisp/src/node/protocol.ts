/**
 * The messages between the host and an isolation worker. Every program value inside them is in
 * the encoded form of values/transfer.ts; everything else is plain data. The host reads every
 * message from the worker through `readWorkerMessage` (read-message.ts) before trusting its shape.
 */
import type { ErrorReason } from "../errors.js";
import type { Limits } from "../runtime/limits.js";
import type { EncodedValue } from "../values/transfer.js";

/**
 * What a worker keeps between runs:
 * - "once": nothing (runIsolated: one run, then the worker goes);
 * - "session": one Session of its own (createIsolatedSession);
 * - "runner": nothing but the functions it handed out, so that a host-held Session's functions
 *   stay callable in later runs (createIsolatedRunner).
 */
export type WorkerMode = "once" | "session" | "runner";

/** What the host hands the worker when it starts it. */
export interface WorkerSetup {
  readonly mode: WorkerMode;
  /**
   * The most a program's memory budget may be in this worker, in bytes (a quarter of its heap
   * cap): the program's own accounting must stop it well before V8's heap limit does, because
   * Node enforces that limit only on a best-effort basis (see isolation-host.ts).
   */
  readonly memoryCapBytes: number;
}

/**
 * Values the worker sends to the host are refused past this many nested collections: the host
 * receives messages on its main thread, whose stack is smaller than a worker's, and V8's
 * deserializer recurses once per level (a `{:a {:a ...}}` 2,000 deep cannot be received at all).
 */
export const MAX_TRANSFER_DEPTH = 400;

/** A session's state as it crosses (runner mode): what `createSession` takes. */
export interface SessionState {
  readonly bindings: EncodedValue;
  readonly history: EncodedValue;
  readonly journal: EncodedValue;
  /**
   * Worker to host only: every task id the journal holds after the run, in order (`journal` then
   * holds just the tasks the run recorded; the host keeps the values it has for the others).
   */
  readonly journalOrder?: EncodedValue;
}

/**
 * The context of a run, as it crosses: the entries sent with this run, and the keys of entries
 * the worker already has from its previous run (the host passed the very same values again; see
 * `reuseContext` in isolated.ts).
 */
export interface ContextTransfer {
  /** A plain object of data/ key to encoded value. */
  readonly sent: EncodedValue;
  readonly reused: readonly string[];
}

/** Host to worker: run one program. */
export interface RunRequest {
  readonly type: "run";
  readonly run: number;
  readonly source: string;
  /** Undefined when the run has no context. */
  readonly context: ContextTransfer | undefined;
  readonly budget: EncodedValue;
  /** Names of the host's tools; calls to them come back to the host as ToolCallRequest. */
  readonly tools: readonly string[];
  readonly limits: Partial<Limits> | undefined;
  readonly engine: "adaptive" | "fast" | "general" | undefined;
  /** Runner mode: the host-held session to run against (the worker answers with what changed). */
  readonly state: SessionState | undefined;
  /**
   * A resumable run (the host has a `ledger` or a `pauseBefore`): the ledger, encoded (an empty
   * array when there is none). The host decides what to hold; the worker only learns a call was.
   */
  readonly ledger?: EncodedValue;
}

/** Host to worker: the outcome of one tool call. */
export type ToolCallReply =
  | { readonly type: "tool-result"; readonly call: number; readonly ok: true; readonly value: EncodedValue }
  | {
      readonly type: "tool-result";
      readonly call: number;
      readonly ok: false;
      /** The error's text, as the tool-call log records it. */
      readonly message: string;
      /** Set when the tool failed with a LispError whose reason must survive (timeout, memory, invalid args). */
      readonly reason?: ErrorReason;
      /** The host's `pauseBefore` held the call: it did not run, and waits until the run pauses. */
      readonly held?: true;
    };

/** Host to worker: the run's AbortSignal fired; stop it cooperatively. */
export interface AbortRequest {
  readonly type: "abort";
  readonly run: number;
}

/**
 * Host to worker (session mode): the host could not read the result of `run`, so it reported the
 * run as failed; put the session back as it was before that run, as for any failed program.
 */
export interface DiscardRequest {
  readonly type: "discard";
  readonly run: number;
}

export type HostMessage = RunRequest | ToolCallReply | AbortRequest | DiscardRequest;

/** Worker to host: the run has begun (its clock starts now). */
export interface RunStarted {
  readonly type: "started";
  readonly run: number;
}

/** Worker to host: the program ended; only copying its result remains. */
export interface RunFinished {
  readonly type: "finished";
  readonly run: number;
}

/** Worker to host: call a host tool. */
export interface ToolCallRequest {
  readonly type: "tool-call";
  readonly run: number;
  readonly call: number;
  readonly name: string;
  readonly args: EncodedValue;
  /** The call's place in the program (ToolCallOptions.position), for the host's tool and pauseBefore. */
  readonly position?: string;
}

/** Worker to host: the RunResult, encoded, and (runner mode, when it succeeded) the session's changes. */
export interface RunDone {
  readonly type: "result";
  readonly run: number;
  readonly result: EncodedValue;
  readonly state?: SessionState;
}

/** Worker to host: `run` itself rejected (misuse, e.g. bad options). */
export interface RunFault {
  readonly type: "fault";
  readonly run: number;
  readonly reason: ErrorReason | undefined;
  readonly message: string;
}

export type WorkerMessage = RunStarted | RunFinished | ToolCallRequest | RunDone | RunFault;
