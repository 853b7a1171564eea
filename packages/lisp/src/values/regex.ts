/**
 * Regexes run on RE2 (re2js): matching time is linear in the input for every pattern, so no
 * pattern a model writes can hang the host. Constructs RE2 cannot run (backreferences,
 * lookaround) are rejected when the pattern is compiled, with an error naming the construct.
 */
import { RE2JS } from "re2js";
import { LispError } from "../errors.js";
import { CustomValue } from "./custom-value.js";

/** Longest pattern accepted, as in the reference. */
export const MAX_PATTERN_LENGTH = 256;

const UNSUPPORTED: ReadonlyArray<readonly [RegExp, string]> = [
  [/\\[1-9]/, "backreferences (\\1)"],
  [/\(\?<?[=!]/, "lookaround ((?=...), (?!...), (?<=...), (?<!...))"],
  [/\(\?>/, "atomic groups ((?>...))"],
  [/[*+?}]\+/, "possessive quantifiers (a*+)"],
];

export class Regex extends CustomValue {
  readonly compiled: RE2JS;

  private constructor(
    readonly source: string,
    compiled: RE2JS,
  ) {
    super();
    this.compiled = compiled;
  }

  /** Compiles a pattern, or explains why it cannot be used. */
  static compile(source: string): Regex {
    const problem = Regex.problem(source);
    if (problem !== undefined)
      throw new LispError("invalid_form", `invalid regex ${JSON.stringify(source)}: ${problem}`);
    return new Regex(source, RE2JS.compile(source));
  }

  /** Why a pattern cannot be compiled, or undefined when it can. */
  static problem(source: string): string | undefined {
    if (source.length > MAX_PATTERN_LENGTH) return `pattern longer than ${MAX_PATTERN_LENGTH} characters`;
    for (const [pattern, name] of UNSUPPORTED) {
      if (pattern.test(source))
        return `${name} are not supported: the regex engine runs in linear time and has no backtracking`;
    }
    try {
      RE2JS.compile(source);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
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
