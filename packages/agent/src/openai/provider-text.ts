/**
 * Provider text quoted in an error (an error page, a message from the body, a chunk that is not
 * JSON): the API key removed, then cut to a length a log line holds. A provider may send megabytes
 * here, and an error message is logged, shown and sent to telemetry whole.
 *
 * Redacted before it is cut, never after: a cut through the key would keep the key's first
 * characters, which no redactor that looks for the whole key can then find.
 */
import type { Redact } from "./redact-secret.js";

/** The most characters of provider text an error quotes. */
export const PROVIDER_TEXT_LIMIT = 1000;

export function providerText(text: string, redact: Redact, limit: number = PROVIDER_TEXT_LIMIT): string {
  const clean = redact(text);
  return clean.length > limit ? `${clean.slice(0, limit)}... (${clean.length} characters)` : clean;
}
