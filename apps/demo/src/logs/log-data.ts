/**
 * The demo's log store: 48,000 generated log lines from the last 24 hours of a made-up shop, the
 * same on every run (seeded PRNG, fixed clock). The incident the demo asks about is planted: exactly
 * 1,842 lines in the last hour are errors with code 42, and no other line is, so the right answer
 * is known without trusting any code under demonstration.
 */
import { createRandom, type Random } from "../random.js";
import { SERVICES } from "./services.js";

export interface LogLine {
  readonly id: number;
  readonly timestamp: string;
  readonly service: string;
  readonly level: "info" | "warn" | "error";
  readonly code: number;
  readonly message: string;
}

/** "Now" for the demo: the logs end here and `since` windows count back from it. */
export const LOG_NOW = Date.parse("2026-03-14T12:00:00.000Z");
export const LOG_SEED = 42;
export const LOG_LINES = 48_000;
/** The planted incident: errors with code 42 in the hour before `LOG_NOW`. */
export const INCIDENT_ERRORS = 1_842;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const DEPENDENCIES = ["postgres", "redis", "kafka", "stripe-api", ...SERVICES.map((service) => service.name)];
const PATHS = ["/api/cart", "/api/orders", "/api/products", "/api/session", "/api/search", "/healthz"];
const USERS = ["svc-batch", "svc-reports", "u-10482", "u-22817", "u-30051", "u-47213"];
const EXCEPTIONS = ["NullPointerException", "IllegalStateException", "TypeError", "KeyError"];

type Level = LogLine["level"];
interface Draft {
  readonly time: number;
  readonly service: string;
  readonly level: Level;
  readonly code: number;
  readonly message: string;
}

export interface LogStore {
  /** Every line, oldest first; `id` is the position in this order, from 1. */
  readonly lines: readonly LogLine[];
  readonly now: number;
}

let cached: LogStore | undefined;

/** The demo's logs (generated once per process). */
export function demoLogs(): LogStore {
  cached ??= generateLogs(LOG_SEED, LOG_LINES);
  return cached;
}

export function generateLogs(seed: number, total: number): LogStore {
  const random = createRandom(seed);
  const drafts: Draft[] = [];
  const traffic = SERVICES.map((service) => [service.name, service.traffic] as const);
  const incident = SERVICES.map((service) => [service.name, service.incident] as const);
  for (let index = 0; index < INCIDENT_ERRORS; index++) {
    // (now - 1h, now]: inside any "last hour" window, whichever way its edge is rounded.
    const time = LOG_NOW - Math.floor(random.next() * (HOUR - 1));
    drafts.push(line(random, time, random.weighted(incident), "error", 42));
  }
  for (let index = drafts.length; index < total; index++) {
    const level = random.weighted<Level>([
      ["info", 82],
      ["warn", 12],
      ["error", 6],
    ]);
    const code =
      level === "info"
        ? 0
        : level === "warn"
          ? random.weighted([
              [17, 60],
              [42, 40],
            ])
          : random.weighted([
              [13, 20],
              [42, 35],
              [57, 25],
              [99, 20],
            ]);
    let time = LOG_NOW - Math.floor(random.next() * DAY);
    // Background code-42 errors happened earlier in the day, never in the incident hour.
    if (level === "error" && code === 42 && time > LOG_NOW - HOUR - 1000) {
      time = LOG_NOW - HOUR - 1000 - Math.floor(random.next() * 22 * HOUR);
    }
    drafts.push(line(random, time, random.weighted(traffic), level, code));
  }
  drafts.sort((a, b) => a.time - b.time);
  return {
    now: LOG_NOW,
    lines: drafts.map((draft, index) => ({
      id: index + 1,
      timestamp: new Date(draft.time).toISOString(),
      service: draft.service,
      level: draft.level,
      code: draft.code,
      message: draft.message,
    })),
  };
}

function line(random: Random, time: number, service: string, level: Level, code: number): Draft {
  return { time, service, level, code, message: message(random, service, level, code) };
}

function message(random: Random, service: string, level: Level, code: number): string {
  const dependency = random.pick(DEPENDENCIES.filter((name) => name !== service));
  const trace = random.next().toString(16).slice(2, 10).padEnd(8, "0");
  if (level === "info") {
    const method = random.pick(["GET", "GET", "GET", "POST", "PUT"]);
    return `${method} ${random.pick(PATHS)} ${random.pick([200, 200, 200, 201, 204, 304])} in ${random.between(3, 420)} ms`;
  }
  if (level === "warn") {
    return code === 42
      ? `W42 slow upstream: ${dependency} answered in ${random.between(1500, 2900)} ms (deadline 3000 ms)`
      : `W17 retrying ${dependency} (attempt ${random.between(1, 3)} of 3)`;
  }
  switch (code) {
    case 42:
      return `E42 upstream deadline exceeded: ${dependency} did not answer within 3000 ms (trace ${trace})`;
    case 13:
      return `E13 permission denied: token for ${random.pick(USERS)} lacks scope ${service}:write`;
    case 57:
      return `E57 connection reset by ${dependency} after ${random.between(0, 65_536)} bytes`;
    default:
      return `E99 unhandled ${random.pick(EXCEPTIONS)} in ${service}.${random.pick(["handle", "render", "sync", "flush"])} (trace ${trace})`;
  }
}
