/**
 * How long a provider asked us to wait, in milliseconds: `retry-after-ms` (OpenAI's precise form)
 * first, then `Retry-After` as seconds or as an HTTP date. `undefined` when absent or unreadable,
 * so a garbled header falls back to the retry policy's own backoff instead of a wrong wait.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = parseNumber(headers.get("retry-after-ms"));
  if (milliseconds !== undefined) return milliseconds;
  const header = headers.get("retry-after");
  if (header === null) return undefined;
  // Checked first because `Date.parse` reads a bare number such as "-1" as a year.
  if (/^\s*[-+]?[\d.]+\s*$/.test(header)) {
    const seconds = parseNumber(header);
    return seconds === undefined ? undefined : seconds * 1000;
  }
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseNumber(text: string | null): number | undefined {
  if (text === null || text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
