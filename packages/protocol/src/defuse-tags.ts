/**
 * Breaks every spelling of the envelope's tag inside untrusted text, so that content can neither
 * close its envelope early nor open an envelope of its own. "Every spelling" means what a lenient
 * reader (a forgiving HTML parser, or a model) could take for the tag: any letter case; spaces,
 * slashes or backslashes between `<` and the name; anything after the name (attributes, a
 * missing `>`); invisible characters anywhere inside (zero-width spaces and joiners, soft
 * hyphens, byte-order marks, bidi controls, combining marks); compatibility forms (fullwidth
 * `＜`, `／`, `＿`, mathematical letters); look-alike letters from other scripts (Cyrillic `о`);
 * and `-` or nothing in place of `_`.
 *
 * The break is one change: the tag's `<` becomes `&lt;`. The rest of the content is left as it
 * was, byte for byte. This module must never throw, and stays linear in the length of the text.
 */

/** The tag name with its separators left out: `untrusted_ptc_output`. */
const NAME = "untrustedptcoutput";

/**
 * Characters that look like the ASCII ones the scanner compares with, beyond what compatibility
 * normalization (NFKD) already folds: Cyrillic, Greek, Armenian and small-capital look-alikes of
 * the name's letters, dashes, slashes and angle brackets.
 */
const LOOK_ALIKES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    "<": "\u02C2\u1438\u2039\u3008\u27E8\u276E\u29FC",
    "/": "\u2215\u2044\u29F8\u2571",
    "\\": "\u2216\u29F5\u29F9",
    "-": "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u02CD\u2043",
    c: "\u0441\u03F2\u1D04\u2CA5\uABAF",
    d: "\u0501\u146F\uA4D2",
    e: "\u0435\u04BD\u212E\uAB32",
    n: "\u0578\u057C\u043F",
    o: "0\u043E\u03BF\u03C3\u0585\u1D0F\u0B66\u0C66\u0966",
    p: "\u0440\u03C1\u2374\u2CA3",
    r: "\u0433\u1D26\u2C85\uAB47",
    s: "\u0455\uA731\u01BD",
    t: "\u0442\u03C4\u1D1B",
    u: "\u03C5\u057D\u1D1C\u028B\uA79F",
  }).flatMap(([ascii, alikes]) => Array.from(alikes, (alike) => [alike, ascii] as const)),
);

/** Every character that can start a tag: `<`, its compatibility forms and its look-alikes (all one UTF-16 unit). */
const TAG_STARTS = /[<\uFF1C\uFE64\u226E\u02C2\u1438\u2039\u2329\u3008\u27E8\u276E\u29FC]/g;
/**
 * Format, default-ignorable and combining characters. Made on first use: for a `\p{...}` class in a
 * regex literal, V8 builds the Unicode set from ICU's tables while it parses the module, so every
 * cold start would pay for it.
 */
let invisible: RegExp | undefined;
function invisibleCharacter(): RegExp {
  // biome-ignore lint/complexity/useRegexLiterals: a literal's Unicode set is built when the module is parsed
  invisible ??= new RegExp(String.raw`^[\p{Cf}\p{Default_Ignorable_Code_Point}\p{M}]$`, "u");
  return invisible;
}
/** Between `<` and the name. */
const LEAD = /^[\s/\\]$/;
/** Between the name's letters. */
const SEPARATOR = /^[\s_-]$/;

export function defuseEnvelopeTags(text: string): string {
  let out = "";
  let copied = 0;
  // Only the brackets are visited: text without one costs a single regex scan.
  for (const match of text.matchAll(TAG_STARTS)) {
    const index = match.index;
    if (!nameFollows(text, index + 1)) continue;
    out += `${text.slice(copied, index)}&lt;`;
    copied = index + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Whether the envelope's name follows `start`, ignoring what a lenient reader ignores. A scan
 * stops at the first character that is neither skippable nor the next letter of the name, and
 * `<` is neither: scans started at different brackets never overlap, so the whole pass is linear.
 */
function nameFollows(text: string, start: number): boolean {
  let matched = 0;
  for (let index = start; index < text.length; ) {
    const codePoint = text.codePointAt(index) as number;
    index += codePoint > 0xffff ? 2 : 1;
    for (const char of fold(codePoint)) {
      if (char === NAME[matched]) {
        matched++;
        if (matched === NAME.length) return true;
      } else if (!(matched === 0 ? LEAD.test(char) : SEPARATOR.test(char))) {
        return false;
      }
    }
  }
  return false;
}

/**
 * A character as the scanner compares it: "" for an invisible one, else its compatibility
 * decomposition without combining marks, in lower case, with look-alikes replaced by the ASCII
 * they imitate.
 */
function fold(codePoint: number): string {
  const char = String.fromCodePoint(codePoint);
  if (codePoint < 0x80) {
    const lower = char.toLowerCase();
    return LOOK_ALIKES.get(lower) ?? lower;
  }
  const direct = LOOK_ALIKES.get(char);
  if (direct !== undefined) return direct;
  let out = "";
  for (const part of char.normalize("NFKD").toLowerCase().normalize("NFKD")) {
    if (!invisibleCharacter().test(part)) out += LOOK_ALIKES.get(part) ?? part;
  }
  return out;
}
