/**
 * Matching on top of `Regex` (RE2, linear time): the shapes results take and the reference's
 * limits. A match is the matched string when the pattern has no groups, otherwise a vector
 * `[whole g1 g2 ...]`; a group that did not take part reads as "" unless it comes after the last
 * group that did, in which case it is left off (`(re-find #"(a)(b)?" "a")` is ["a" "a"]).
 *
 * The whole input is searched. (The reference searches only the first 32 KB, a guard of its
 * backtracking engine that silently drops the rest: a split of a 200 KB text lost most of its
 * parts.) RE2 is linear, and the loops over matches charge the run as they go (time per match and
 * the text they cover, memory for what they build), so a huge input stops at the run's limits.
 */
import type { Matcher } from "re2js";
import { LispError } from "../../errors.js";
import { VECTOR_BYTES, VECTOR_SLOT_BYTES, vectorBytes } from "../../runtime/allocation.js";
import { active } from "../../runtime/context.js";
import { Regex } from "../../values/regex.js";
import { NATIVE_TEXT_LIMIT } from "../../values/regex-native.js";
import { checkTextLength } from "../../values/text-limit.js";
import { checkVectorLength } from "../../values/vector-limit.js";
import { regexPathStats } from "./regex-paths.js";
import { describe } from "./str-text.js";

export function requireRegex(value: unknown, who: string): Regex {
  if (value instanceof Regex) return value;
  const hint =
    typeof value === "string" ? `; write #"${value}" or (re-pattern ${JSON.stringify(value)})` : "";
  throw new LispError("type_error", `${who} expects a regex, got ${describe(value)}${hint}`);
}

const cache = new Map<string, Regex>();
const CACHE_LIMIT = 128;

/** A regex value, or a string compiled once and remembered (extract takes pattern strings). */
export function regexOf(value: unknown, who: string): Regex {
  if (value instanceof Regex) return value;
  if (typeof value !== "string")
    throw new LispError("type_error", `${who} expects a regex or a pattern string, got ${describe(value)}`);
  let regex = cache.get(value);
  if (regex === undefined) {
    regex = Regex.compile(value);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(value, regex);
  }
  return regex;
}

/** Number of groups to report: up to the last group that took part in the match. */
function reportedGroups(matcher: Matcher, groups: number): number {
  let last = groups;
  while (last > 0 && matcher.group(last) === null) last--;
  return last;
}

/** The current match as the reference shapes it: a string, or [whole g1 ...]. */
export function matchValue(matcher: Matcher, groups: number): string | string[] {
  const whole = matcher.group(0) ?? "";
  const last = groups === 0 ? 0 : reportedGroups(matcher, groups);
  if (last === 0) return whole;
  const out = new Array<string>(last + 1);
  out[0] = whole;
  for (let i = 1; i <= last; i++) out[i] = matcher.group(i) ?? "";
  active.allocate(vectorBytes(out.length));
  return out;
}

/**
 * A match as the loops over matches see it, from either engine: the whole match and the groups
 * (undefined for a group that took no part), and where the match starts in the text searched.
 */
interface FoundMatch {
  readonly [group: number]: string | undefined;
  readonly length: number;
  readonly index: number;
}

/** As matchValue, from a FoundMatch. */
function foundValue(match: FoundMatch): string | string[] {
  let last = match.length - 1;
  while (last > 0 && match[last] === undefined) last--;
  if (last === 0) return match[0] as string;
  const out = new Array<string>(last + 1);
  out[0] = match[0] as string;
  for (let i = 1; i <= last; i++) out[i] = match[i] ?? "";
  active.allocate(vectorBytes(out.length));
  return out;
}

/**
 * As foundValue, for a match of the native engine, where every group takes part
 * (regex-native.ts). The common shapes are array literals: V8 follows each literal's allocation
 * site, and one whose vectors outlive the young generation (the matches of a long text, kept in
 * the result) gets them allocated in the old one, where the collector of young objects does not
 * copy them again and again.
 */
