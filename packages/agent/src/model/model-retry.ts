/**
 * `llmRetry`: which failed model calls are worth another attempt and how long to wait. Errors are
 * classified by their HTTP `status` or their `code`; a provider's `retryAfterMs` is honoured when
 * it asks for longer than the backoff would wait, up to `maxDelayMs`.
 */
import type { LlmRetryOptions } from "../agent/agent-options.js";
import { describe } from "../agent/describe.js";

export const DEFAULT_RETRYABLE = ["rate_limit", "timeout", "server_error"] as const;

export interface ResolvedRetry {
  readonly maxAttempts: number;
  readonly backoff: "exponential" | "linear" | "constant";
  readonly baseDelayMs: number;
  readonly retryableErrors: readonly string[];
  readonly maxDelayMs: number;
}

/**
 * The longest wait before a retry unless `llmRetry.maxDelayMs` says otherwise. A provider asking
 * for longer (a quota that resets tomorrow answers with a `Retry-After` of hours) would otherwise
 * park the run silently; its error, returned at once, tells the host what happened.
 */
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

export function resolveRetry(options: LlmRetryOptions | undefined): ResolvedRetry {
  return {
    maxAttempts: options?.maxAttempts ?? 1,
    backoff: options?.backoff ?? "exponential",
    baseDelayMs: options?.baseDelayMs ?? 1000,
    retryableErrors: options?.retryableErrors ?? DEFAULT_RETRYABLE,
    maxDelayMs: options?.maxDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
  };
}

/** What is wrong with the numbers of an `llmRetry` object, or `undefined` when nothing is. */
export function llmRetryProblem(options: LlmRetryOptions): string | undefined {
  const attempts: unknown = options.maxAttempts;
  if (
    attempts !== undefined &&
    (typeof attempts !== "number" || !Number.isInteger(attempts) || attempts < 1)
  ) {
    return `llmRetry.maxAttempts must be a positive integer, got ${describe(attempts)}`;
  }
  const longest: unknown = options.maxDelayMs;
  // NaN would compare false with every wait, and so let any wait through.
  if (longest !== undefined && (typeof longest !== "number" || Number.isNaN(longest) || longest < 0)) {
    return `llmRetry.maxDelayMs must be a number of milliseconds ≥ 0 (Infinity waits however long a provider asks), got ${describe(longest)}`;
  }
  return undefined;
}

/**
 * The kind of a model failure: `rate_limit`, `server_error`, `client_error`, `timeout`, ... or
 * `unknown`. A model function may throw anything, including an Error whose `status` or `name`
 * getter throws or a revoked Proxy: what cannot be read is `unknown`, never a crash of the run.
 */
export function classifyModelError(error: unknown): string {
  try {
    return classify(error);
  } catch {
    return "unknown";
  }
}

function classify(error: unknown): string {
  if (typeof error !== "object" || error === null) return "unknown";
  const { status, code, name } = error as { status?: unknown; code?: unknown; name?: unknown };
  if (typeof status === "number") {
    if (status === 429) return "rate_limit";
    if (status >= 500) return "server_error";
    if (status >= 400) return "client_error";
  }
  if (typeof code === "string" && code !== "") return code;
  if (name === "TimeoutError") return "timeout";
  return "unknown";
}

/**
 * Milliseconds to wait before attempt `attempt + 1` (attempts count from 1). More than
 * `retry.maxDelayMs` only when the provider asked for it: the caller does not wait then.
 */
export function retryDelay(retry: ResolvedRetry, attempt: number, error: unknown): number {
  const base = retry.baseDelayMs;
  const growing =
    retry.backoff === "linear"
      ? base * attempt
      : retry.backoff === "constant"
        ? base
        : base * 2 ** (attempt - 1);
  const backoff = Math.min(growing, retry.maxDelayMs);
  let asked: unknown;
  try {
    asked = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  } catch {
    // A getter that throws asks for nothing: the backoff stands.
  }
  return typeof asked === "number" && asked > backoff ? asked : backoff;
}
