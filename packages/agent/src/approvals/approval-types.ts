/**
 * What `resume` takes besides the state. The paused result and its state are part of a run's
 * result (step/step-types.ts).
 */
import type { RunOptions } from "../run/run-options.js";

/** A rejected call: the program or the model sees a tool error with this message. */
export interface Rejection {
  readonly id: string;
  readonly message: string;
}

/**
 * Options of `resume`: the run options (a model, events, a signal, the `stateSecret` the state was
 * signed with...) but those that start a run afresh, which the state already holds, and the
 * decisions: every pending call approved or rejected, each exactly once.
 */
export interface ResumeOptions
  extends Omit<RunOptions, "context" | "initialMessages" | "initialMemory" | "toolCache" | "journal"> {
  /** Ids of pending calls that may run. */
  readonly approve?: readonly string[];
  /** Pending calls that may not: each becomes a tool error with its message. */
  readonly reject?: readonly Rejection[];
}