function nativeValue(match: RegExpExecArray): string | string[] {
  const length = match.length;
  if (length === 1) return match[0];
  if (length === 2) {
    const group = match[1];
    if (group === undefined) return match[0];
    active.allocate(VECTOR_BYTES + 2 * VECTOR_SLOT_BYTES);
    return [match[0], group];
  }
  if (length === 3) {
    const first = match[1];
    const second = match[2];
    if (first === undefined || second === undefined) return foundValue(match);
    active.allocate(VECTOR_BYTES + 3 * VECTOR_SLOT_BYTES);
    return [match[0], first, second];
  }
  return foundValue(match);
}

export function findFirst(regex: Regex, text: string): string | string[] | null {
  active.work(text.length);
  const native = regex.native;
  if (native !== undefined && text.length <= NATIVE_TEXT_LIMIT) {
    const match = native.first.exec(text);
    return match === null ? null : nativeValue(match);
  }
  if (native?.nonEmpty && native.lineLocal) {
    let found: string | string[] | null = null;
    eachMatch(regex, text, (match) => {
      found = foundValue(match);
      return false;
    });
    return found;
  }
  const matcher = regex.compiled.matcher(text);
  return matcher.find() ? matchValue(matcher, matcher.groupCount()) : null;
}

export function matchWhole(regex: Regex, text: string): string | string[] | null {
  active.work(text.length);
  const matcher = regex.compiled.matcher(text);
  return matcher.matches() ? matchValue(matcher, matcher.groupCount()) : null;
}

/** Charges one match of a loop over matches: the text it covers, and one slot of the result. */
function chargeMatch(from: number, end: number): void {
  active.work(1 + end - from);
  active.allocate(VECTOR_SLOT_BYTES);
}

/** Text searched by one native call when a long text is searched a line at a time. */
const NATIVE_CHUNK = 16 * 1024;

/** What a loop over matches does with each: false stops the loop. */
type Visit = (match: FoundMatch, offset: number) => boolean;

/**
 * Calls `visit` with every match in `text`, in order, until it returns false. Texts up to
 * NATIVE_TEXT_LIMIT go to the native engine when the pattern allows it, longer ones a stretch of
 * short lines at a time (eachStretch); anything else runs on RE2. Matches must be non-empty on the
 * native paths (`nonEmpty`), so that both engines step on alike.
 */
function eachMatch(regex: Regex, text: string, visit: Visit): void {
  const native = regex.native;
  if (native === undefined || !native.nonEmpty) {
    re2Matches(regex, text, 0, visit);
    return;
  }
  if (text.length <= NATIVE_TEXT_LIMIT) {
    nativeMatches(native.global, text, 0, visit);
    return;
  }
  if (!native.lineLocal) {
    re2Matches(regex, text, 0, visit);
    return;
  }
  eachStretch(regex, text, (stretch, offset) => nativeMatches(native.global, stretch, offset, visit), visit);
}

/**
 * A text longer than NATIVE_TEXT_LIMIT, searched with a pattern no match of which can span a
 * newline (regex-native.ts, `lineLocal`): stretches of whole lines, each line short, go to
 * `searchNative` (about NATIVE_CHUNK characters at a time, so that each native call stays within
 * its bound: a line's length times the stretch's), and a line too long for the native engine goes
 * to RE2, its matches to `visit`. Stops once either returns false. Each piece reads the clock
 * before it is searched (searchingPiece): a text of lines with no match charges nothing per match,
 * and its stretches are all its work.
 */
