/**
 * Sandbox limits (docs/limits.md). Every limit can be set per run and has no hard ceiling: a host that
 * trusts its programs may raise any of them. The defaults are sized for agent programs over tool
 * results of up to about 100,000 rows; `REFERENCE_LIMITS` holds the reference's own values, for a
 * host that wants them (the conformance corpus runs with them).
 */
import { nearestName } from "../analyzer/nearest-name.js";
import { LispError } from "../errors.js";

export interface Limits {
  /** Wall-clock budget for one run, including time spent waiting for tools. Default 1000 ms. */
  readonly timeoutMs: number;
  /**
   * `recur` jumps per run (of loops and functions together): what stops a runaway loop. Walking a
   * collection (for, doseq, map, reduce...) is bounded by the collection and does not count.
   * Default 1,000,000 (the reference: 1,000, and it counts for/doseq elements too).
   */
  readonly maxIterations: number;
  /**
   * Approximate bytes the program may allocate (cumulative: vectors, maps, sets, strings it builds;
   * a derived map is charged for the entries it adds, not for a copy). Host data (context, tool
   * results) does not count. Default 64 MB (the reference: 10 MB).
   */
  readonly maxMemoryBytes: number;
  /** Deepest chain of nested function calls. Default 1000. */
  readonly maxDepth: number;
  /** Largest program source, in UTF-8 bytes. Default 1,000,000. */
  readonly maxProgramBytes: number;
  /** Most distinct symbols and keywords in one program. Default 10,000. */
  readonly maxSymbols: number;
  /** Deepest bracket nesting the reader accepts. Default 64. */
  readonly maxNesting: number;
  /** Characters kept of each println call. Default 2000. */
  readonly maxPrintLength: number;
  /** println calls kept per run (later ones are dropped and counted). Default 1000. */
  readonly maxPrintLines: number;
  /** Tool calls per run; unlimited by default, as in the reference. */
  readonly maxToolCalls: number;
  /** Deadline for one pmap/pcalls operation. Default 5000 ms. */
  readonly parallelTimeoutMs: number;
  /** Branches of pmap/pcalls running at once. Default 8. */
  readonly parallelConcurrency: number;
}

/** The reference's limits (ptc_runner v0.11.0), for hosts and tests that want its behaviour. */
export const REFERENCE_LIMITS: Limits = Object.freeze({
  timeoutMs: 1000,
  maxIterations: 1000,
  maxMemoryBytes: 10_000_000,
  maxDepth: 1000,
  maxProgramBytes: 1_000_000,
  maxSymbols: 10_000,
  maxNesting: 64,
  maxPrintLength: 2000,
  maxPrintLines: 1000,
  maxToolCalls: Number.POSITIVE_INFINITY,
  parallelTimeoutMs: 5000,
  parallelConcurrency: 8,
});

/**
 * What a run gets when it sets no limit: the reference's values, except where a program over
 * 100,000 rows would not fit. Loops may jump a million times (a 100,000-step `loop` is ordinary),
 * and programs may allocate 64 MB (deriving one small map per row of 100,000 rows is about 10 MB).
 * The wall clock stays at one second: that, not the counts, is what bounds a hostile program.
 */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  timeoutMs: 1000,
  maxIterations: 1_000_000,
  maxMemoryBytes: 64_000_000,
  maxDepth: 1000,
  maxProgramBytes: 1_000_000,
  maxSymbols: 10_000,
  maxNesting: 64,
  maxPrintLength: 2000,
  maxPrintLines: 1000,
  maxToolCalls: Number.POSITIVE_INFINITY,
  parallelTimeoutMs: 5000,
  parallelConcurrency: 8,
});

const hasOwn = Object.prototype.hasOwnProperty;

function copyOfDefaults(): { -readonly [K in keyof Limits]: number } {
  const d = DEFAULT_LIMITS;
  return {
    timeoutMs: d.timeoutMs,
    maxIterations: d.maxIterations,
    maxMemoryBytes: d.maxMemoryBytes,
    maxDepth: d.maxDepth,
    maxProgramBytes: d.maxProgramBytes,
    maxSymbols: d.maxSymbols,
    maxNesting: d.maxNesting,
    maxPrintLength: d.maxPrintLength,
    maxPrintLines: d.maxPrintLines,
    maxToolCalls: d.maxToolCalls,
    parallelTimeoutMs: d.parallelTimeoutMs,
    parallelConcurrency: d.parallelConcurrency,
  };
}

/** Merges user limits over the defaults, rejecting values that are not positive numbers. */
export function resolveLimits(partial: Partial<Limits> | undefined): Limits {
  if (partial === undefined) return DEFAULT_LIMITS;
  // A host usually passes the same limits object run after run: if it still holds what it held
  // last time, the last result stands.
  if (partial === last.partial && unchangedSinceLast(partial)) return last.resolved;
  const resolved = mergeLimits(partial);
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const key in partial) {
    if (!hasOwn.call(partial, key)) continue;
    keys.push(key);
    values.push((partial as Record<string, unknown>)[key]);
  }
  last = { partial, resolved, keys, values };
  return resolved;
}

let last: { partial: object | undefined; resolved: Limits; keys: string[]; values: unknown[] } = {
  partial: undefined,
  resolved: DEFAULT_LIMITS,
  keys: [],
  values: [],
};

/**
 * Whether `partial` enumerates exactly the keys and values it had when resolved last. An
 * inherited enumerable key (a polluted prototype) breaks the match, so only own keys can pass.
 */
function unchangedSinceLast(partial: object): boolean {
  const { keys, values } = last;
  let index = 0;
  for (const key in partial) {
    if (index >= keys.length || keys[index] !== key) return false;
    if ((partial as Record<string, unknown>)[key] !== values[index]) return false;
    index++;
  }
  return index === keys.length;
}

function mergeLimits(partial: Partial<Limits>): Limits {
  // Every run resolves its limits, so this is part of a short run's fixed cost: a literal copy of
  // the defaults (a spread of the frozen object takes V8's slow path, about 3x slower) and for-in
  // over own keys (no entry arrays).
  const merged = copyOfDefaults() as unknown as Record<string, number>;
  for (const key in partial) {
    if (!hasOwn.call(partial, key)) continue;
    const value = (partial as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (!hasOwn.call(DEFAULT_LIMITS, key)) {
      const suggestion = nearestName(key, Object.keys(DEFAULT_LIMITS));
      throw new LispError(
        "invalid_options",
        `unknown limit "${key}"${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}; known limits: ${Object.keys(DEFAULT_LIMITS).join(", ")}`,
      );
    }
    if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
      throw new LispError(
        "invalid_options",
        `limit "${key}" must be a positive number (Infinity allowed), got ${String(value)}`,
      );
    }
    merged[key] = value;
  }
  return merged as unknown as Limits;
}
