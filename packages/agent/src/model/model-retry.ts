/**
 * `llmRetry`: which failed model calls are worth another attempt and how long to wait. Errors are
 * classified by their HTTP `status` or their `code`; a provider's `retryAfterMs` is honoured when
 * it asks for longer than the backoff would wait.
 */
import type { LlmRetryOptions } from "../agent/agent-options.js";

export const DEFAULT_RETRYABLE = ["rate_limit", "timeout", "server_error"] as const;

export interface ResolvedRetry {
  readonly maxAttempts: number;
  readonly backoff: "exponential" | "linear" | "constant";
  readonly baseDelayMs: number;
  readonly retryableErrors: readonly string[];
}

export function resolveRetry(options: LlmRetryOptions | undefined): ResolvedRetry {
  return {
    maxAttempts: options?.maxAttempts ?? 1,
    backoff: options?.backoff ?? "exponential",
    baseDelayMs: options?.baseDelayMs ?? 1000,
    retryableErrors: options?.retryableErrors ?? DEFAULT_RETRYABLE,
  };
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

/** Milliseconds to wait before attempt `attempt + 1` (attempts count from 1). */
export function retryDelay(retry: ResolvedRetry, attempt: number, error: unknown): number {
  const base = retry.baseDelayMs;
  const backoff =
    retry.backoff === "linear"
      ? base * attempt
      : retry.backoff === "constant"
        ? base
        : base * 2 ** (attempt - 1);
  let asked: unknown;
  try {
    asked = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  } catch {
    // A getter that throws asks for nothing: the backoff stands.
  }
  return typeof asked === "number" && asked > backoff ? asked : backoff;
}