function eachStretch(
  regex: Regex,
  text: string,
  searchNative: (stretch: string, offset: number) => boolean,
  visit: Visit,
): void {
  // Lines are checked NATIVE_TEXT_LIMIT characters at a time: the last newline in the next
  // stretch of that length starts the next line to check, so short lines cost no call each.
  let chunkStart = 0;
  let lineStart = 0;
  while (text.length - lineStart > NATIVE_TEXT_LIMIT) {
    const newline = text.lastIndexOf("\n", lineStart + NATIVE_TEXT_LIMIT);
    if (newline >= lineStart) {
      lineStart = newline + 1;
      if (lineStart - chunkStart >= NATIVE_CHUNK) {
        if (!searchNative(searchingPiece(text.slice(chunkStart, lineStart)), chunkStart)) return;
        chunkStart = lineStart;
      }
      continue;
    }
    // The line at lineStart is longer than the native engine may search.
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    if (
      chunkStart < lineStart &&
      !searchNative(searchingPiece(text.slice(chunkStart, lineStart)), chunkStart)
    )
      return;
    if (!re2Matches(regex, searchingPiece(text.slice(lineStart, lineEnd)), lineStart, visit)) return;
    chunkStart = lineEnd;
    lineStart = lineEnd + 1;
  }
  if (chunkStart < text.length) searchNative(searchingPiece(text.slice(chunkStart)), chunkStart);
}

/**
 * A piece of a long text about to be searched, its length charged to the clock first. The callers
 * charge the whole text once, before the search, which reads the clock once: without a charge per
 * piece, a text of many lines with no match (nothing charged per match) ran to its end however long
 * it took. A stretch of lines is NATIVE_CHUNK characters or more, far more than the fuel between two
 * reads of the clock (runtime/context.ts), so the clock is read before every piece but the last, and
 * one piece is the largest search that runs without a check (docs/sandbox.md).
 */
function searchingPiece(piece: string): string {
  active.work(piece.length);
  return piece;
}

/** The native engine's matches in `text` (which starts at `offset` of the whole); false once `visit` stops. */
function nativeMatches(global: RegExp, text: string, offset: number, visit: Visit): boolean {
  global.lastIndex = 0;
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    if (!visit(match, offset)) {
      global.lastIndex = 0;
      return false;
    }
  }
  return true;
}

/** RE2's matches in `text` (which starts at `offset` of the whole); false once `visit` stops. */
function re2Matches(regex: Regex, text: string, offset: number, visit: Visit): boolean {
  const matcher = regex.compiled.matcher(text);
  const groups = matcher.groupCount();
  while (matcher.find()) {
    const match: Array<string | undefined> & { index?: number } = new Array(groups + 1);
    for (let i = 0; i <= groups; i++) match[i] = matcher.group(i) ?? undefined;
    match.index = matcher.start();
    if (!visit(match as FoundMatch, offset)) return false;
  }
  return true;
}

/**
 * re-seq's loop on the native engine, with no callback per match: each match of `text` (which
 * starts at `offset` of the whole) charged and added to `out`. Returns where the last one ended
 * in the whole text (`from` when there was none). Matches are not empty, so `lastIndex` is the end.
 */
function nativeFindInto(
  global: RegExp,
  text: string,
  offset: number,
  from: number,
  out: Array<string | string[]>,
): number {
  regexPathStats.nativeCollects++;
  global.lastIndex = 0;
  let covered = from;
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    const end = offset + global.lastIndex;
    chargeMatch(covered, end);
    covered = end;
    // A long text has more matches than a vector may hold (values/vector-limit.ts).
    checkVectorLength(out.length + 1);
    out.push(nativeValue(match));
  }
  return covered;
}

/**
 * Where the matches of a short text are collected before they are copied into a vector of their
 * number: a vector grown by `push` from empty gets room for seventeen items, and re-seq over a
 * log line finds two or three. Slots are cleared as they are copied, so it holds no text.
 */
const collected: Array<string | string[] | undefined> = [];

/**
 * re-seq of a text up to NATIVE_TEXT_LIMIT on the native engine, charged as findAll charges:
 * nativeFindInto's loop, into a vector of exactly the matches' number.
 */
