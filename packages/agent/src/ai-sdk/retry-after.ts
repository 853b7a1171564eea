/**
 * Reads how long a provider asked us to wait from its response headers: OpenAI's `retry-after-ms`
 * first (it is more precise), then the standard `Retry-After` in seconds or as an HTTP date.
 * Unreadable or missing values give `undefined`, never a guess.
 */

export function retryAfterMs(
  headers: Readonly<Record<string, string>> | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = Number.parseFloat(header(headers, "retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.ceil(milliseconds);
  const retryAfter = header(headers, "retry-after")?.trim();
  if (retryAfter === undefined || retryAfter === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.ceil(Number(retryAfter) * 1000);
  const date = Date.parse(retryAfter);
  // A date already past means "now": wait zero, not a negative time.
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Header names are case-insensitive; fetch lowercases them but hand-built errors may not. */
function header(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}
