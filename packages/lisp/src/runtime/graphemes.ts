/**
 * Strings count, index and split by grapheme (what a person sees as one character: "👍🏽" is one),
 * as in the reference. Two fast paths cover nearly all text: plain ASCII, and text in which every
 * code point is a grapheme of its own (accented Latin, Cyrillic, CJK... with no combining marks,
 * joiners, Hangul jamo or flags). Everything else goes through `Intl.Segmenter`, in short pieces:
 * its cost grows with the square of the text it is given (80,000 characters took 1.6 s in one
 * piece), and each piece is charged to the running program, so `(count s)` on a long text stays
 * fast and within the run's timeout.
 */
import { checkVectorLength, vectorPolicy, vectorTooLongError } from "../values/vector-limit.js";
import { chargeWalk } from "../values/walk-meter.js";

/**
 * The segmenter, made on first use: making one loads ICU's break rules, which took longer than
 * the rest of `@ptc/lisp`'s import together on a cold start, for text most programs never have.
 */
let madeSegmenter: Intl.Segmenter | null | undefined;
function graphemeSegmenter(): Intl.Segmenter | undefined {
  if (madeSegmenter === undefined) {
    madeSegmenter =
      typeof Intl !== "undefined" && typeof Intl.Segmenter === "function"
        ? new Intl.Segmenter(undefined, { granularity: "grapheme" })
        : null;
  }
  return madeSegmenter ?? undefined;
}

/** True when every code unit is ASCII (then code units are graphemes, CRLF aside). */
export function isAscii(text: string): boolean {
  // A scan of the whole text, which may be megabytes, on every count or nth of it: charged when
  // long, so a loop over many long texts reads the clock.
  if (text.length > 4096) chargeWalk(text.length);
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

function asciiSimple(text: string): boolean {
  return isAscii(text) && !text.includes("\r\n");
}

/**
 * Code points that can join a neighbour into one grapheme (UAX #29): marks and other Extend or
 * SpacingMark characters, joiners, emoji modifiers and tags, regional indicators, Hangul jamo and
 * syllables, Prepend characters, and CR (of CRLF). Text with none of them has one grapheme per
 * code point.
 *
 * Made on first use: for a `\p{...}` class in a regex literal, V8 builds the Unicode set from
 * ICU's tables while it parses the module, so every cold start would pay for it.
 */
let joining: RegExp | undefined;
function joiningCharacter(): RegExp {
  // biome-ignore lint/complexity/useRegexLiterals: a literal's Unicode set is built when the module is parsed
  joining ??= new RegExp(
    String.raw`[\u200d\p{M}\r\u200c\uff9e\uff9f\u1100-\u11ff\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}\u{1f1e6}-\u{1f1ff}\u{110bd}\u{110cd}\u{111c2}\u{111c3}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}\u{11f02}]`,
    "u",
  );
  return joining;
}

/** True when the code units at `i` and `i + 1` are a surrogate pair (one code point). */
function isHighSurrogate(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code < 0xd800 || code > 0xdbff) return false;
  const low = text.charCodeAt(i + 1);
  return low >= 0xdc00 && low <= 0xdfff;
}

/** Code units segmented per call: the segmenter's cost is quadratic in its input. */
const PIECE = 256;
/**
 * Longest cluster segmented whole. A longer one (thousands of combining marks: no writing system
 * needs it) is cut here, so no input can make segmenting slow.
 */
const MAX_CLUSTER = 4096;

/**
 * Calls `visit` with the code-unit offset where each grapheme of `text` starts, in order, until
 * it returns true. Pieces restart at a grapheme boundary found inside the previous piece, so a
 * cluster cut by a piece's end is segmented again whole (every rule of UAX #29 looks back only to
 * the cluster's start).
 *
 * Nothing is kept: `(subs s 0 1)` or `(count s)` on a long text walks it without an array of its
 * offsets. Such an array once held one number per character, and past about 112 million of them
 * (a text may hold 2^28) V8 aborted the host process when it grew.
 */
