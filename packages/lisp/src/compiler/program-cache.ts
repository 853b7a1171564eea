/**
 * Compiled programs by source text. Running the same program again (a host that applies one
 * program to many batches, a retry, a benchmark) skips reading, analysis and compilation, and
 * keeps the machine code V8 optimized for it.
 *
 * Compiled code depends on the text and on what analysis saw: the engine, the tool names, the
 * reader limits and the names a session had defined; the key holds all of them. It does not
 * depend on the namespace itself: vars find their cell in the running program's namespace
 * (runtime/var-cell.ts).
 */
import type { Code } from "./code.js";

export interface CompiledProgram {
  readonly code: Code;
  readonly frameSize: number;
  /** `data/` keys the program reads, sorted (run warns about those the context lacks). */
  readonly dataKeys: readonly string[];
  /** What reading and analysis noticed but let pass (an extra closing bracket, say). */
  readonly warnings: readonly string[];
}

/**
 * What the cache keeps of a text run once (adaptive or general tier): that it ran, not its
 * program. Most texts run once (an agent's programs): keeping each one's closures and syntax tree
 * (tens of kilobytes) had every young-generation collection copy them and promote them to the old
 * generation, about a third of a small new program's time. A text that runs twice is likely to
 * run again: its second run prepares it anew and the cache keeps that program, on the adaptive
 * tier with every pure part compiled to generated JavaScript.
 */
export const SEEN_ONCE = Symbol("seen once");
export type CacheEntry = CompiledProgram | typeof SEEN_ONCE;

const MAX_PROGRAMS = 256;
/** Longer programs are rare and big: not worth keeping. */
const MAX_SOURCE_LENGTH = 64 * 1024;

/**
 * Programs by source text, then by the rest of the key. Two levels, so that a lookup hashes the
 * caller's own source string (V8 keeps a string's hash on it) instead of a new concatenation of
 * the source with the options on every run.
 */
const programs = new Map<string, Map<string, CacheEntry>>();
let count = 0;

/**
 * Whether a text is kept at all. A program's key is its text and, as a second string, the
 * options that change what analysis sees (run.ts, optionsKey): two arguments rather than a key
 * object, which a run would allocate only to look it up.
 */
export function cacheable(source: string): boolean {
  return source.length <= MAX_SOURCE_LENGTH;
}

/** The source used last, already at the end of `programs` (no reordering needed). */
let newest: string | undefined;

/**
 * The last program found, with its key: a host that runs one text again and again (with the
 * same options, whose key text run.ts reuses) finds it with two string comparisons, which are
 * pointer tests for the same strings, instead of two Map lookups. Forgotten whenever the cache
 * changes, so it never outlives its entry.
 */
let lastFound: { source: string; options: string; program: CacheEntry } | undefined;

/** How often a lookup found the last program found (for tests: proof that it did). */
export const programCacheStats = { lastFound: 0 };

export function cachedProgram(source: string, options: string): CacheEntry | undefined {
  const last = lastFound;
  if (last !== undefined && last.source === source && last.options === options) {
    programCacheStats.lastFound++;
    return last.program;
  }
  const variants = programs.get(source);
  const found = variants?.get(options);
  if (found !== undefined && source !== newest) {
    // Most recently used last: eviction takes the oldest first.
    programs.delete(source);
    programs.set(source, variants as Map<string, CacheEntry>);
    newest = source;
  }
  if (found !== undefined) lastFound = { source, options, program: found };
  return found;
}

/**
 * The code of the last programs that ran for a while, whatever the cache keeps of them. V8 holds
 * the machine code it optimized for a function literal only weakly: once no live closure uses it,
 * a collection drops it and the next program starts that literal from bytecode again. Keeping the
 * code (not the syntax tree) of recent programs keeps the evaluator's hot closures optimized. How
 * many matters when programs of different shapes alternate: with 32, a whole 100,000-row fresh
 * bench run after others (`data-programs.bench.mjs --sizes 100000 --mode fresh`) was 1.79x JS
 * against 1.41x for the old cache of 256 whole programs (cheap scans such as `count filter` 2-4x
 * slower); with 256 it was 1.31x.
 *
 * Only a run that took KEEP_ALIVE_AFTER_MS or more is kept. Keeping every program had each
 * young-generation collection copy the last 256 programs' closures (about 33 KB for a ten-line
 * program) and promote them: with a stream of short programs, scavenges took 13 ms each over a
 * heap of 80 MB, and the ten-line program's median was 0.101-0.108 ms against 0.079-0.096 ms
 * kept for one program only (three runs each, alternated). A run that short did too little work
 * for its own closures to matter; the literals it shares with longer runs stay optimized through
 * theirs. The threshold sits well below the bench's shortest runs over data (0.3 ms and more at
 * 1,000 rows), which are kept as before. A first try at one millisecond split the 10,000-row
 * fresh cases, which take about that long, into kept and not kept from one run to the next; one
 * of them took 2.4 ms in one bench run against 1.0 in the two others, which may have been that.
 */
const KEPT_ALIVE = 256;
export const KEEP_ALIVE_AFTER_MS = 0.25;
const keptAlive: Code[] = [];
let keptNext = 0;

/** How many programs were kept alive (for tests: proof of which runs were). */
export const keepAliveStats = { kept: 0 };

/**
 * Keeps `code` reachable until KEPT_ALIVE programs later, if its run took long enough. A program
 * already kept is not kept twice: a cached program run again and again would otherwise fill the
 * ring with itself and push the other shapes out. (The search is 256 pointer comparisons, against
 * a run of a quarter of a millisecond or more.)
 */
export function keepAlive(code: Code, elapsedMs: number): void {
  if (elapsedMs < KEEP_ALIVE_AFTER_MS || keptAlive.includes(code)) return;
  keepAliveStats.kept++;
  keptAlive[keptNext] = code;
  keptNext = (keptNext + 1) % KEPT_ALIVE;
}

export function rememberProgram(source: string, options: string, program: CacheEntry): void {
  lastFound = undefined;
  let variants = programs.get(source);
  if (variants === undefined) {
    while (count >= MAX_PROGRAMS) {
      const [oldest, evicted] = programs.entries().next().value as [string, Map<string, CacheEntry>];
      programs.delete(oldest);
      count -= evicted.size;
    }
    variants = new Map();
    programs.set(source, variants);
    newest = source;
  }
  if (!variants.has(options)) count++;
  variants.set(options, program);
}
