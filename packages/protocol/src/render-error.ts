/**
 * The JSON a `lisp_eval` call returns when its program did not succeed. The reasons form a
 * closed union so that every consumer can handle all of them; `fail` alone carries a `result`,
 * the value the program failed with.
 *
 * The message, the feedback and the failed value describe what a program did and may quote its
 * values (a type error prints the offending row), so each is framed as untrusted data; the
 * feedback with the preamble, as in a success's feedback.
 */
import { ProtocolError } from "./errors.js";
import { wrapUntrusted, wrapUntrustedWithPreamble } from "./untrusted.js";

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
  /** Only for `fail`: the failed value, usually its Clojure text (other values as their JSON text). */
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
    message: wrapUntrusted(message, "error"),
    feedback: wrapUntrustedWithPreamble(options.feedback ?? message, "error"),
  };
  if (reason === "fail") payload.result = failedValue(options.result);
  return JSON.stringify(payload);
}

function failedValue(result: unknown): string | null {
  if (result === null || result === undefined) return null;
  if (typeof result === "string") return wrapUntrusted(result, "result");
  return wrapUntrusted(valueText(result), "result");
}

function valueText(value: unknown): string {
  try {
    return (
      JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item)) ??
      String(value)
    );
  } catch {
    return Object.prototype.toString.call(value);
  }
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
