/**
 * The one error class of @ptc/protocol, thrown only for programmer misuse (an error reason
 * outside the closed union, an unsupported reference card). Everything a model caused is
 * rendered as JSON for the model instead.
 */

import type { JsonValue } from "@ptc/tool";

/** @ptc/tool's JsonValue (the same type, re-exported): a value that survives `JSON.stringify`. */
export type { JsonValue };

export type ProtocolErrorCode = "PTC_PROTOCOL_INVALID_ARGUMENT" | "PTC_PROTOCOL_UNSUPPORTED_REFERENCE";

export interface ProtocolErrorOptions {
  readonly details?: Readonly<Record<string, JsonValue>>;
  readonly cause?: unknown;
}

export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  readonly code: ProtocolErrorCode;
  readonly details: Readonly<Record<string, JsonValue>>;

  constructor(code: ProtocolErrorCode, message: string, options: ProtocolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }
}

export function isProtocolError(value: unknown): value is ProtocolError {
  return value instanceof ProtocolError;
}
