/**
 * How much of a response body the adapter reads. A completion is at most a few megabytes even
 * streamed (a chunk of JSON per token); a body past the limit is a broken or hostile server, or a
 * proxy's endless page, and reading it whole would grow memory without bound.
 */
import { ModelCallError } from "@ptc/agent";

/** The default of `maxResponseBytes`: 64 MiB, some ten times a long streamed completion. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * Bytes read of an error response: its message is in the first few hundred, and only
 * PROVIDER_TEXT_LIMIT characters of it are quoted.
 */
export const ERROR_BODY_BYTES = 64 * 1024;

export function responseTooLarge(maxBytes: number): ModelCallError {
  return new ModelCallError(
    "invalid_response",
    `OpenAI response is larger than maxResponseBytes (${maxBytes} bytes); raise the option if the server really sends that much`,
  );
}
