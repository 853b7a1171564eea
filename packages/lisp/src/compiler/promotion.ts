/**
 * When the adaptive tier moves a function to generated code. A new program starts on the general
 * evaluator, whose closures are module code V8 optimized long ago, so it starts at once; generating
 * JavaScript for a function costs a few hundred microseconds (the generator, then V8 parsing and
 * warming the new code), which pays only once the function has run enough. "Enough" is measured in
 * calls plus `recur` jumps of the function, summed over every closure its fn form made.
 *
 * Results never depend on this (both tiers compute the same values); tests lower the threshold so
 * that promotion happens at once.
 */
import { environmentVariable } from "../environment.js";

export const promotionPolicy: { threshold: number } = { threshold: initialThreshold() };

/** 1000, or PTC_LISP_PROMOTE_AFTER (a non-negative integer) for work on the tiers. */
function initialThreshold(): number {
  const chosen = environmentVariable("PTC_LISP_PROMOTE_AFTER");
  const value = chosen === undefined ? Number.NaN : Number(chosen);
  return Number.isInteger(value) && value >= 0 ? value : 1000;
}
