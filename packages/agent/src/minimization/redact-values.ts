/**
 * Takes the values out of an error message before the model reads it, for programs that touched
 * data the model may not see (see data-provenance.ts). PTC-Lisp's errors quote the values they
 * trip on (`add: invalid argument types: integer, map (1 and {"name" "..."})`); what stays is the
 * message's own prose: what went wrong, the function, the types, counts and positions.
 *
 * Two passes. The first replaces what the printer writes for data, whatever the data was: quoted
 * strings (cut ones included), printed collections, keywords and `'...'`-quoted text become `…`.
 * The second replaces every remaining occurrence of a string of the hidden data itself, which
 * catches values printed bare (a symbol made from a field), and is all a tool's own error message
 * gets. Numbers are left alone: in a message they are far more often arities, indexes and
 * positions than data.
 *
 * Never throws; the result is never longer than needed to say that something was there.
 */
import { Keyword, LispMap, LispSet } from "@ptc/lisp";

const HIDDEN = "…";

/** Strings shorter than this are too common to tell data from prose. */
const MIN_LEAF_LENGTH = 3;
/** Bounds the walk of the hidden data: past it, the first pass alone applies. */
const MAX_LEAF_NODES = 200_000;

export interface RedactOptions {
  /**
   * Default true. False for a tool's own error (`Tool 'x' failed: "..."`): the tool wrote it for
   * the model, and it quotes no result (there is none), so only hidden strings are taken out.
   */
  readonly printed?: boolean;
}

export function redactValues(
  message: string,
  hiddenData: readonly unknown[],
  options: RedactOptions = {},
): string {
  const structural = options.printed === false ? message : redactPrinted(message);
  return redactLeaves(structural, leafStrings(hiddenData));
}

const OPENERS: Readonly<Record<string, string>> = { "{": "}", "[": "]", "(": ")" };

/** Pass one: every printed string, collection, keyword and quoted name becomes `…`. */
export function redactPrinted(message: string): string {
  let out = "";
  let index = 0;
  while (index < message.length) {
    const char = message[index] as string;
    if (char === '"') {
      index = skipString(message, index);
      out += `"${HIDDEN}"`;
    } else if ((char === "{" || char === "[") && !isSetStart(message, index)) {
      index = skipCollection(message, index);
      out += `${char}${HIDDEN}${OPENERS[char]}`;
    } else if (char === "#" && message[index + 1] === "{") {
      index = skipCollection(message, index + 1);
      out += `#{${HIDDEN}}`;
    } else if (char === ":" && isKeywordStart(message, index)) {
      index = skipToken(message, index + 1);
      out += `:${HIDDEN}`;
    } else if (char === "'" && isQuotedSpan(message, index)) {
      index = message.indexOf("'", index + 1) + 1;
      out += `'${HIDDEN}'`;
    } else {
      out += char;
      index++;
    }
  }
  return out;
}

function isSetStart(message: string, index: number): boolean {
  return message[index - 1] === "#";
}

/** The index after a string that starts at `start`; a string cut short runs to the end. */
function skipString(message: string, start: number): number {
  for (let index = start + 1; index < message.length; index++) {
    const char = message[index];
    if (char === "\\") index++;
    else if (char === '"') return index + 1;
  }
  return message.length;
}

/** The index after the collection that opens at `start`; one cut short runs to the end. */
function skipCollection(message: string, start: number): number {
  const closers: string[] = [];
  for (let index = start; index < message.length; ) {
    const char = message[index] as string;
    if (char === '"') {
      index = skipString(message, index);
      continue;
    }
    const closer = OPENERS[char];
    if (closer !== undefined) closers.push(closer);
    else if (char === closers[closers.length - 1]) {
      closers.pop();
      if (closers.length === 0) return index + 1;
    }
    index++;
  }
  return message.length;
}

/**
 * A character that can end a word or a path. Made on first use: for a `\p{...}` class in a regex
 * literal, V8 builds the Unicode set from ICU's tables while it parses the module, so every cold
 * start would pay for it.
 */
let wordCharacter: RegExp | undefined;
function wordCharacterPattern(): RegExp {
  // biome-ignore lint/complexity/useRegexLiterals: a literal's Unicode set is built when the module is parsed
  wordCharacter ??= new RegExp(String.raw`[\p{L}\p{N}_/:]`, "u");
  return wordCharacter;
}

/** `:name` as a printed keyword, not the colon of `reason: text` or of `12:30`. */
function isKeywordStart(message: string, index: number): boolean {
  const before = message[index - 1];
  const after = message[index + 1];
  if (after === undefined || /[\s,)\]}"':]/.test(after)) return false;
  return before === undefined || !wordCharacterPattern().test(before);
}

function skipToken(message: string, start: number): number {
  let index = start;
  while (index < message.length && !/[\s,)\]}"]/.test(message[index] as string)) index++;
  return index;
}

/** `'text'` of two characters or more on one line; a single quoted character is a bracket name. */
function isQuotedSpan(message: string, index: number): boolean {
  const end = message.indexOf("'", index + 1);
  if (end < 0 || end - index < 3) return false;
  const inner = message.slice(index + 1, end);
  return !inner.includes("\n") && !/^\s|\s$/.test(inner);
}

/** Pass two: bare occurrences of the hidden strings themselves, longest first. */
function redactLeaves(message: string, leaves: ReadonlySet<string>): string {
  let out = message;
  const ordered = [...leaves].filter((leaf) => out.includes(leaf)).sort((a, b) => b.length - a.length);
  for (const leaf of ordered) out = out.replaceAll(leaf, HIDDEN);
  return out;
}

/**
 * The strings inside hidden data, up to a bound. Not map keys: the metadata preview shows a
 * result's keys, and they are common words (`user`, `message`) that prose uses too.
 */
function leafStrings(roots: readonly unknown[]): Set<string> {
  const leaves = new Set<string>();
  const seen = new Set<object>();
  const stack: unknown[] = [...roots];
  let nodes = 0;
  while (stack.length > 0 && nodes < MAX_LEAF_NODES) {
    const value = stack.pop();
    nodes++;
    if (typeof value === "string") {
      if (value.length >= MIN_LEAF_LENGTH) leaves.add(value);
      continue;
    }
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    try {
      if (value instanceof Keyword) stack.push(value.name);
      else if (Array.isArray(value)) stack.push(...value.slice(0, MAX_LEAF_NODES));
      else if (value instanceof LispMap) for (const [, item] of value.entries()) stack.push(item);
      else if (value instanceof LispSet) stack.push(...value.members());
      else if (value instanceof Map) stack.push(...value.values());
      else if (value instanceof Set) stack.push(...value);
      else if (isRecord(value)) stack.push(...Object.values(value));
    } catch {
      // A value that cannot be walked (a throwing getter) adds no leaves; the first pass still applies.
    }
  }
  return leaves;
}

function isRecord(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
