import type { ModelErrorKind } from "./model-error.js";

/** The kind an HTTP status stands for: 429 rate limit, 5xx server error, other 4xx client error. */
export function kindOfStatus(status: number): ModelErrorKind {
  if (status === 429) return "rate_limit";
  if (status >= 500) return "server_error";
  return "client_error";
}
