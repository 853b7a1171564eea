/**
 * RE2 (re2js), loaded the first time a program may need it. Importing re2js costs more than the
 * rest of `@ptc/lisp` together on a cold start (about 260 KB of JavaScript to compile and a
 * Unicode table to build), and most programs never use a regex; those that do mostly use
 * patterns the native engine runs (regex-native.ts) over short texts.
 *
 * Matching is synchronous, and ESM has no synchronous import, so the engine is loaded before a
 * program that might use it is analyzed: `run` awaits `loadRegexEngine()` when the program's text
 * could make or use a regex (`mayUseRegex`). Once loaded it stays loaded for the process, so a
 * regex kept in a session, or a function that uses one, finds it there later.
 *
 * Never import re2js anywhere else in the package's runtime code (type imports are fine).
 */
import type { RE2JS } from "re2js";
import { LispError } from "../errors.js";

let engine: typeof RE2JS | undefined;
let loading: Promise<void> | undefined;

/** Loads RE2 once; resolves at once when it is loaded already. */
export function loadRegexEngine(): Promise<void> {
  if (engine !== undefined) return Promise.resolve();
  loading ??= import("re2js").then(
    (module) => {
      engine = module.RE2JS;
    },
    (error: unknown) => {
      // A later call tries again (say, after a host fixed its bundle).
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export function regexEngineLoaded(): boolean {
  return engine !== undefined;
}

/** The loaded engine. A run loads it before analysis whenever its text could reach it. */
export function regexEngine(): typeof RE2JS {
  if (engine === undefined) {
    throw new LispError(
      "runtime_error",
      "the regex engine is not loaded (a bug in @ptc/lisp, please report it); try a simpler pattern",
    );
  }
  return engine;
}

/**
 * Whether a program's text may make a regex or hand one to a builtin: a `#"..."` literal, or the
 * name of a builtin that makes or takes one (`re-pattern`, `re-find`..., `split`, `replace`,
 * `extract`). A cheap test of the text, erring on the side of loading.
 */
export function mayUseRegex(source: string): boolean {
  // A host often runs one text again and again; the same string object compares at once.
  if (source !== lastSource) {
    lastAnswer = /#"|re-|split|replace|extract/.test(source);
    lastSource = source;
  }
  return lastAnswer;
}

/** The text `mayUseRegex` was asked about last, and its answer. */
let lastSource: string | undefined;
let lastAnswer = false;
