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
  /** Replaced once by `upgrade`'s code when the same text runs again. */
  code: Code;
  readonly frameSize: number;
  /** `data/` keys the program reads, sorted (run warns about those the context lacks). */
  readonly dataKeys: readonly string[];
  /** What reading and analysis noticed but let pass (an extra closing bracket, say). */
  readonly warnings: readonly string[];
  /**
   * Adaptive tier: compiles the program again with every pure part as generated JavaScript, for
   * the next run of the same text (a text that runs twice is likely to run again). Cleared once used.
   */
  upgrade: (() => Code) | undefined;
}

const MAX_PROGRAMS = 256;
/** Longer programs are rare and big: not worth keeping. */
const MAX_SOURCE_LENGTH = 64 * 1024;

/**
 * Programs by source text, then by the rest of the key. Two levels, so that a lookup hashes the
 * caller's own source string (V8 keeps a string's hash on it) instead of a new concatenation of
 * the source with the options on every run.
 */
const programs = new Map<string, Map<string, CompiledProgram>>();
let count = 0;

export interface ProgramKey {
  readonly source: string;
  readonly options: string;
}

/** The key of a program: its text, and the options that change what analysis sees, as one string. */
export function programKey(source: string, options: string): ProgramKey | undefined {
  if (source.length > MAX_SOURCE_LENGTH) return undefined;
  return { source, options };
}

/** The source used last, already at the end of `programs` (no reordering needed). */
let newest: string | undefined;

export function cachedProgram(key: ProgramKey): CompiledProgram | undefined {
  const variants = programs.get(key.source);
  const found = variants?.get(key.options);
  if (found !== undefined && key.source !== newest) {
    // Most recently used last: eviction takes the oldest first.
    programs.delete(key.source);
    programs.set(key.source, variants as Map<string, CompiledProgram>);
    newest = key.source;
  }
  return found;
}

export function rememberProgram(key: ProgramKey, program: CompiledProgram): void {
  let variants = programs.get(key.source);
  if (variants === undefined) {
    while (count >= MAX_PROGRAMS) {
      const [oldest, evicted] = programs.entries().next().value as [string, Map<string, CompiledProgram>];
      programs.delete(oldest);
      count -= evicted.size;
    }
    variants = new Map();
    programs.set(key.source, variants);
    newest = key.source;
  }
  if (!variants.has(key.options)) count++;
  variants.set(key.options, program);
}
