/**
 * Regexes run on RE2 (re2js): matching time is linear in the input for every pattern, so no
 * pattern a model writes can hang the host. Constructs RE2 cannot run (backreferences,
 * lookaround) are rejected when the pattern is compiled, with an error naming the construct.
 */
import type { RE2JS } from "re2js";
import { LispError } from "../errors.js";
import { CustomValue } from "./custom-value.js";
import { regexEngine } from "./regex-engine.js";
import { type NativePattern, nativePattern } from "./regex-native.js";

/** Longest pattern accepted, as in the reference. */
export const MAX_PATTERN_LENGTH = 256;

const UNSUPPORTED: ReadonlyArray<readonly [RegExp, string]> = [
  [/\\[1-9]/, "backreferences (\\1)"],
  [/\(\?<?[=!]/, "lookaround ((?=...), (?!...), (?<=...), (?<!...))"],
  [/\(\?>/, "atomic groups ((?>...))"],
  [/[*+?}]\+/, "possessive quantifiers (a*+)"],
];

/** Compiled patterns by source, oldest first (a bounded cache: programs rarely use many). */
const compiledPatterns = new Map<string, Regex>();
const MAX_KEPT_PATTERNS = 512;

export class Regex extends CustomValue {
  /** The same pattern on V8's engine, where that is provably equivalent and safe (regex-native.ts). */
  readonly native: NativePattern | undefined;
  #compiled: RE2JS | undefined;

  private constructor(
    readonly source: string,
    native: NativePattern | undefined,
    compiled: RE2JS | undefined,
  ) {
    super();
    this.native = native;
    this.#compiled = compiled;
  }

  /** The pattern on RE2, compiled when first needed: a native pattern over short texts never is. */
  get compiled(): RE2JS {
    this.#compiled ??= regexEngine().compile(this.source);
    return this.#compiled;
  }

  /** Whether RE2 has compiled this pattern: false while the native engine has served every search. */
  get compiledOnRe2(): boolean {
    return this.#compiled !== undefined;
  }

  /** A pattern known to be valid (it was a Regex on the other side of a worker boundary). */
  static trusted(source: string): Regex {
    return compiledPatterns.get(source) ?? new Regex(source, nativePattern(source), undefined);
  }

  /**
   * Compiles a pattern, or explains why it cannot be used. Patterns are kept by source (a regex
   * is immutable), so a pattern built in a loop with `re-pattern` is compiled once, not per call.
   */
  static compile(source: string): Regex {
    const attempt = Regex.attempt(source);
    if (typeof attempt === "string")
      throw new LispError("invalid_form", `invalid regex ${JSON.stringify(source)}: ${attempt}`);
    return attempt;
  }

  /** Why a pattern cannot be compiled, or undefined when it can. */
  static problem(source: string): string | undefined {
    const attempt = Regex.attempt(source);
    return typeof attempt === "string" ? attempt : undefined;
  }

  /** The compiled pattern, or the reason it cannot be one. */
  private static attempt(source: string): Regex | string {
    const known = compiledPatterns.get(source);
    if (known !== undefined) return known;
    if (source.length > MAX_PATTERN_LENGTH) return `pattern longer than ${MAX_PATTERN_LENGTH} characters`;
    for (const [pattern, name] of UNSUPPORTED) {
      if (pattern.test(source))
        return `${name} are not supported: the regex engine runs in linear time and has no backtracking`;
    }
    // A pattern of the native subset is valid RE2 syntax: RE2 compiles it only if a text needs it.
    const native = nativePattern(source);
    let compiled: RE2JS | undefined;
    if (native === undefined) {
      const engine = regexEngine();
      try {
        compiled = engine.compile(source);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    }
    const regex = new Regex(source, native, compiled);
    if (compiledPatterns.size >= MAX_KEPT_PATTERNS)
      compiledPatterns.delete(compiledPatterns.keys().next().value as string);
    compiledPatterns.set(source, regex);
    return regex;
  }

  print(): string {
    return `#"${this.source}"`;
  }
  canonical(): string {
    return `#"${this.source}"`;
  }
  get typeName(): string {
    return "regex";
  }
  toJSON(): unknown {
    return this.source;
  }
}
