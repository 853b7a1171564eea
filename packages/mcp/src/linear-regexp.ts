/**
 * The regex engine Ajv uses for `pattern` and `patternProperties` in schemas that arrive over the
 * wire (a client's `output_schema`, an MCP server's `inputSchema`).
 *
 * Ajv's default is JavaScript's RegExp, which backtracks: `^(a+)+$` against 40 `a`s and a `!`
 * takes about 2^40 steps, and matching is synchronous, so one hostile schema blocks the whole
 * process (every client of `ptc-mcp`, or the host of a program). RE2 (re2js, pure JavaScript)
 * matches in time linear in the text for every pattern it accepts; it does not accept lookaround
 * and backreferences, which are exactly what needs backtracking.
 *
 * JSON Schema means ECMAScript regexes, and Ajv passes the `u` flag, so a pattern is first read
 * by RegExp (compiling one is cheap and safe; only matching blows up): a pattern JavaScript rejects
 * is rejected as before. It is then written in RE2's syntax (`RE2JS.translateRegExp`: `\u{...}`,
 * `(?<name>...)`, `[^]`), with the two classes RE2 reads differently made to mean what they mean
 * in JavaScript: `.` (JavaScript also leaves out `\r`, U+2028 and U+2029) and `\s`/`\S`
 * (JavaScript's include Unicode spaces, RE2's only ASCII ones). `\d`, `\w`, `\b`, `^` and `$`
 * mean the same in both.
 *
 * `test` means "matches somewhere in the text", as `RegExp.prototype.test` does.
 *
 * re2js is loaded the first time a schema that may need it is about to be compiled: importing it
 * costs more on a cold start than most of @ptc/mcp (about 260 KB of JavaScript and a Unicode table
 * to build), and most schemas have no pattern. Ajv compiles synchronously and ESM has no
 * synchronous import, so every place that compiles a schema from elsewhere first awaits
 * `prepareForPatterns(schema)`; it loads re2js when the schema has a `pattern` or
 * `patternProperties` key anywhere. Once loaded it stays loaded for the process.
 *
 * Never import re2js anywhere else in the package's runtime code (type imports are fine).
 */
import type { Options } from "ajv";
import type { RE2JS } from "re2js";

let engine: typeof RE2JS | undefined;
let loading: Promise<void> | undefined;

/** Loads RE2 once; resolves at once when it is loaded already. */
export function loadLinearRegExp(): Promise<void> {
  if (engine !== undefined) return Promise.resolve();
  loading ??= import("re2js").then(
    (module) => {
      engine = module.RE2JS;
    },
    (error: unknown) => {
      // A later call tries again.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export function linearRegExpLoaded(): boolean {
  return engine !== undefined;
}

/**
 * Whether compiling `schema` may ask for a regex: a key `pattern` or `patternProperties` at any
 * depth (Ajv asks for one for those two keywords only). It errs on the side of loading: a
 * property that is merely named `pattern` counts too. The walk uses its own stack (a deep schema
 * must not overflow the host's) and visits each object once (an in-process client may send a
 * schema with shared or cyclic parts).
 */
export function usesPatterns(schema: unknown): boolean {
  const seen = new Set<object>();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (
      !Array.isArray(value) &&
      (Object.hasOwn(value, "pattern") || Object.hasOwn(value, "patternProperties"))
    )
      return true;
    for (const item of Object.values(value)) pending.push(item);
  }
  return false;
}

/** Makes sure RE2 is loaded before any of `schemas` that may need it is compiled. */
export async function prepareForPatterns(...schemas: unknown[]): Promise<void> {
  if (engine === undefined && schemas.some(usesPatterns)) await loadLinearRegExp();
}

/** Ajv's type for a regex engine (its package root does not export the name). */
type RegExpEngine = NonNullable<NonNullable<Options["code"]>["regExp"]>;

/** JavaScript's `\s` (WhiteSpace and LineTerminator), as the inside of an RE2 class. */
const JS_SPACE =
  "\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
/** Every code point outside JS_SPACE, as the inside of an RE2 class (for `\S` within a class). */
const JS_NOT_SPACE =
  "\\x00-\\x08\\x0E-\\x1F\\x21-\\x9F\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}";
/** JavaScript's `.` without the `s` flag: anything but a line terminator. */
const JS_DOT = "[^\\n\\r\\x{2028}\\x{2029}]";

/** Thrown for a pattern RE2 cannot run; the message says what to write instead. */
export class UnsupportedPatternError extends Error {
  override name = "UnsupportedPatternError";
}

function unsupported(pattern: string, construct: string): UnsupportedPatternError {
  return new UnsupportedPatternError(
    `pattern ${JSON.stringify(pattern)} uses ${construct}, which is not supported: patterns are matched by a linear-time engine (RE2), without lookahead, lookbehind or backreferences. Write it without them: several patterns under "allOf", "not": {"pattern": ...} for a negative lookahead, or an "enum"`,
  );
}

/**
 * Refuses lookaround and backreferences, naming the one found. The pattern is valid JavaScript
 * with `u` (checked before), so outside a class `(?=` and `(?!` are lookaheads, `(?<=` and `(?<!`
 * lookbehinds, and `\1`-`\9` and `\k<` backreferences (with `u` they cannot be anything else).
 */
function refuseBacktrackingConstructs(pattern: string): void {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!inClass && /[1-9]/.test(next)) throw unsupported(pattern, `a backreference (\\${next})`);
      if (!inClass && next === "k") throw unsupported(pattern, "a named backreference (\\k<...>)");
      i++;
    } else if (inClass) {
      if (char === "]") inClass = false;
    } else if (char === "[") {
      inClass = true;
    } else if (char === "(" && pattern[i + 1] === "?") {
      const kind = pattern.slice(i + 2, i + 4);
      if (kind.startsWith("=") || kind.startsWith("!"))
        throw unsupported(pattern, `a lookahead (${pattern.slice(i, i + 3)}...)`);
      if (kind === "<=" || kind === "<!")
        throw unsupported(pattern, `a lookbehind (${pattern.slice(i, i + 4)}...)`);
    }
  }
}

