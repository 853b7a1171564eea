/**
 * Compiled programs by source text. Running the same program again (a host that applies one
 * program to many batches, a retry, a benchmark) skips reading, analysis and compilation, and
 * keeps the machine code V8 optimized for it.
 *
 * A program is kept compiled only from its second run on. An agent's programs almost all run
 * once, and keeping each one's node tree and closures until 256 newer programs push it out made
 * every one of them live long enough to be copied by the young-generation collector and then
 * marked in the old one: over 20,000 fresh ten-line programs that was a third of the time. The
 * first run leaves only its text (`sawBefore`), which costs the collector nothing to keep.
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

const MAX_TEXTS_SEEN = 1024;

/** Texts run once and not kept compiled, with the options key they ran under, oldest first. */
const seen = new Map<string, string>();

/**
 * Whether `key`'s text ran before under the same options (and was not kept compiled then);
 * otherwise notes that it ran now. A text seen again is forgotten here: it is about to be kept
 * compiled.
 */
export function sawBefore(key: ProgramKey): boolean {
  const options = seen.get(key.source);
  if (options === key.options) {
    seen.delete(key.source);
    return true;
  }
  if (options === undefined && seen.size >= MAX_TEXTS_SEEN) {
    seen.delete(seen.keys().next().value as string);
  }
  seen.set(key.source, key.options);
  return false;
}
