/**
 * A running sum in generated code (`(reduce + 0 xs)`, `(sum-by :amount rows)`): a JS double and a
 * flag saying whether the sum is a float, which is what folding `add` over the terms computes.
 * add's steps are these same double additions; a float term makes every later sum a float; an
 * integer sum is exact while it stays safe. Folding with add itself would box every whole float
 * sum (`25.0` must stay a float: numbers.ts, WholeFloat) and, once one appears, V8 boxes every
 * sum of the loop; here the sum is boxed once, at the end, if it is a whole float.
 *
 * A term that is neither a plain number nor a whole float, or an integer sum leaving the safe
 * range, raises an error: the unit runs again on the general evaluator, which folds with add
 * (big integers, and the error a term of another kind deserves).
 */
import type { LoopEmitter } from "./codegen-loops.js";

export interface RunningSum {
  readonly sum: string;
  readonly float: string;
}

/** A sum starting from a term (a value's name), or from integer 0. */
export function startSum(g: LoopEmitter, first: string | undefined): RunningSum {
  const sum = g.temp("sum");
  const float = g.temp("float");
  g.emit(`let ${sum} = 0;`);
  g.emit(`let ${float} = false;`);
  const running = { sum, float };
  if (first !== undefined) setSum(g, running, first);
  return running;
}

/** `sum = term`: the first term is the sum itself, not 0 + it (no step of add is taken). */
export function setSum(g: LoopEmitter, { sum, float }: RunningSum, value: string): void {
  // A name, not a literal: `0.value` does not parse.
  const term = g.named(value);
  g.emit(`if (typeof ${term} === "number") { ${sum} = ${term}; ${float} = !Number.isInteger(${term}); }`);
  g.emit(`else if (${term} instanceof $.WholeFloat) { ${sum} = ${term}.value; ${float} = true; }`);
  g.emit("else throw $.notFused();");
}

/** `sum = (+ sum term)`. */
export function addToSum(g: LoopEmitter, { sum, float }: RunningSum, value: string): void {
  const term = g.named(value);
  g.emit(`if (typeof ${term} === "number") {`);
  g.emit(`${sum} += ${term};`);
  g.emit(`if (!Number.isInteger(${term})) ${float} = true;`);
  g.emit(`else if (!${float} && !(Math.abs(${sum}) <= 9007199254740991)) throw $.notFused();`);
  g.emit(`} else if (${term} instanceof $.WholeFloat) { ${sum} += ${term}.value; ${float} = true; }`);
  g.emit("else throw $.notFused();");
}

/** The sum as a value: a float that is whole boxed, as add would have returned it. */
export function sumValue(g: LoopEmitter, { sum, float }: RunningSum): string {
  return g.bind(`${float} ? $.makeFloat(${sum}) : ${sum}`);
}
