/**
 * The error a model adapter throws when a call fails, carrying what `llmRetry` classifies on:
 * the HTTP status, a kind (`rate_limit`, `server_error`, `timeout`, `client_error`...) and the
 * provider's own message. Model functions may throw any error; this one is simply well described.
 */
import type { ModelErrorFields } from "./model-types.js";

export type ModelErrorKind =
  | "rate_limit"
  | "server_error"
  | "client_error"
  | "timeout"
  | "network_error"
  | "invalid_response"
  | "aborted";

export interface ModelCallErrorOptions {
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** The provider's error message, verbatim. */
  readonly providerMessage?: string;
  readonly cause?: unknown;
}

export class ModelCallError extends Error implements ModelErrorFields {
  override readonly name = "ModelCallError";
  readonly code: ModelErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly providerMessage?: string;

  constructor(code: ModelErrorKind, message: string, options: ModelCallErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.providerMessage !== undefined) this.providerMessage = options.providerMessage;
  }
}
