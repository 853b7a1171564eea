/**
 * A resumed program that no longer makes the calls it made before its pause. The run must end
 * (reason `replay_diverged`) instead of feeding the model a failed turn: the model did nothing
 * wrong, and a new program could make the approved call in a way nobody approved.
 */
import type { ToolCallRecord } from "../step/step-types.js";

export class ReplayDivergedError extends Error {
  override readonly name = "ReplayDivergedError";

  constructor(
    message: string,
    /** The calls that ran in the turn's attempts, for the step. */
    readonly records: readonly ToolCallRecord[],
  ) {
    super(message);
  }
}
