/**
 * Errors. A program that fails is an expected outcome: `run` returns it as data with a reason name
 * (the reference's, e.g. "unbound_var"), a message written for the model that has to fix the
 * program (what went wrong, where, what to write instead) and, when known, a line and column.
 * `LispError` carries the same data through the evaluator, and is also what the API throws for
 * misuse by the host (bad options), with a stable `code`.
 */

import { boundedMessage } from "./quoted-text.js";
import type { Position } from "./reader/form.js";

/** Reason names used by the reference; hosts match on these, never on message text. */
export type ErrorReason =
  | "parse_error"
  | "invalid_form"
  | "invalid_arity"
  | "invalid_thread_form"
  | "invalid_cond_form"
  | "invalid_placeholder"
  | "unbound_var"
  | "unknown_tool"
  | "invalid_tool_args"
  | "type_error"
  /**
   * Not produced any more: a call of a user function with the wrong number of arguments, and
   * `recur` with the wrong number, are `arity_error`, as a builtin's are. Kept so that code
   * matching on it still compiles (docs/limits.md).
   */
  | "arity_mismatch"
  | "arity_error"
  | "arithmetic_error"
  | "destructure_error"
  | "unsupported_pattern"
  | "unsupported_method"
  | "not_callable"
  | "invalid_keyword_call"
  | "invalid_map_call"
  | "loop_limit_exceeded"
  | "tool_error"
  | "tool_call_limit_exceeded"
  | "pmap_error"
  | "pcalls_error"
  | "parallel_capacity_exceeded"
  | "timeout"
  | "aborted"
  | "memory_exceeded"
  | "recursion_limit_exceeded"
  | "program_too_large"
  | "symbol_limit_exceeded"
  | "execution_error"
  | "runtime_error"
  | "invalid_options"
  | "host_data_error"
  | "paused"
  | "replay_diverged"
  | "fail";

export interface LispErrorData {
  readonly reason: ErrorReason;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

export class LispError extends Error {
  readonly reason: ErrorReason;
  /** Stable machine-readable code, e.g. "PTC_LISP_UNBOUND_VAR". */
  readonly code: string;
  line: number | undefined;
  column: number | undefined;
  /** The value given to `(fail v)`, for reason "fail". */
  readonly value: unknown;

  constructor(
    reason: ErrorReason,
    message: string,
    position?: Position,
    options?: { cause?: unknown; value?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LispError";
    this.reason = reason;
    this.code = `PTC_LISP_${reason.toUpperCase()}`;
    this.line = position?.line;
    this.column = position?.column;
    this.value = options?.value;
  }

  /** Attaches a position if the error does not have one yet (the innermost form wins). */
  at(position: Position | undefined): this {
    if (this.line === undefined && position !== undefined) {
      this.line = position.line;
      this.column = position.column;
    }
    return this;
  }

  toData(): LispErrorData {
    return {
      reason: this.reason,
      // A `(fail v)`'s message is the program's own value, shown as the program chose.
      message: this.reason === "fail" ? this.message : boundedMessage(this.message),
      ...(this.line === undefined ? {} : { line: this.line, column: this.column as number }),
    };
  }
}

export function lispError(reason: ErrorReason, message: string, position?: Position): LispError {
  return new LispError(reason, message, position);
}

export function typeError(message: string): LispError {
  return new LispError("type_error", message);
}

/**
 * Whether `thrown` is one of our errors. Host code may throw anything, and `instanceof` on a
 * revoked Proxy throws: this never does.
 */
export function isLispError(thrown: unknown): thrown is LispError {
  try {
    return thrown instanceof LispError;
  } catch {
    return false;
  }
}

const LIMIT_REASONS: ReadonlySet<string> = new Set([
  "timeout",
  "aborted",
  "memory_exceeded",
  "loop_limit_exceeded",
  "recursion_limit_exceeded",
]);

/** A run stopped by one of its limits (time, cancellation, memory, iterations, depth). */
export function isLimitError(error: unknown): boolean {
  return isLispError(error) && LIMIT_REASONS.has(error.reason);
}
