/**
 * Finds the one PTC-Lisp program in a model's content response: a ```clojure or
 * ```lisp fence first, then untagged fences and `<clojure>` tags whose body looks like Lisp, then a
 * bare s-expression. The program is then sanitized so the reader sees plain ASCII quotes and no
 * `#_` discard forms.
 *
 * Pure string work. It must never throw on model output, never evaluate anything, and never
 * rewrite the inside of string literals or comments when it strips `#_` forms.
 */

export type ExtractCodeResult =
  | { readonly ok: true; readonly code: string }
  | { readonly ok: false; readonly reason: "no_code" }
  | { readonly ok: false; readonly reason: "multiple_code_blocks"; readonly count: number };

type FenceLanguage = "clojure" | "lisp" | "";

interface FencedBlock {
  /** "" for an untagged fence or one tagged with another language. */
  readonly language: FenceLanguage;
  /** The lines between the fences, untrimmed. */
  readonly body: string;
}

const TAGGED_OPENER = /^```(clojure|lisp)\s*$/;
const ANY_OPENER = /^```\S*\s*$/;
const XML_CLOSER = /^<\/(?:clojure|lisp)>$/;
const XML_OPENER = /<(?:clojure|lisp)>/g;
const XML_CLOSING_TAG = /<\/(?:clojure|lisp)>/g;

function normalizeLineEndings(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/**
 * Line-based on purpose: a fence only counts when it is the whole (trimmed) line, so backticks
 * inside a string literal such as `"see ```clojure here"` neither open nor close a block.
 * A block that is never closed is dropped.
 */
function scanFences(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let open: { language: FenceLanguage; lines: string[] } | null = null;
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (open === null) {
      const tagged = TAGGED_OPENER.exec(trimmed);
      if (tagged !== null) {
        open = { language: tagged[1] === "lisp" ? "lisp" : "clojure", lines: [] };
      } else if (ANY_OPENER.test(trimmed)) {
        open = { language: "", lines: [] };
      }
    } else if (trimmed === "```" || XML_CLOSER.test(trimmed)) {
      blocks.push({ language: open.language, body: open.lines.join("\n") });
      open = null;
    } else {
      open.lines.push(line);
    }
  }
  return blocks;
}

/**
 * Bodies of `<clojure>…</clojure>` / `<lisp>…</lisp>` blocks (the tags need not match). Each
 * opener pairs with the first closer after it; once no closer is left the scan stops, which keeps
 * it linear however many openers a response repeats.
 */
function scanXmlBlocks(text: string): string[] {
  const bodies: string[] = [];
  let from = 0;
  for (;;) {
    XML_OPENER.lastIndex = from;
    const opener = XML_OPENER.exec(text);
    if (opener === null) return bodies;
    const bodyStart = opener.index + opener[0].length;
    XML_CLOSING_TAG.lastIndex = bodyStart;
    const closer = XML_CLOSING_TAG.exec(text);
    if (closer === null) return bodies;
    bodies.push(text.slice(bodyStart, closer.index));
    from = closer.index + closer[0].length;
  }
}

function lispBodies(bodies: readonly string[]): string[] {
  return bodies.map((body) => body.trim()).filter((body) => body.startsWith("("));
}

function exactlyOne(candidates: readonly string[]): ExtractCodeResult {
  const [only] = candidates;
  if (candidates.length === 1 && only !== undefined) return { ok: true, code: sanitizeCode(only) };
  return { ok: false, reason: "multiple_code_blocks", count: candidates.length };
}

/** Extracts the program of a content-transport response, or says why there is none. */
export function extractCode(response: string): ExtractCodeResult {
  const text = normalizeLineEndings(response);
  const blocks = scanFences(text);

  const tagged = blocks.filter((block) => block.language !== "");
  if (tagged.length > 0) return exactlyOne(tagged.map((block) => block.body));

  const fromFences = lispBodies(blocks.map((block) => block.body));
  if (fromFences.length > 0) return exactlyOne(fromFences);

  const fromXml = lispBodies(scanXmlBlocks(text));
  if (fromXml.length > 0) return exactlyOne(fromXml);

  // Sanitize before the "(" test so a leading BOM or `#_` note does not hide a bare program.
  const raw = sanitizeCode(text.trim());
  return raw.startsWith("(") ? { ok: true, code: raw } : { ok: false, reason: "no_code" };
}

