/**
 * What the fast tier did, for tests: counters that prove generated code ran, and that no unit was
 * quietly handed back to the general evaluator, plus the switch that turns a generation gap into
 * a failure. Results never depend on any of this; the evaluator only writes the counters.
 *
 * It must never change what a program does, and nothing outside tests should read it.
 */

/** The generator has no template for a pure node (or produced source that does not parse). */
export class GenerationGap extends Error {
  override readonly name = "GenerationGap";
}

export interface FastTierStats {
  /** Pure units compiled to JavaScript. */
  unitsGenerated: number;
  /**
   * Pure units the generator could not compile (a node kind or shape it has no template for):
   * they run on the general evaluator, correctly but slowly.
   */
  generationGaps: number;
  /** Entries into a unit that finished in generated code. */
  fastRuns: number;
  /** Units and generated functions that met an effect and ran again on the general evaluator. */
  effectFallbacks: number;
  /** Errors raised in generated code, run again on the general evaluator to get their position. */
  errorReruns: number;
  /**
   * Calls that came in through a generated function's entry. A call of the function from its own
   * body (a self-recursive `defn`) enters the body directly and is not counted.
   */
  functionEntries: number;
  /** Hot functions of the adaptive tier compiled to JavaScript while their program ran. */
  promotions: number;
  /** Calls of `new Function` made only to find out whether it is allowed (code-generation.ts). */
  probes: number;
  /** Keywords that got a field reader of their own, compiled with `new Function` (field-reader.ts). */
  fieldReaders: number;
  /**
   * Maps below a reduce's owned accumulator that generated update-in changed in place, because the
   * reduce's own update-in made them (builtins/maps.ts, assocNested).
   */
  nestedInPlace: number;
  /**
   * Maps one `map` stage of a fused pipeline made that the next stage's update changed in place
   * (compiler/fresh-stages.ts, builtins/maps.ts assocFresh).
   */
  freshInPlace: number;
}

export const fastTierStats: FastTierStats = {
  unitsGenerated: 0,
  generationGaps: 0,
  fastRuns: 0,
  effectFallbacks: 0,
  errorReruns: 0,
  functionEntries: 0,
  promotions: 0,
  probes: 0,
  fieldReaders: 0,
  nestedInPlace: 0,
  freshInPlace: 0,
};

/** Zeroes the counters and returns what they held. */
export function resetFastTierStats(): FastTierStats {
  const before = { ...fastTierStats };
  fastTierStats.unitsGenerated = 0;
  fastTierStats.generationGaps = 0;
  fastTierStats.fastRuns = 0;
  fastTierStats.effectFallbacks = 0;
  fastTierStats.errorReruns = 0;
  fastTierStats.functionEntries = 0;
  fastTierStats.promotions = 0;
  fastTierStats.probes = 0;
  fastTierStats.fieldReaders = 0;
  fastTierStats.nestedInPlace = 0;
  fastTierStats.freshInPlace = 0;
  return before;
}

/**
 * When on, a generation gap fails the run (reason runtime_error, the gap in the message) instead
 * of falling back. The test suite turns it on (vitest.setup.ts), so a node kind or shape added
 * without its generated-code case fails the tests that use it.
 */
export const generationPolicy: { failOnGap: boolean } = { failOnGap: false };
