/**
 * The JSON a `lisp_eval` call returns when its program did not succeed. The reasons form a
 * closed union so that every consumer can handle all of them; `fail` alone carries a `result`,
 * the value the program failed with.
 */
import { ProtocolError } from "./errors.js";

/**
 * Why a `lisp_eval` call failed, as the model reads it: seven reasons on the wire. Not @ptc/lisp's
 * `ErrorReason` (every reason a program run can end with); `classifyErrorReason` maps those
 * onto these.
 */
export type LispEvalErrorReason =
  | "parse_error"
  | "runtime_error"
  | "timeout"
  | "memory_limit"
  | "args_error"
  | "fail"
  | "validation_error";

/**
 * @deprecated Use `LispEvalErrorReason`, the same type; this name collides with @ptc/lisp's
 * `ErrorReason`, which is a different one.
 */
export type ErrorReason = LispEvalErrorReason;

export const ERROR_REASONS: readonly LispEvalErrorReason[] = [
  "parse_error",
  "runtime_error",
  "timeout",
  "memory_limit",
  "args_error",
  "fail",
  "validation_error",
];

export interface RenderErrorOptions {
  /** Only for `fail`: the failed value, usually its Clojure text. */
  readonly result?: unknown;
  /** Defaults to the message. */
  readonly feedback?: string;
}

export function renderError(
  reason: LispEvalErrorReason,
  message: string,
  options: RenderErrorOptions = {},
): string {
  if (!ERROR_REASONS.includes(reason)) {
    throw new ProtocolError(
      "PTC_PROTOCOL_INVALID_ARGUMENT",
      `unknown lisp_eval error reason: ${String(reason)}`,
      {
        details: { reason: String(reason) },
      },
    );
  }
  if (typeof message !== "string") {
    throw new ProtocolError("PTC_PROTOCOL_INVALID_ARGUMENT", "renderError needs a string message");
  }
  const payload: Record<string, unknown> = {
    status: "error",
    reason,
    message,
    feedback: options.feedback ?? message,
  };
  if (reason === "fail") payload.result = options.result ?? null;
  return JSON.stringify(payload);
}

/**
 * Maps a PTC-Lisp failure reason (`unbound_var`, `memory_exceeded`, `parse_error`...) onto the
 * closed union: parse, timeout and memory failures keep their family, `fail` (a program's own
 * `(fail v)`) stays `fail`, the rest are runtime errors.
 */
export function classifyErrorReason(lispReason: string): LispEvalErrorReason {
  if (
    lispReason === "parse_error" ||
    lispReason === "timeout" ||
    lispReason === "memory_limit" ||
    lispReason === "fail"
  )
    return lispReason;
  if (lispReason.includes("parse")) return "parse_error";
  if (lispReason.includes("timeout")) return "timeout";
  if (lispReason.includes("memory")) return "memory_limit";
  return "runtime_error";
}