/**
 * True when content carries a program the tool_call transport should have sent through
 * `lisp_eval`: a ```clojure/```lisp fence, or an untagged fence whose body starts with "(".
 */
export function hasFencedProgram(content: string): boolean {
  return scanFences(normalizeLineEndings(content)).some(
    (block) => block.language !== "" || block.body.trim().startsWith("("),
  );
}

/**
 * The assistant text kept in history: with exactly one ```clojure/```lisp block, only
 * that block re-fenced, so reasoning prose does not pile up in later requests; otherwise the
 * response unchanged.
 */
export function stripThinking(response: string): string {
  const tagged = scanFences(normalizeLineEndings(response)).filter((block) => block.language !== "");
  const [only] = tagged;
  if (tagged.length !== 1 || only === undefined) return response;
  return `\`\`\`${only.language}\n${only.body}\n\`\`\``;
}

// ---------------------------------------------------------------------------------------------
// Sanitizing

/** Characters models slip into code that the reader would reject or misread; all removed. */
const INVISIBLE = new Set<number>([
  0xfeff, 0x200b, 0x200c, 0x200d, 0x00a0, 0x202f, 0x2060, 0xfffe, 0x00ad, 0x180e, 0x2000, 0x2001, 0x2002,
  0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
]);
const SMART_DOUBLE_QUOTES = new Set<number>([0x201c, 0x201d, 0x201e, 0x201f, 0x2033, 0x2036]);
const SMART_SINGLE_QUOTES = new Set<number>([0x2018, 0x2019, 0x201a, 0x201b, 0x2032, 0x2035]);

function normalizeCharacters(code: string): string {
  // Every listed character is in the BMP, so UTF-16 units suffice; unchanged runs are copied whole.
  let out = "";
  let copiedUpTo = 0;
  for (let index = 0; index < code.length; index++) {
    const unit = code.charCodeAt(index);
    if (unit < 0xa0) continue;
    let replacement: string;
    if (INVISIBLE.has(unit)) replacement = "";
    else if (SMART_DOUBLE_QUOTES.has(unit)) replacement = '"';
    else if (SMART_SINGLE_QUOTES.has(unit)) replacement = "'";
    else continue;
    out += code.slice(copiedUpTo, index) + replacement;
    copiedUpTo = index + 1;
  }
  return out + code.slice(copiedUpTo);
}

/**
 * Makes extracted code safe for the reader: drops invisible characters, turns smart quotes into
 * ASCII quotes (everywhere, string literals included), removes `#_` discard forms, and trims.
 */
export function sanitizeCode(code: string): string {
  return stripDiscardForms(normalizeCharacters(code)).trim();
}

const OPENERS = "([{";
const CLOSERS = ")]}";

function isSpace(char: string | undefined): boolean {
  // Commas are whitespace to a Clojure reader.
  return char === " " || char === "\t" || char === "\n" || char === "\r" || char === "\f" || char === ",";
}

function endsToken(char: string | undefined): boolean {
  return (
    char === undefined ||
    isSpace(char) ||
    OPENERS.includes(char) ||
    CLOSERS.includes(char) ||
    char === '"' ||
    char === ";"
  );
}

function skipLineComment(code: string, at: number): number {
  const newline = code.indexOf("\n", at);
  return newline === -1 ? code.length : newline;
}

/** Index just past the closing quote of the string at `at`, or -1 when it never closes. */
function skipString(code: string, at: number): number {
  for (let index = at + 1; index < code.length; index++) {
    const char = code[index];
    if (char === "\\") index++;
    else if (char === '"') return index + 1;
  }
  return -1;
}

