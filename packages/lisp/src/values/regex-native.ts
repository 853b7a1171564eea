/**
 * A JavaScript RegExp for the patterns where it is provably the same as RE2 and cannot run away,
 * used to search short texts: `#"latency=(\d+)ms"` over log lines. RE2 (re2js, pure JavaScript)
 * is linear for every pattern but several times slower than V8's own engine, which backtracks.
 *
 * The subset (anything else gets no RegExp and always runs on RE2):
 * - atoms: ASCII letters, digits and plain punctuation; escaped metacharacters; `\d` and `\w`
 *   (ASCII in both engines); classes `[...]` of such characters and ranges, not negated;
 * - quantifiers `* + ? {n} {n,} {n,m}` (greedy or lazy) on single atoms only;
 * - capturing groups, not quantified; `^` first and `$` last; no alternation, no `.`, no flags.
 * Every atom matches only ASCII, so code units and code points agree; with no alternation and
 * no quantified group, both engines find the same leftmost match and the same groups.
 *
 * Backtracking stays bounded because at most one quantifier is unbounded and the texts searched
 * are short (NATIVE_TEXT_LIMIT): the worst case is about the text's length squared.
 */

/** Longest text searched with the native engine; longer ones go to RE2. */
export const NATIVE_TEXT_LIMIT = 1024;

const PLAIN = /[A-Za-z0-9 !"#%&',\-/:;<=>@_`~]/;
const ESCAPABLE = "\\^$.|?*+()[]{}-/";

/** The RegExp for `source` if it is in the subset above, else undefined. */
export function nativeRegExp(source: string): RegExp | undefined {
  let i = 0;
  let unbounded = 0;
  let depth = 0;
  const atom = (): boolean => {
    const char = source[i];
    if (char === undefined) return false;
    if (char === "\\") {
      const next = source[i + 1];
      if (next === undefined) return false;
      if (next === "d" || next === "w" || ESCAPABLE.includes(next)) {
        i += 2;
        return true;
      }
      return false;
    }
    if (char === "[") {
      i++;
      if (source[i] === "^" || source[i] === "]") return false;
      while (source[i] !== "]") {
        const c = source[i];
        if (c === undefined || c === "[") return false;
        if (c === "\\") {
          const next = source[i + 1];
          if (next === undefined || !(next === "d" || next === "w" || ESCAPABLE.includes(next))) return false;
          i += 2;
        } else if (
          PLAIN.test(c) ||
          c === "." ||
          c === "$" ||
          c === "|" ||
          c === "?" ||
          c === "*" ||
          c === "+"
        )
          i++;
        else return false;
      }
      i++;
      return true;
    }
    if (PLAIN.test(char) && char !== "-") {
      i++;
      return true;
    }
    if (char === "-") {
      i++;
      return true;
    }
    return false;
  };
  const quantifier = (): boolean => {
    const char = source[i];
    if (char === "*" || char === "+") {
      unbounded++;
      i++;
    } else if (char === "?") i++;
    else if (char === "{") {
      const match = /^\{(\d{1,3})(,(\d{0,3}))?\}/.exec(source.slice(i));
      if (match === null) return false;
      if (match[2] !== undefined && match[3] === "") unbounded++;
      i += match[0].length;
    } else return true;
    if (source[i] === "?") i++;
    return !["*", "+", "?", "{"].includes(source[i] as string);
  };
  if (source[i] === "^") i++;
  while (i < source.length) {
    const char = source[i];
    if (char === "$" && i === source.length - 1) {
      i++;
      break;
    }
    if (char === "(") {
      if (source[i + 1] === "?") return undefined;
      depth++;
      i++;
      continue;
    }
    if (char === ")") {
      if (depth === 0) return undefined;
      depth--;
      i++;
      // A quantified group is outside the subset.
      if (["*", "+", "?", "{"].includes(source[i] as string)) return undefined;
      continue;
    }
    if (!atom() || !quantifier()) return undefined;
  }
  if (depth !== 0 || unbounded > 1) return undefined;
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}
