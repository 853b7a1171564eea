/**
 * The one error class of @ptc/agent for programmer misuse: invalid agent or run options, a
 * `progress`/`continuationGuard` callback that returns the wrong shape, `runOrThrow` on a failed
 * run. Failures a run can meet (a model error, a budget stop, a bad program) are not thrown: they
 * come back as `{ ok: false, step }` with `step.fail`.
 */
import type { JsonValue } from "@ptc/tool";

/** Stable codes: match on these, never on message text. */
export type AgentErrorCode =
  /** An option of `createAgent` (or of the string form of `run`) is invalid. */
  | "PTC_AGENT_INVALID_OPTION"
  /** An option of `run`, `chat`, `asTool` or `previewPrompt` is invalid. */
  | "PTC_AGENT_INVALID_RUN_OPTION"
  /** A tool name is also a context key: the program could not tell them apart. */
  | "PTC_AGENT_NAME_CONFLICT"
  /** A user callback (`progress`, `continuationGuard`) returned something it may not. */
  | "PTC_AGENT_CALLBACK_ERROR"
  /** `runOrThrow`: the run failed; `details.reason` is `step.fail.reason`. */
  | "PTC_AGENT_RUN_FAILED";

export interface AgentErrorOptions {
  readonly details?: Readonly<Record<string, JsonValue>>;
  readonly cause?: unknown;
}

export class AgentError extends Error {
  override readonly name = "AgentError";
  readonly code: AgentErrorCode;
  readonly details: Readonly<Record<string, JsonValue>>;

  constructor(code: AgentErrorCode, message: string, options: AgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }
}

export function isAgentError(value: unknown): value is AgentError {
  return value instanceof AgentError;
}
