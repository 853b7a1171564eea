/**
 * A JavaScript RegExp for the patterns where it is provably the same as RE2 and cannot run away,
 * used to search short texts: `#"latency=(\d+)ms"` over log lines, `#"(\w+)=(\S+)"` over
 * key=value pairs, `#"ERROR|WARN"`. RE2 (re2js, pure JavaScript) is linear for every pattern but
 * ten to forty times slower than V8's own engine, which backtracks.
 *
 * The subset (anything else gets no RegExp and always runs on RE2):
 * - items: a character set (an ASCII letter, digit or plain punctuation; an escaped
 *   metacharacter; `\d \w \s` and their negations `\D \W \S`; `.`; a class `[...]` or `[^...]` of
 *   such characters and ranges), with a quantifier `* + ? {n} {n,} {n,m}` (greedy or lazy);
 * - capturing groups, not quantified; a group (or the whole pattern) that is an alternation of
 *   plain literal words (`ERROR|WARN`); `^` first and `$` last; no flags.
 * The RegExp is written from the parsed sets (each set as an explicit class, with RE2's meaning:
 * `\s` is `[\t\n\f\r ]`, `.` is anything but `\n`), and with the `u` flag wherever a set holds
 * non-ASCII characters, so both engines step over code points and agree on positions. With no
 * alternation but of literal words and no quantified group, both find the same leftmost-first
 * match and the same groups.
 *
 * Why backtracking stays bounded: either at most one quantifier is unbounded, or the pattern is
 * deterministic (every item whose count can vary is followed by an item that must match at least
 * once and shares no character with it, or ends the pattern), so that giving characters back can
 * never lead to a match and each attempt costs the text it covers. The texts searched are short
 * (NATIVE_TEXT_LIMIT): the worst case is about the text's length squared, a million steps.
 */

/** Longest text searched with the native engine; longer ones go to RE2 (or line by line). */
export const NATIVE_TEXT_LIMIT = 1024;

/** What the analysis found out about a pattern in the subset. */
export interface NativePattern {
  /** Searches from `lastIndex` (the `g` flag): for every match in a text. */
  readonly global: RegExp;
  /** The first match only. */
  readonly first: RegExp;
  /** False when the pattern can match the empty text (then the loops over matches stay on RE2). */
  readonly nonEmpty: boolean;
  /** True when no match can contain a newline and no anchor is used: a text can be searched a line at a time. */
  readonly lineLocal: boolean;
  /**
   * Capturing groups. Every one takes part in every match (no group is quantified and the only
   * alternations are of words), so a match always has them all, none undefined.
   */
  readonly groups: number;
}

/** A set of characters: the ASCII ones as bits, and whether every non-ASCII character is in. */
interface CharSet {
  readonly ascii: Uint8Array;
  readonly nonAscii: boolean;
}

interface Item {
  readonly set: CharSet;
  readonly min: number;
  /** Infinity for `*`, `+`, `{n,}`. */
  readonly max: number;
  readonly text: string;
}

/** An alternation of literal words: bounded, and only its first characters matter to its neighbours. */
interface Words {
  readonly first: CharSet;
  readonly text: string;
  readonly nonEmpty: boolean;
}