export function walkGraphemeStarts(text: string, visit: (offset: number) => boolean): void {
  const segmenter = joiningCharacter().test(text) ? graphemeSegmenter() : undefined;
  if (segmenter === undefined) {
    chargeWalk(text.length);
    for (let i = 0; i < text.length; i++) {
      if (visit(i)) return;
      if (isHighSurrogate(text, i)) i++;
    }
    return;
  }
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + PIECE, text.length);
    for (;;) {
      const starts: number[] = [];
      for (const { index } of segmenter.segment(text.slice(start, end))) starts.push(start + index);
      chargeWalk(end - start);
      if (end === text.length) {
        for (const at of starts) if (visit(at)) return;
        start = end;
        break;
      }
      if (starts.length > 1) {
        // The last cluster may continue past the piece: segment it again with the next piece.
        for (let i = 0; i < starts.length - 1; i++) if (visit(starts[i] as number)) return;
        start = starts[starts.length - 1] as number;
        break;
      }
      if (end - start >= MAX_CLUSTER) {
        if (visit(start)) return;
        const high = text.charCodeAt(end - 1);
        // Never between the two halves of a surrogate pair.
        start = high >= 0xd800 && high <= 0xdbff ? end - 1 : end;
        break;
      }
      // One cluster fills the whole piece (a run of marks): widen the piece.
      end = Math.min(start + 2 * (end - start), text.length);
    }
  }
}

/**
 * Code-unit offsets where each grapheme starts, plus the text's length at the end: the edges the
 * graphemes of a text are cut at, for a vector of them. Past `maxGraphemes` graphemes it stops
 * with the vector cap's error (values/vector-limit.ts): a text may hold four times as many
 * characters as a vector may hold items.
 */
function graphemeBoundaries(text: string, maxGraphemes: number): number[] {
  const out: number[] = [];
  walkGraphemeStarts(text, (at) => {
    if (out.push(at) > maxGraphemes) throw vectorTooLongError(out.length);
    return false;
  });
  out.push(text.length);
  return out;
}

/** How many graphemes `text` has, walked without keeping their offsets. */
export function countGraphemes(text: string): number {
  let count = 0;
  walkGraphemeStarts(text, () => {
    count++;
    return false;
  });
  return count;
}

/** The code-unit offset where grapheme `index` (≥ 0) starts; the text's length past its last. */
export function graphemeStartOffset(text: string, index: number): number {
  let seen = 0;
  let offset = text.length;
  walkGraphemeStarts(text, (at) => {
    if (seen++ < index) return false;
    offset = at;
    return true;
  });
  return offset;
}

/**
 * The code units of graphemes `from` (inclusive) to `to` (exclusive), `0 <= from <= to`, both
 * clamped to the text; the walk stops at `to`.
 */
export function graphemeRange(text: string, from: number, to: number): string {
  let seen = 0;
  let fromAt = text.length;
  let toAt = text.length;
  walkGraphemeStarts(text, (at) => {
    if (seen === from) fromAt = at;
    if (seen === to) {
      toAt = at;
      return true;
    }
    seen++;
    return false;
  });
  return text.slice(fromAt, toAt);
}

/** The graphemes of `text`, a vector no longer than the vector cap (values/vector-limit.ts). */
export function graphemes(text: string): string[] {
  if (asciiSimple(text)) {
    checkVectorLength(text.length);
    return text.split("");
  }
  return segmentedGraphemes(text);
}

/**
 * The graphemes of a text that is not plain ASCII, cut at its grapheme boundaries: for callers that
 * have taken their own ASCII fast path already (str-text.ts's graphemeList, which remembers it).
 */
export function segmentedGraphemes(text: string): string[] {
  const edges = graphemeBoundaries(text, vectorPolicy.maxLength);
  checkVectorLength(edges.length - 1);
  const out = new Array<string>(edges.length - 1);
  for (let i = 0; i < out.length; i++) out[i] = text.slice(edges[i], edges[i + 1]);
  return out;
}

export function graphemeCount(text: string): number {
  if (asciiSimple(text)) return text.length;
  if (joiningCharacter().test(text) && graphemeSegmenter() !== undefined) return countGraphemes(text);
  chargeWalk(text.length);
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    count++;
    if (isHighSurrogate(text, i)) i++;
  }
  return count;
}