function skipSpaceAndComments(code: string, at: number): number {
  let index = at;
  while (index < code.length) {
    if (isSpace(code[index])) index++;
    else if (code[index] === ";") index = skipLineComment(code, index);
    else break;
  }
  return index;
}

/**
 * For each opening bracket outside strings, comments and character literals: the index just past
 * the bracket that balances it, or -1. Computed once per program so a response full of unbalanced
 * `#_(` stays linear instead of rescanning to the end for every one.
 */
function matchBrackets(code: string): Int32Array {
  const ends = new Int32Array(code.length).fill(-1);
  const open: number[] = [];
  let index = 0;
  while (index < code.length) {
    const char = code[index] as string;
    if (char === '"') {
      index = skipString(code, index);
      if (index === -1) break;
      continue;
    }
    if (char === ";") index = skipLineComment(code, index);
    else if (char === "\\") index += 2;
    else {
      if (OPENERS.includes(char)) open.push(index);
      else if (CLOSERS.includes(char)) {
        const opener = open.pop();
        if (opener !== undefined) ends[opener] = index + 1;
      }
      index++;
    }
  }
  return ends;
}

/** Index just past the form starting at or after `at`, or -1 when no whole form follows. */
function skipForm(code: string, at: number, brackets: Int32Array): number {
  let index = skipSpaceAndComments(code, at);
  // Reader prefixes belong to the form they mark: 'x, @x, #{...}, #(...), #"regex".
  for (;;) {
    const char = code[index];
    if (char === "'" || char === "`" || char === "~" || char === "@") {
      index = skipSpaceAndComments(code, index + 1);
    } else if (char === "#" && '{("'.includes(code[index + 1] ?? " ")) index++;
    else break;
  }
  const char = code[index];
  if (char === undefined || CLOSERS.includes(char)) return -1;
  if (OPENERS.includes(char)) return brackets[index] ?? -1;
  if (char === '"') return skipString(code, index);
  const start = index;
  if (char === "\\") index += 2;
  while (index < code.length && !endsToken(code[index])) index++;
  return index > start ? Math.min(index, code.length) : -1;
}

/**
 * Where a `#_` whose form starts at or after `at` ends: `end` is just past the discarded form, or
 * -1 when no whole form follows, and `formStart` is where that form was looked for.
 * `#_#_a b` discards `#_a` as a single form and keeps `b`: that is what ptc_runner does (pinned
 * by its tests), although a Clojure reader would drop `b` too.
 */
function skipDiscarded(code: string, at: number, brackets: Int32Array): { end: number; formStart: number } {
  let index = skipSpaceAndComments(code, at);
  while (code.startsWith("#_", index)) index = skipSpaceAndComments(code, index + 2);
  return { end: skipForm(code, index, brackets), formStart: index };
}

/**
 * Removes every `#_` together with the whitespace after it and the form it discards; the text
 * around is kept as is (`(def x #_y 42)` becomes `(def x  42)`). A `#_` with no form after it
 * stays, so the reader reports it. String literals, comments and character literals are stepped
 * over, so a `#_` inside them is data, not a discard.
 */
function stripDiscardForms(code: string): string {
  if (!code.includes("#_")) return code;
  const brackets = matchBrackets(code);
  let out = "";
  let copiedUpTo = 0;
  let index = 0;
  while (index < code.length) {
    const char = code[index];
    if (char === '"') {
      const end = skipString(code, index);
      if (end === -1) break;
      index = end;
    } else if (char === ";") {
      index = skipLineComment(code, index);
    } else if (char === "\\") {
      index += 2;
    } else if (char === "#" && code[index + 1] === "_") {
      const { end, formStart } = skipDiscarded(code, index + 2, brackets);
      if (end === -1) {
        // Every `#_` of this chain waits for the same missing form, so none of them can strip.
        index = formStart;
      } else {
        out += code.slice(copiedUpTo, index);
        copiedUpTo = end;
        index = end;
      }
    } else {
      index++;
    }
  }
  return out + code.slice(copiedUpTo);
}