function shortTextMatches(global: RegExp, text: string): Array<string | string[]> {
  regexPathStats.nativeCollects++;
  regexPathStats.exactVectors++;
  global.lastIndex = 0;
  let n = 0;
  let end = 0;
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    const last = end;
    end = global.lastIndex;
    chargeMatch(last, end);
    checkVectorLength(n + 1);
    collected[n++] = nativeValue(match);
  }
  const out = new Array<string | string[]>(n);
  for (let i = 0; i < n; i++) {
    out[i] = collected[i] as string | string[];
    collected[i] = undefined;
  }
  active.work(text.length - end);
  active.allocate(VECTOR_BYTES);
  return out;
}

export function findAll(regex: Regex, text: string): Array<string | string[]> {
  const native = regex.native;
  if (native?.nonEmpty && text.length <= NATIVE_TEXT_LIMIT) return shortTextMatches(native.global, text);
  const out: Array<string | string[]> = [];
  let from = 0;
  const visit: Visit = (match, offset) => {
    const end = offset + match.index + (match[0] as string).length;
    chargeMatch(from, end);
    from = end;
    checkVectorLength(out.length + 1);
    out.push(foundValue(match));
    return true;
  };
  if (native?.nonEmpty && native.lineLocal) {
    eachStretch(
      regex,
      text,
      (stretch, offset) => {
        from = nativeFindInto(native.global, stretch, offset, from, out);
        return true;
      },
      visit,
    );
  } else eachMatch(regex, text, visit);
  active.work(text.length - from);
  active.allocate(VECTOR_BYTES);
  return out;
}

/**
 * re-seq's matches one at a time, found as they are asked for (`next`), each charged as findAll
 * charges it (the text it covers, its slot, its vector); once the last is found, the rest of the
 * text and the vector are charged too, so that a loop over the whole stream pays what findAll's
 * vector costs. What it saves is keeping every match alive at once: a long text's hundred thousand
 * match vectors, copied by each young-generation collection until they are promoted. The search
 * is findAll's: a short text on the native engine, a long one a stretch of short lines at a time
 * (a line too long for the native engine on RE2, as eachStretch splits it), anything else on RE2.
 * For the stages of lazy pipelines (lazy-pipeline.ts, compiler/fused-pipelines.ts), which call
 * the program's callbacks between matches: those may search with this same pattern, so the
 * cursor keeps its own position and sets the shared pattern's lastIndex before each search.
 */
export class MatchCursor {
  private readonly native: RegExp | undefined;
  private readonly lineLocal: boolean;
  /** The piece being searched (the whole text, a stretch of it, or one long line) and where it starts. */
  private piece = "";
  private offset = 0;
  /** Where the next native search of the piece starts; the RE2 matcher when the piece is on RE2. */
  private position = 0;
  private matcher: Matcher | undefined;
  private groups = 0;
  /** Where the next stretch of lines starts, and the line the stretch has reached (eachStretch). */
  private chunkStart = 0;
  private lineStart = 0;
  /** A long line waiting for RE2 after the stretch before it: its start and end, else -1. */
  private pendingLine = -1;
  private pendingEnd = -1;
  /** Where the last match ended in the whole text (what is charged), and whether the text is done. */
  private covered = 0;
  private done = false;

  constructor(
    private readonly regex: Regex,
    private readonly text: string,
  ) {
    regexPathStats.streamedMatches++;
    const native = regex.native;
    this.native = native?.nonEmpty ? native.global : undefined;
    this.lineLocal = native?.nonEmpty === true && native.lineLocal && text.length > NATIVE_TEXT_LIMIT;
    if (this.native !== undefined && text.length <= NATIVE_TEXT_LIMIT) this.piece = text;
    else if (this.lineLocal) this.chunkStart = -1;
    else this.onRe2(text, 0);
  }

