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

const programs = new Map<string, CompiledProgram>();

export function programKey(source: string, parts: readonly unknown[]): string | undefined {
  if (source.length > MAX_SOURCE_LENGTH) return undefined;
  return `${parts.join("\u0001")}\u0000${source}`;
}

export function cachedProgram(key: string): CompiledProgram | undefined {
  const found = programs.get(key);
  if (found !== undefined) {
    // Most recently used last: eviction takes the oldest first.
    programs.delete(key);
    programs.set(key, found);
  }
  return found;
}

export function rememberProgram(key: string, program: CompiledProgram): void {
  if (programs.size >= MAX_PROGRAMS) programs.delete(programs.keys().next().value as string);
  programs.set(key, program);
}
