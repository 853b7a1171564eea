/**
 * The matches of a regex in a text, pulled one at a time: the loops over matches (str-regex.ts)
 * and a lazy `re-seq` (a pipeline's source, builtins/lazy-pipeline.ts and fused-pipelines.ts),
 * which hands each match on before looking for the next, so that 100,000 matches of a long text
 * are never all alive at once.
 *
 * Which engine searches which part of the text: a text up to NATIVE_TEXT_LIMIT goes to the native
 * engine when the pattern allows it. A longer text goes a chunk of whole lines at a time when no
 * match can span a newline (regex-native.ts, `lineLocal`): every line of a chunk is short, so each
 * native search stays within its bound (a line's length times the chunk's), and a line too long
 * for it is searched by RE2. Anything else runs on RE2. Matches must be non-empty on the native
 * paths (`nonEmpty`), so that both engines step on alike.
 *
 * A cursor keeps its own position in the native RegExp (`lastIndex`, set before every search and
 * read back after): the RegExp is shared by every use of the pattern, and between two pulls a
 * program may search with the same pattern again.
 */
import type { Matcher } from "re2js";
import type { Regex } from "../../values/regex.js";
import { NATIVE_TEXT_LIMIT } from "../../values/regex-native.js";

/**
 * A match as the loops over matches see it, from either engine: the whole match and the groups
 * (undefined for a group that took no part), and where the match starts in the part of the text
 * searched (the cursor's `offset` says where that part starts).
 */
export interface FoundMatch {
  readonly [group: number]: string | undefined;
  readonly length: number;
  readonly index: number;
}

/** Text searched by one native search when a long text is searched a line at a time. */
const NATIVE_CHUNK = 16 * 1024;

const START = 0;
const LINES = 1;
const LAST = 2;

export class MatchCursor {
  /** Where the part of the text that the last match was found in starts. */
  offset = 0;
  private part: string | undefined;
  private native = false;
  /** The native search's position in `part`. */
  private at = 0;
  private matcher: Matcher | undefined;
  private phase = START;
  private chunkStart = 0;
  private lineStart = 0;
  /** A line too long for the native engine, to search once the chunk before it is done. */
  private longLine: [number, number] | undefined;

  constructor(
    private readonly regex: Regex,
    private readonly text: string,
  ) {}

  /** The next match, or undefined when there is none. */
  next(): FoundMatch | undefined {
    for (;;) {
      if (this.part !== undefined) {
        const match = this.native ? this.nextNative(this.part) : this.nextRe2();
        if (match !== undefined) return match;
        this.part = undefined;
      }
      if (!this.nextPart()) return undefined;
    }
  }

  private nextNative(part: string): FoundMatch | undefined {
    const global = (this.regex.native as { global: RegExp }).global;
    global.lastIndex = this.at;
    const match = global.exec(part);
    this.at = global.lastIndex;
    global.lastIndex = 0;
    return match === null ? undefined : match;
  }

  private nextRe2(): FoundMatch | undefined {
    const matcher = this.matcher as Matcher;
    if (!matcher.find()) return undefined;
    const groups = matcher.groupCount();
    const match: Array<string | undefined> & { index?: number } = new Array(groups + 1);
    for (let i = 0; i <= groups; i++) match[i] = matcher.group(i) ?? undefined;
    match.index = matcher.start();
    return match as FoundMatch;
  }

  private begin(native: boolean, part: string, offset: number): true {
    this.native = native;
    this.part = part;
    this.offset = offset;
    this.at = 0;
    this.matcher = native ? undefined : this.regex.compiled.matcher(part);
    return true;
  }

  /** Starts the next part of the text to search; false when the whole text has been searched. */
  private nextPart(): boolean {
    const text = this.text;
    const native = this.regex.native;
    if (this.phase === START) {
      this.phase = LAST;
      if (native === undefined || !native.nonEmpty) return this.begin(false, text, 0);
      if (text.length <= NATIVE_TEXT_LIMIT) return this.begin(true, text, 0);
      if (!native.lineLocal) return this.begin(false, text, 0);
      this.phase = LINES;
    }
    if (this.phase !== LINES) return false;
    if (this.longLine !== undefined) {
      const [start, end] = this.longLine;
      this.longLine = undefined;
      return this.begin(false, text.slice(start, end), start);
    }
    // Lines are checked NATIVE_TEXT_LIMIT characters at a time: the last newline in the next
    // stretch of that length starts the next line to check, so short lines cost no call each.
    while (text.length - this.lineStart > NATIVE_TEXT_LIMIT) {
      const newline = text.lastIndexOf("\n", this.lineStart + NATIVE_TEXT_LIMIT);
      if (newline >= this.lineStart) {
        this.lineStart = newline + 1;
        if (this.lineStart - this.chunkStart >= NATIVE_CHUNK) {
          const start = this.chunkStart;
          this.chunkStart = this.lineStart;
          return this.begin(true, text.slice(start, this.lineStart), start);
        }
        continue;
      }
      // The line at lineStart is longer than the native engine may search.
      let lineEnd = text.indexOf("\n", this.lineStart);
      if (lineEnd === -1) lineEnd = text.length;
      const chunkStart = this.chunkStart;
      const lineStart = this.lineStart;
      this.chunkStart = lineEnd;
      this.lineStart = lineEnd + 1;
      if (chunkStart < lineStart) {
        this.longLine = [lineStart, lineEnd];
        return this.begin(true, text.slice(chunkStart, lineStart), chunkStart);
      }
      return this.begin(false, text.slice(lineStart, lineEnd), lineStart);
    }
    this.phase = LAST;
    if (this.chunkStart < text.length) return this.begin(true, text.slice(this.chunkStart), this.chunkStart);
    return false;
  }
}