  /** The next match (a string, or [whole g1 ...]), or undefined once there is none. */
  next(): string | string[] | undefined {
    for (;;) {
      if (this.matcher !== undefined) {
        const found = this.nextOnRe2();
        if (found !== undefined) return found;
      } else if (this.chunkStart !== -1 || !this.lineLocal) {
        const found = this.nextNative();
        if (found !== undefined) return found;
      }
      if (!this.lineLocal || !this.nextPiece()) return this.finish();
    }
  }

  /**
   * As next, for a loop that only reads the match's items by index (a fn whose parameter is a
   * vector pattern without `&`: `(fn [[_ k v]] ...)`): where every group took part, the native
   * engine's own result array, whose items are the match vector's, stands in for it, charged as
   * the vector it saves. Anything else is next's value.
   */
  nextItems(): readonly string[] | string | undefined {
    if (this.native === undefined || this.matcher !== undefined || (this.lineLocal && this.chunkStart === -1))
      return this.next();
    const match = this.nativeMatch();
    if (match === null) return this.next();
    const length = match.length;
    if (length === 1) return match[0];
    for (let i = 1; i < length; i++) if (match[i] === undefined) return nativeValue(match);
    regexPathStats.itemsOnly++;
    active.allocate(vectorBytes(length));
    return match;
  }

  private nextNative(): string | string[] | undefined {
    const match = this.nativeMatch();
    return match === null ? undefined : nativeValue(match);
  }

  /** The next match of the piece on the native engine, charged (not its vector), or null. */
  private nativeMatch(): RegExpExecArray | null {
    const global = this.native as RegExp;
    global.lastIndex = this.position;
    const match = global.exec(this.piece);
    if (match === null) return null;
    this.position = global.lastIndex;
    global.lastIndex = 0;
    const end = this.offset + this.position;
    chargeMatch(this.covered, end);
    this.covered = end;
    return match;
  }

  private nextOnRe2(): string | string[] | undefined {
    const matcher = this.matcher as Matcher;
    if (!matcher.find()) {
      this.matcher = undefined;
      return undefined;
    }
    const match: Array<string | undefined> & { index?: number } = new Array(this.groups + 1);
    for (let i = 0; i <= this.groups; i++) match[i] = matcher.group(i) ?? undefined;
    match.index = matcher.start();
    const end = this.offset + match.index + (match[0] as string).length;
    chargeMatch(this.covered, end);
    this.covered = end;
    return foundValue(match as FoundMatch);
  }

  private onRe2(piece: string, offset: number): void {
    this.matcher = this.regex.compiled.matcher(searchingPiece(piece));
    this.groups = this.matcher.groupCount();
    this.offset = offset;
  }

  private onNative(piece: string, offset: number): void {
    this.piece = searchingPiece(piece);
    this.offset = offset;
    this.position = 0;
  }

  /** eachStretch's walk, a piece at a time: false once the text is done. */
  private nextPiece(): boolean {
    const text = this.text;
    if (this.chunkStart === -1) this.chunkStart = 0;
    if (this.pendingLine !== -1) {
      const line = this.pendingLine;
      this.pendingLine = -1;
      this.onRe2(text.slice(line, this.pendingEnd), line);
      return true;
    }
    if (this.chunkStart >= text.length && this.lineStart >= text.length) return false;
    while (text.length - this.lineStart > NATIVE_TEXT_LIMIT) {
      const newline = text.lastIndexOf("\n", this.lineStart + NATIVE_TEXT_LIMIT);
      if (newline >= this.lineStart) {
        this.lineStart = newline + 1;
        if (this.lineStart - this.chunkStart >= NATIVE_CHUNK) {
          this.onNative(text.slice(this.chunkStart, this.lineStart), this.chunkStart);
          this.chunkStart = this.lineStart;
          return true;
        }
        continue;
      }
      // The line at lineStart is longer than the native engine may search: the stretch before
      // it first (if any), then the line on RE2.
      let lineEnd = text.indexOf("\n", this.lineStart);
      if (lineEnd === -1) lineEnd = text.length;
      const stretchStart = this.chunkStart;
      const line = this.lineStart;
      this.chunkStart = lineEnd;
      this.lineStart = lineEnd + 1;
      if (stretchStart < line) {
        this.pendingLine = line;
        this.pendingEnd = lineEnd;
        this.onNative(text.slice(stretchStart, line), stretchStart);
      } else this.onRe2(text.slice(line, lineEnd), line);
      return true;
    }
    if (this.chunkStart < text.length) {
      this.onNative(text.slice(this.chunkStart), this.chunkStart);
      this.chunkStart = text.length;
      this.lineStart = text.length;
      return true;
    }
    return false;
  }