const PLAIN = /[A-Za-z0-9 !"#%&',\-/:;<=>@_`~]/;
const ESCAPABLE = "\\^$.|?*+()[]{}-/";

function emptySet(): Uint8Array {
  return new Uint8Array(128);
}

function setOf(chars: string): CharSet {
  const ascii = emptySet();
  for (const char of chars) ascii[char.charCodeAt(0)] = 1;
  return { ascii, nonAscii: false };
}

function range(from: number, to: number, into: Uint8Array): void {
  for (let code = from; code <= to; code++) into[code] = 1;
}

const DIGITS = (() => {
  const ascii = emptySet();
  range(48, 57, ascii);
  return ascii;
})();
const WORD = (() => {
  const ascii = emptySet();
  range(48, 57, ascii);
  range(65, 90, ascii);
  range(97, 122, ascii);
  ascii[95] = 1;
  return ascii;
})();
/** RE2's `\s`: no vertical tab, no non-ASCII space (JavaScript's has both). */
const SPACE = setOf("\t\n\f\r ").ascii;

function negate(set: CharSet): CharSet {
  const ascii = emptySet();
  for (let code = 0; code < 128; code++) ascii[code] = set.ascii[code] === 1 ? 0 : 1;
  return { ascii, nonAscii: !set.nonAscii };
}

function isSingle(set: CharSet): boolean {
  return !set.nonAscii && set.ascii.reduce((n, bit) => n + bit, 0) === 1;
}

function disjoint(a: CharSet, b: CharSet): boolean {
  if (a.nonAscii && b.nonAscii) return false;
  for (let code = 0; code < 128; code++) if (a.ascii[code] === 1 && b.ascii[code] === 1) return false;
  return true;
}

/** The set as a RegExp class, every character written as a hex escape. */
function classText(set: CharSet): string {
  const hex = (code: number) => `\\x${code.toString(16).padStart(2, "0")}`;
  const negated = set.nonAscii;
  let text = "";
  let code = 0;
  while (code < 128) {
    // A negated class lists what is not in the set.
    const inClass = (set.ascii[code] === 1) !== negated;
    if (!inClass) {
      code++;
      continue;
    }
    let end = code;
    while (end + 1 < 128 && (set.ascii[end + 1] === 1) !== negated) end++;
    text += end === code ? hex(code) : `${hex(code)}-${hex(end)}`;
    code = end + 1;
  }
  if (negated) return text === "" ? "[^]" : `[^${text}]`;
  return `[${text}]`;
}

/** An escape's set (`\d`, `\S`, `\.`...) or undefined outside the subset. */
function escapeSet(next: string | undefined, inClass: boolean): CharSet | undefined {
  if (next === undefined) return undefined;
  if (next === "d") return { ascii: DIGITS, nonAscii: false };
  if (next === "w") return { ascii: WORD, nonAscii: false };
  if (next === "s") return { ascii: SPACE, nonAscii: false };
  // Negated escapes inside a class would make the class a union with a complement: left to RE2.
  if (!inClass && next === "D") return negate({ ascii: DIGITS, nonAscii: false });
  if (!inClass && next === "W") return negate({ ascii: WORD, nonAscii: false });
  if (!inClass && next === "S") return negate({ ascii: SPACE, nonAscii: false });
  if (ESCAPABLE.includes(next)) return setOf(next);
  return undefined;
}

class Scan {
  i = 0;
  constructor(readonly source: string) {}

  /** One character set at the cursor, or undefined (the cursor is then meaningless). */
  atom(): CharSet | undefined {
    const { source } = this;
    const char = source[this.i];
    if (char === undefined) return undefined;
    if (char === "\\") {
      const set = escapeSet(source[this.i + 1], false);
      this.i += 2;
      return set;
    }
    if (char === ".") {
      this.i++;
      return negate(setOf("\n"));
    }
    if (char === "[") return this.bracket();
    if (PLAIN.test(char)) {
      this.i++;
      return setOf(char);
    }
    return undefined;
  }

  private bracket(): CharSet | undefined {
    const { source } = this;
    this.i++;
    const negated = source[this.i] === "^";
    if (negated) this.i++;
    if (source[this.i] === "]") return undefined;
    const ascii = emptySet();
    let previous: number | undefined;
    while (source[this.i] !== "]") {
      const c = source[this.i];
      if (c === undefined || c === "[") return undefined;
      if (c === "\\") {
        const set = escapeSet(source[this.i + 1], true);
        if (set === undefined) return undefined;
        for (let code = 0; code < 128; code++) if (set.ascii[code] === 1) ascii[code] = 1;
        // A one-character escape may start or end a range.
        previous = isSingle(set) ? set.ascii.indexOf(1) : undefined;
        this.i += 2;
        continue;
      }
      if (c === "-" && previous !== undefined && source[this.i + 1] !== "]") {
        const end = source[this.i + 1] as string;
        if (end === "\\" || end === "[" || !(PLAIN.test(end) || ".$|?*+".includes(end))) return undefined;
        const to = end.charCodeAt(0);
        if (to < previous) return undefined;
        range(previous, to, ascii);
        previous = undefined;
        this.i += 2;
        continue;
      }
      if (PLAIN.test(c) || ".$|?*+".includes(c)) {
        ascii[c.charCodeAt(0)] = 1;
        previous = c.charCodeAt(0);
        this.i++;
        continue;
      }
      return undefined;
    }
    this.i++;
    const set = { ascii, nonAscii: false };
    return negated ? negate(set) : set;
  }

  /** The quantifier at the cursor as [min, max, text], [1, 1, ""] when there is none, or undefined. */
  quantifier(): [number, number, string] | undefined {
    const { source } = this;
    const start = this.i;
    const char = source[this.i];
    let min = 1;
    let max = 1;
    if (char === "*" || char === "+" || char === "?") {
      min = char === "+" ? 1 : 0;
      max = char === "?" ? 1 : Number.POSITIVE_INFINITY;
      this.i++;
    } else if (char === "{") {
      const match = /^\{(\d{1,3})(,(\d{0,3}))?\}/.exec(source.slice(this.i));
      if (match === null) return undefined;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === "" ? Number.POSITIVE_INFINITY : Number(match[3]);
      if (max < min) return undefined;
      this.i += match[0].length;
    } else return [1, 1, ""];
    if (source[this.i] === "?") this.i++;
    if (["*", "+", "?", "{"].includes(source[this.i] as string)) return undefined;
    return [min, max, source.slice(start, this.i)];
  }

  /** `word|word|...` up to a `)` or the end, when every alternative is plain literal characters. */
  words(): Words | undefined {
    const { source } = this;
    const first = emptySet();
    let text = "";
    let word = "";
    let nonEmpty = true;
    const close = () => {
      if (word === "") nonEmpty = false;
      else first[word.charCodeAt(0)] = 1;
      word = "";
    };
    while (this.i < source.length && source[this.i] !== ")") {
      const char = source[this.i] as string;
      if (char === "|") {
        close();
        text += "|";
      } else if (/[A-Za-z0-9 _:=,'"-]/.test(char)) {
        word += char;
        text += char === "-" ? "\\x2d" : char;
      } else return undefined;
      this.i++;
    }
    close();
    return { first: { ascii: first, nonAscii: false }, text, nonEmpty };
  }
}

/** The native forms of `source` if it is in the subset above, else undefined. */
export function nativePattern(source: string): NativePattern | undefined {
  const scan = new Scan(source);
  const parts: Array<Item | Words | "(" | ")"> = [];
  let anchored = false;
  if (source[0] === "^") {
    scan.i++;
    anchored = true;
  }
  let depth = 0;
  let end = source.length;
  if (source.endsWith("$") && !source.endsWith("\\$") && source.length > 1) {
    end = source.length - 1;
    anchored = true;
  }
  if (source.includes("|") && !source.includes("(")) {
    // The whole pattern is an alternation of words (unanchored: `^a|b$` means `(^a)|(b$)`).
    if (anchored) return undefined;
    const words = scan.words();
    if (words === undefined || scan.i !== end) return undefined;
    parts.push(words);
  }
  while (scan.i < end) {
    const char = source[scan.i];
    if (char === "(") {
      if (source[scan.i + 1] === "?") return undefined;
      scan.i++;
      const close = source.indexOf(")", scan.i);
      const bar = source.indexOf("|", scan.i);
      if (bar !== -1 && close !== -1 && bar < close) {
        const words = scan.words();
        if (words === undefined || source[scan.i] !== ")") return undefined;
        scan.i++;
        if (["*", "+", "?", "{"].includes(source[scan.i] as string)) return undefined;
        parts.push("(", words, ")");
        continue;
      }
      depth++;
      parts.push("(");
      continue;
    }
    if (char === ")") {
      if (depth === 0) return undefined;
      depth--;
      scan.i++;
      // A quantified group is outside the subset.
      if (["*", "+", "?", "{"].includes(source[scan.i] as string)) return undefined;
      parts.push(")");
      continue;
    }
    if (char === "|") return undefined;
    const start = scan.i;
    const set = scan.atom();
    if (set === undefined) return undefined;
    const atomText = source.slice(start, scan.i);
    const quantifier = scan.quantifier();
    if (quantifier === undefined) return undefined;
    const [min, max, quantifierText] = quantifier;
    const written = /^[A-Za-z0-9]$/.test(atomText)
      ? atomText
      : isSingle(set)
        ? `\\x${set.ascii.indexOf(1).toString(16).padStart(2, "0")}`
        : classText(set);
    parts.push({ set, min, max, text: written + quantifierText });
  }
  if (depth !== 0 || scan.i !== end) return undefined;
  const items = parts.filter((part): part is Item | Words => typeof part !== "string");
  if (!boundedBacktracking(items)) return undefined;
  const unicode = items.some((item) => "set" in item && item.set.nonAscii);
  const body = parts.map((part) => (typeof part === "string" ? part : part.text)).join("");
  const text = `${source[0] === "^" ? "^" : ""}${body}${end < source.length ? "$" : ""}`;
  const nonEmpty = items.some((item) => ("set" in item ? item.min > 0 : item.nonEmpty));
  const lineLocal = !anchored && items.every((item) => ("set" in item ? item.set.ascii[10] !== 1 : true));
  try {
    const flags = unicode ? "u" : "";
    return {
      global: new RegExp(text, `g${flags}`),
      first: new RegExp(text, flags),
      nonEmpty,
      lineLocal,
      groups: parts.filter((part) => part === "(").length,
    };
  } catch {
    return undefined;
  }
}

/**
 * True when a backtracking engine stays within about the text's length squared on this pattern:
 * at most one unbounded quantifier, or every variable count is settled by a disjoint neighbour.
 */
function boundedBacktracking(items: ReadonlyArray<Item | Words>): boolean {
  const unbounded = items.filter((item) => "set" in item && item.max === Number.POSITIVE_INFINITY).length;
  if (unbounded <= 1) return true;
  for (let k = 0; k < items.length; k++) {
    const item = items[k] as Item | Words;
    if (!("set" in item) || item.min === item.max) continue;
    const next = items[k + 1];
    if (next === undefined) continue;
    if ("set" in next) {
      if (next.min === 0 || !disjoint(item.set, next.set)) return false;
    } else if (!next.nonEmpty || !disjoint(item.set, next.first)) return false;
  }
  return true;
}

/** The RegExp for `source` if it is in the subset (its first match), else undefined. */
export function nativeRegExp(source: string): RegExp | undefined {
  return nativePattern(source)?.first;
}
