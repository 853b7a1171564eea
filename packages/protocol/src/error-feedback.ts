/**
 * The body of a user-role error message (a failed program, a missing code block, a protocol
 * error): the message capped at `feedbackMaxChars`, framed as untrusted data. The agent appends
 * its turn-budget line after it.
 */
import { truncateChars } from "./truncate.js";
import { wrapUntrustedWithPreamble } from "./untrusted.js";

export const DEFAULT_FEEDBACK_MAX_CHARS = 512;

export interface ErrorFeedbackOptions {
  /** Default 512. */
  readonly feedbackMaxChars?: number;
}

export function buildErrorFeedback(message: string, options: ErrorFeedbackOptions = {}): string {
  const limit = options.feedbackMaxChars ?? DEFAULT_FEEDBACK_MAX_CHARS;
  const { text, truncated } = truncateChars(message, limit);
  const body = truncated ? `${text}\n... (truncated at ${limit} chars)` : text;
  return `Error:\n${wrapUntrustedWithPreamble(body, "error")}`;
}
