/**
 * The messages between the host and an isolation worker. Every program value inside them is in
 * the encoded form of values/transfer.ts; everything else is plain data.
 */
import type { ErrorReason } from "../errors.js";
import type { Limits } from "../runtime/limits.js";
import type { EncodedValue } from "../values/transfer.js";

/** What the host hands the worker when it starts it. */
export interface WorkerSetup {
  /** Keep one Session for all runs of this worker. */
  readonly session: boolean;
}

/** Host to worker: run one program. */
export interface RunRequest {
  readonly type: "run";
  readonly run: number;
  readonly source: string;
  readonly context: EncodedValue;
  readonly budget: EncodedValue;
  /** Names of the host's tools; calls to them come back to the host as ToolCallRequest. */
  readonly tools: readonly string[];
  readonly limits: Partial<Limits> | undefined;
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
    };

/** Host to worker: the run's AbortSignal fired; stop it cooperatively. */
export interface AbortRequest {
  readonly type: "abort";
  readonly run: number;
}

export type HostMessage = RunRequest | ToolCallReply | AbortRequest;

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
}

/** Worker to host: the RunResult, encoded. */
export interface RunDone {
  readonly type: "result";
  readonly run: number;
  readonly result: EncodedValue;
}

/** Worker to host: `run` itself rejected (misuse, e.g. bad options). */
export interface RunFault {
  readonly type: "fault";
  readonly run: number;
  readonly reason: ErrorReason | undefined;
  readonly message: string;
}

export type WorkerMessage = RunStarted | RunFinished | ToolCallRequest | RunDone | RunFault;
