/**
 * The error for a non-2xx response: the status's kind (`kindOfStatus`, with 408 as `timeout`),
 * the provider's own message (from `error.message` in the JSON body, else the raw text) and the
 * wait it asked for.
 */
import { ModelCallError } from "@ptc/agent";
import { kindOfStatus } from "../model/status-kind.js";
import { isRecord } from "./is-record.js";
import { parseRetryAfter } from "./parse-retry-after.js";
import { providerText } from "./provider-text.js";
import type { Redact } from "./redact-secret.js";

export function toHttpError(response: Response, text: string, redact: Redact, url: string): ModelCallError {
  const { status } = response;
  const providerMessage = providerText(providerMessageOf(text) ?? response.statusText ?? "", redact);
  const suffix =
    (providerMessage === "" ? "" : `: ${providerMessage}`) + (status === 404 ? baseUrlHint(url) : "");
  const retryAfterMs = parseRetryAfter(response.headers);
  // 408 is the server timing out the request: retryable like a timeout, unlike other 4xx.
  const kind = status === 408 ? "timeout" : kindOfStatus(status);
  return new ModelCallError(kind, `OpenAI request failed with status ${status}${suffix}`, {
    status,
    ...(providerMessage === "" ? {} : { providerMessage }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/**
 * A 404 from a base URL without a version segment is almost always a missing `/v1`: OpenAI and
 * the compatible servers (Ollama, vLLM, LM Studio) serve Chat Completions under `/v1`.
 */
function baseUrlHint(url: string): string {
  const baseURL = url.replace(/\/chat\/completions$/, "");
  if (/\/v\d+[a-z0-9]*$/i.test(baseURL)) return "";
  return `. The request went to ${url}, and this baseURL has no version segment: OpenAI-compatible servers answer under /v1, so try baseURL "${baseURL}/v1" (Ollama: http://localhost:11434/v1)`;
}

function providerMessageOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
  if (isRecord(body)) {
    // OpenAI: `{error: {message}}`; some compatible servers: `{error: "..."}` or `{message}`.
    if (isRecord(body.error) && typeof body.error.message === "string") return body.error.message;
    if (typeof body.error === "string") return body.error;
    if (typeof body.message === "string") return body.message;
  }
  return trimmed;
}