  private finish(): undefined {
    if (!this.done) {
      this.done = true;
      active.work(this.text.length - this.covered);
      active.allocate(VECTOR_BYTES);
    }
    return undefined;
  }
}

/**
 * Pieces of `text` between matches. Groups a match captured are kept between the pieces, and
 * trailing empty pieces stay, as in the reference (Erlang's re:split); an empty match right where
 * the previous piece ended, with no groups, does not split.
 */
export function splitAll(regex: Regex, text: string): string[] {
  const native = regex.native;
  if (native?.nonEmpty && text.length <= NATIVE_TEXT_LIMIT)
    return nativeSplit(native.first, native.groups, text);
  const out: string[] = [];
  let from = 0;
  eachMatch(regex, text, (match, offset) => {
    const start = offset + match.index;
    const end = start + (match[0] as string).length;
    let last = match.length - 1;
    while (last > 0 && match[last] === undefined) last--;
    if (start === end && start === from && last === 0) return true;
    chargeMatch(from, end);
    // `(split text #"")` of a long text has a piece a character: more than a vector may hold.
    checkVectorLength(out.length + 1 + last);
    out.push(text.slice(from, start));
    for (let i = 1; i <= last; i++) out.push(match[i] ?? "");
    from = end;
    return true;
  });
  checkVectorLength(out.length + 1);
  out.push(text.slice(from));
  active.work(text.length - from);
  active.allocate(VECTOR_BYTES + text.length);
  return out;
}

/**
 * splitAll on a short text with a native pattern, as one call of V8's own split. Its pieces are
 * splitAll's: matches are found left to right, each search starting where the last match ended,
 * none is empty, and every group takes part (so none is undefined and none is left off). The
 * charges are splitAll's too, made once the pieces are known: one match per `groups + 1` pieces
 * after the first, and the whole text covered.
 */
function nativeSplit(first: RegExp, groups: number, text: string): string[] {
  regexPathStats.nativeSplits++;
  const out = text.split(first);
  const matches = (out.length - 1) / (groups + 1);
  active.work(matches + text.length);
  active.allocate(matches * VECTOR_SLOT_BYTES + VECTOR_BYTES + text.length);
  // A short text never reaches the cap; checked so that a cap lowered by a test holds here too.
  checkVectorLength(out.length);
  return out;
}

/** Every match replaced by `replacement`, taken literally (no `$1` or `\1` substitution). */
export function replaceAll(regex: Regex, text: string, replacement: string): string {
  let out = "";
  let from = 0;
  eachMatch(regex, text, (match, offset) => {
    const start = offset + match.index;
    const piece = text.slice(from, start);
    const end = start + (match[0] as string).length;
    active.work(1 + end - from);
    checkTextLength(out.length + piece.length + replacement.length);
    active.allocate(piece.length + replacement.length);
    out += piece + replacement;
    from = end;
    return true;
  });
  // Charged before the text without a match goes back unchanged: a search that found nothing has
  // still searched all of it (for V8's engine, up to the text's length squared).
  active.work(text.length - from);
  if (from === 0 && out === "") return text;
  out += text.slice(from);
  active.allocate(text.length - from);
  return out;
}
