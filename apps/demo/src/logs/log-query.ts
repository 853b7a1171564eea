/**
 * The little query language of `search_logs`, forgiving the way models phrase things: every word
 * must match. A level (`error`, `warnings`), a code (`42`, `code:42`, `E42`), a service name, or
 * `field:value` narrow by field; any other word must appear in the message. Stop words are
 * ignored, so "errors with code 42" and "level:error AND code:42" mean the same.
 *
 * `since` counts back from the store's clock: "1h", "30m", "2 hours", "last hour", or an ISO time.
 * Bad input is an Error whose message tells the model what to write instead.
 */
import type { LogLine } from "./log-data.js";
import { SERVICES } from "./services.js";

export interface LogFilter {
  readonly levels: ReadonlySet<string>;
  readonly codes: ReadonlySet<number>;
  readonly services: ReadonlySet<string>;
  /** Lower-case words the message must contain. */
  readonly words: readonly string[];
}

const LEVELS: Readonly<Record<string, string>> = {
  error: "error",
  errors: "error",
  err: "error",
  warn: "warn",
  warns: "warn",
  warning: "warn",
  warnings: "warn",
  info: "info",
};
const STOP_WORDS = new Set([
  "and",
  "or",
  "with",
  "the",
  "a",
  "in",
  "of",
  "for",
  "code",
  "codes",
  "level",
  "logs",
]);
const SERVICE_NAMES = new Set(SERVICES.map((service) => service.name));

export function parseLogQuery(query: string): LogFilter {
  const levels = new Set<string>();
  const codes = new Set<number>();
  const services = new Set<string>();
  const words: string[] = [];
  const tokens = query
    .toLowerCase()
    .split(/[\s,;]+/)
    .map((token) => token.replace(/^["'(]+|["')]+$/g, ""))
    .filter((token) => token !== "");
  for (const token of tokens) {
    const [field, value] = token.includes(":")
      ? (token.split(":", 2) as [string, string])
      : [undefined, token];
    if (field === "level" || (field === undefined && value in LEVELS)) {
      levels.add(LEVELS[value] ?? value);
    } else if (field === "code" || (field === undefined && /^[ew]?\d+$/.test(value))) {
      codes.add(Number(value.replace(/^[ew]/, "")));
    } else if (field === "service" || (field === undefined && SERVICE_NAMES.has(value))) {
      services.add(value);
    } else if (field === "message" || field === undefined) {
      if (!STOP_WORDS.has(value)) words.push(value);
    } else {
      throw new Error(
        `search_logs: unknown field "${field}:" in query "${query}"; use level:, code:, service: or message:`,
      );
    }
  }
  return { levels, codes, services, words };
}

export function matchesFilter(line: LogLine, filter: LogFilter): boolean {
  if (filter.levels.size > 0 && !filter.levels.has(line.level)) return false;
  if (filter.codes.size > 0 && !filter.codes.has(line.code)) return false;
  if (filter.services.size > 0 && !filter.services.has(line.service)) return false;
  if (filter.words.length === 0) return true;
  const message = line.message.toLowerCase();
  return filter.words.every((word) => message.includes(word));
}

const UNITS: Readonly<Record<string, number>> = {
  s: 1_000,
  sec: 1_000,
  second: 1_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};

/** The earliest time (ms) a line may have, or an Error the model can act on. */
export function parseSince(since: string, now: number): number {
  const text = since
    .trim()
    .toLowerCase()
    .replace(/^(the )?(last|past)\s*/, "");
  const relative = /^(\d+(?:\.\d+)?)?\s*([a-z]+?)s?(?:\s+ago)?$/.exec(text);
  if (relative !== null) {
    const unit = UNITS[relative[2] as string];
    if (unit !== undefined) return now - Number(relative[1] ?? 1) * unit;
  }
  const absolute = Date.parse(since);
  if (/^\d{4}-\d{2}-\d{2}/.test(since.trim()) && !Number.isNaN(absolute)) return absolute;
  throw new Error(
    `search_logs: cannot read since "${since}"; write a duration such as "1h", "30m" or "2d", or an ISO time such as "${new Date(now - 3_600_000).toISOString()}"`,
  );
}
