/**
 * Turns whatever an AI SDK model throws (or sends as a stream `error` part) into a
 * `ModelCallError`, so `llmRetry` can classify it. The mapping:
 *
 * - the request's signal aborted, or an `AbortError`: `aborted`
 * - `APICallError` with a status: `kindOfStatus(status)` (408 is `timeout`), with `retryAfterMs`
 *   from `retry-after-ms` / `Retry-After`; without a status (fetch failed): `network_error`
 * - a `TimeoutError`: `timeout`
 * - the AI SDK's response errors (empty body, bad JSON, failed validation): `invalid_response`
 * - an `error` part of a stream that is none of the above: `server_error`, since the provider
 *   accepted the request and failed while answering (Anthropic's `overloaded_error`, say)
 * - anything else thrown (missing API key, unsupported feature, a bug): `client_error`, which is
 *   not retried: repeating the call would fail the same way
 *
 * A `ModelCallError` passes through untouched. It must never drop the provider's own message:
 * it is kept verbatim as `providerMessage` (the error's `message` quotes its first 1,000
 * characters), and the original error as `cause`.
 *
 * AI SDK errors are recognised by the marker symbols their `isInstance` checks, not by importing
 * the classes, so this subpath loads nothing from the optional `@ai-sdk/provider` peer at run time
 * and works with any copy of it.
 */
import { ModelCallError, type ModelErrorKind } from "@ptc/agent";
import { kindOfStatus } from "../model/status-kind.js";
import { retryAfterMs } from "./retry-after.js";

export type ErrorSource = "call" | "stream-part";

export function toModelCallError(
  error: unknown,
  signal: AbortSignal | undefined,
  source: ErrorSource = "call",
): ModelCallError {
  if (error instanceof ModelCallError) return error;
  const providerMessage = messageOf(error);
  if (signal?.aborted === true || nameOf(error) === "AbortError") {
    return new ModelCallError("aborted", "The model call was aborted.", { providerMessage, cause: error });
  }
  if (isAiSdkError(error, "AI_APICallError")) return fromApiCallError(error, providerMessage);
  if (nameOf(error) === "TimeoutError") {
    return new ModelCallError("timeout", `The model call timed out: ${quoted(providerMessage)}`, {
      providerMessage,
      cause: error,
    });
  }
  const kind = otherKind(error, source);
  return new ModelCallError(kind, `The model call failed (${kind}): ${quoted(providerMessage)}`, {
    providerMessage,
    cause: error,
  });
}

/** The fields of `APICallError` we read, typed here to avoid importing the class. */
interface ApiCallErrorFields {
  readonly statusCode?: number;
  readonly responseHeaders?: Record<string, string>;
}

function fromApiCallError(error: ApiCallErrorFields, providerMessage: string): ModelCallError {
  const status = error.statusCode;
  if (typeof status !== "number") {
    return new ModelCallError(
      "network_error",
      `The model call could not reach the provider: ${quoted(providerMessage)}`,
      {
        providerMessage,
        cause: error,
      },
    );
  }
  const kind: ModelErrorKind = status === 408 ? "timeout" : kindOfStatus(status);
  const wait = retryAfterMs(error.responseHeaders);
  return new ModelCallError(
    kind,
    `The model call failed with HTTP ${status} (${kind}): ${quoted(providerMessage)}`,
    {
      status,
      providerMessage,
      cause: error,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    },
  );
}

const invalidResponseErrors = [
  "AI_EmptyResponseBodyError",
  "AI_InvalidResponseDataError",
  "AI_JSONParseError",
  "AI_TypeValidationError",
  "AI_NoContentGeneratedError",
];

function otherKind(error: unknown, source: ErrorSource): ModelErrorKind {
  if (invalidResponseErrors.some((name) => isAiSdkError(error, name))) return "invalid_response";
  return source === "stream-part" ? "server_error" : "client_error";
}

/** Mirrors `AISDKError.hasMarker`: each AI SDK error class tags its instances with a global symbol. */
function isAiSdkError(error: unknown, name: string): error is ApiCallErrorFields {
  if (typeof error !== "object" || error === null) return false;
  return (error as Record<symbol, unknown>)[Symbol.for(`vercel.ai.error.${name}`)] === true;
}

function nameOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const name = (error as { name?: unknown }).name;
  return typeof name === "string" ? name : undefined;
}

/** The most characters of the provider's message an error's own message quotes. */
const QUOTED_LIMIT = 1000;

/**
 * The provider's message as the error's `message` quotes it: cut, since a provider may send
 * megabytes and a message is logged whole. `providerMessage` keeps it all, as documented.
 */
function quoted(message: string): string {
  return message.length > QUOTED_LIMIT
    ? `${message.slice(0, QUOTED_LIMIT)}... (${message.length} characters)`
    : message;
}

/** Stream error parts are often plain JSON from the provider (`{ type, message }`), not Errors. */
function messageOf(error: unknown): string {
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === "string" && message !== "") return message;
    try {
      return JSON.stringify(error);
    } catch {
      // A circular object: fall through to String().
    }
  }
  return String(error);
}
