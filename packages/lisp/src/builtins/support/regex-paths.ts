/**
 * Which way the regex builtins went, for tests: counters that prove a fast path ran, so that a
 * test comparing it with the plain path is not comparing the plain path with itself. Results
 * never depend on them; the builtins only write them, and nothing outside tests should read them.
 */
export interface RegexPathStats {
  /** Short texts split by one call of V8's own split (str-regex.ts, nativeSplit). */
  nativeSplits: number;
  /** Texts, or stretches of a long text, whose matches re-seq collected in one native loop (nativeFindInto). */
  nativeCollects: number;
  /** Short texts whose matches re-seq copied into a vector of their number (shortTextMatches). */
  exactVectors: number;
  /** re-seqs whose matches went one at a time to a lazy pipeline's stages (MatchCursor). */
  streamedMatches: number;
  /** Matches a fused loop destructured from the native engine's result, no vector made (MatchCursor.nextItems). */
  itemsOnly: number;
}

export const regexPathStats: RegexPathStats = {
  nativeSplits: 0,
  nativeCollects: 0,
  exactVectors: 0,
  streamedMatches: 0,
  itemsOnly: 0,
};
