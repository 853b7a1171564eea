/**
 * Pieces every part of the general evaluator shares: evaluating argument lists that may wait on
 * tools, counting loop iterations, locating errors at their call.
 */
import { isLispError } from "../errors.js";
import type { Position } from "../reader/form.js";
import { after } from "../runtime/async.js";
import { callValue } from "../runtime/call.js";
import { callSite, locatable } from "../runtime/call-site.js";
import { active, loopLimitError } from "../runtime/context.js";
import type { Code } from "./code.js";

/**
 * Gives an error without a position the form's. Not a budget error (time, memory, a cancelled
 * run): it happened wherever the budget ran out, and carries no position on any engine.
 */
export function located(error: unknown, position: { line: number; column: number }): unknown {
  if (isLispError(error) && locatable(error.reason)) error.at(position);
  return error;
}

/** Evaluates codes in order into `values`, continuing asynchronously if one returns a promise. */
export function evaluateAll(
  codes: readonly Code[],
  frame: unknown[],
  values: unknown[],
  start: number,
): unknown {
  for (let i = start; i < codes.length; i++) {
    const value = (codes[i] as Code)(frame);
    if (value instanceof Promise) {
      return after(value, (resolved) => {
        values[i] = resolved;
        return evaluateAll(codes, frame, values, i + 1);
      });
    }
    values[i] = value;
  }
  return values;
}

/**
 * Continues argument evaluation after argument `index` turned out to be a promise: the arguments
 * before it are in `values`, the ones after it are evaluated only once it has resolved, so tool
 * calls in arguments run once each and strictly left to right.
 */
export function resume(
  codes: readonly Code[],
  frame: unknown[],
  values: unknown[],
  index: number,
  pending: Promise<unknown>,
): unknown {
  return after(pending, (resolved) => {
    values[index] = resolved;
    return evaluateAll(codes, frame, values, index + 1);
  });
}

/**
 * One loop iteration of the running program; a limit error points at the loop's form. Counted as
 * generated loops count (RunContext.loopCheck): one test against the next check, which comes at
 * the iteration limit or after FUEL_PER_CHECK iterations, when the clock is read.
 */
export function iterateAt(position: Position): void {
  const context = active;
  if (++context.iterations > context.loopCheckAt && !context.loopCheck())
    throw loopLimitError(context.limits.maxIterations).at(position);
}

export function invoke(fn: unknown, args: unknown[], position: Position): unknown {
  callSite.current = position;
  return callValue(fn, args);
}