/**
 * Gives `.` and `\s`/`\S` in an RE2 pattern their JavaScript meaning (see the module comment).
 * A `[` inside a class is escaped: RE2 would read `[[:alpha:]]` as a POSIX class, JavaScript (with
 * `u`) as the characters `[:alph` followed by a `]`.
 */
function withJavaScriptClasses(re2Pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < re2Pattern.length; i++) {
    const char = re2Pattern[i] as string;
    if (char === "\\") {
      const next = re2Pattern[i + 1] ?? "";
      i++;
      if (next === "s") out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (next === "S") out += inClass ? JS_NOT_SPACE : `[^${JS_SPACE}]`;
      else out += char + next;
    } else if (inClass) {
      if (char === "]") inClass = false;
      out += char === "[" ? "\\[" : char;
    } else if (char === "[") {
      inClass = true;
      out += char;
      // A `^` right after `[` negates; it is copied as it is, and a `]` after it still closes.
      if (re2Pattern[i + 1] === "^") out += re2Pattern[++i];
    } else {
      out += char === "." ? JS_DOT : char;
    }
  }
  return out;
}

/** Ajv's `code.regExp`: compiles `pattern` for RE2, or throws a message that says why not. */
export const linearRegExp: RegExpEngine = (pattern: string, flags: string) => {
  // Throws JavaScript's own SyntaxError for a pattern that is no ECMAScript regex at all.
  new RegExp(pattern, flags);
  refuseBacktrackingConstructs(pattern);
  const re2 = engine;
  if (re2 === undefined) {
    // Only a compile that skipped prepareForPatterns gets here; failing it is the safe way (a
    // backtracking fallback is what this module exists to avoid).
    throw new Error(
      `pattern ${JSON.stringify(pattern)} cannot be compiled: the linear-time engine (RE2) is not loaded (a bug in @ptc/mcp, please report it)`,
    );
  }
  let compiled: RE2JS;
  try {
    compiled = re2.compile(withJavaScriptClasses(re2.translateRegExp(pattern)));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnsupportedPatternError(
      `pattern ${JSON.stringify(pattern)} cannot be matched by the linear-time engine (RE2): ${reason}. Lookahead, lookbehind and backreferences are not supported; write the pattern without them`,
    );
  }
  return {
    test: (text: string) => compiled.test(text),
    // Ajv keeps one compiled pattern per distinct key within a schema: the key must tell patterns apart.
    toString: () => `/${pattern}/${flags}`,
  };
};
// Ajv writes this into standalone validation code only, which @ptc/mcp never generates.
linearRegExp.code = "linearRegExp";
