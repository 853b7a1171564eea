/**
 * Ordering for `sort`: the natural (term) order, or a comparator given by the program.
 *
 * A comparator may be `<`/`>` (and the other ordering builtins), `compare`, `:asc`/`:desc`, or any
 * 2-argument function answering either a boolean ("a goes before b") or an integer (negative,
 * zero, positive) as in the reference. Comparators run synchronously: a tool call inside one is
 * refused (see callNow), because a sort must not depend on the timing of tools.
 *
 * Sorting is stable: elements the order considers equal keep their input order.
 */

import { typeError } from "../../errors.js";
import { type Callable, callNow, toCallable } from "../../runtime/call.js";
import { sortInSlices, sortNumbersInSlices } from "../../runtime/interruptible.js";
import { Keyword } from "../../values/keyword.js";
import { FUNCTION_INFO, type LispFunction } from "../../values/lisp-function.js";
import { compareTerms } from "../../values/term-order.js";
import { described } from "./seq-common.js";

export type Compare = (a: unknown, b: unknown) => number;

const descending: Compare = (a, b) => compareTerms(b, a);

/** Builtins whose order is the natural one (or its reverse): no call needed per comparison. */
const NATURAL: Readonly<Record<string, Compare>> = {
  "<": compareTerms,
  "<=": compareTerms,
  compare: compareTerms,
  ">": descending,
  ">=": descending,
};

function isTruthy(value: unknown): boolean {
  return value !== null && value !== undefined && value !== false;
}

function sign(n: number | bigint): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

function integerAnswer(value: unknown): number | bigint | undefined {
  if (typeof value === "number") return Number.isInteger(value) ? value : undefined;
  return typeof value === "bigint" ? value : undefined;
}

/** A JS comparator from a program's comparator function. */
function fromFunction(fn: Callable, who: string): Compare {
  return (a, b) => {
    const first = callNow(fn, who, a, b);
    const n = integerAnswer(first);
    if (n !== undefined) return sign(n);
    // A boolean comparator answers "a before b"; asking the reverse question tells "equal"
    // apart, which keeps the sort stable for both strict (<) and non-strict (<=) comparators.
    const reverse = isTruthy(callNow(fn, who, b, a));
    if (isTruthy(first)) return reverse ? 0 : -1;
    return reverse ? 1 : 0;
  };
}

/**
 * The comparator a program passed to `who`. Keywords other than :asc/:desc, and values that are
 * not functions, are type errors naming what to write.
 */
export function comparatorOf(comparator: unknown, who: string): Compare {
  if (comparator instanceof Keyword) {
    if (comparator.name === "asc") return compareTerms;
    if (comparator.name === "desc") return descending;
    throw typeError(
      `${who}: invalid comparator :${comparator.name}; use <, >, :asc, :desc or a function of 2 arguments`,
    );
  }
  if (typeof comparator === "function") {
    const info = (comparator as Partial<LispFunction>)[FUNCTION_INFO];
    if (info?.builtin && info.name !== undefined) {
      const natural = NATURAL[info.name];
      if (natural !== undefined) return natural;
    }
    return fromFunction(toCallable(comparator, `${who} comparator`), who);
  }
  throw typeError(
    `${who}: invalid comparator ${described(comparator)}; use <, >, :asc, :desc or a function of 2 arguments`,
  );
}

function allPlainNumbers(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== "number" || Number.isNaN(item)) return false;
  }
  return true;
}

function allStrings(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++) if (typeof items[i] !== "string") return false;
  return true;
}

/** Plain numbers sort fastest as a typed array (numeric order, no comparator calls). */
function sortNumbersInto(out: unknown[], descending: boolean): void {
  const n = out.length;
  let values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = out[i] as number;
  values = sortNumbersInSlices(values);
  if (descending) for (let i = 0; i < n; i++) out[i] = values[n - 1 - i];
  else for (let i = 0; i < n; i++) out[i] = values[i];
}

/** A sorted copy of `items` in natural order, or by `compare`. */
export function sortedCopy(items: readonly unknown[], compare: Compare | undefined): unknown[] {
  // Host data may hold undefined, which Array#sort would move to the end unseen: it is nil here.
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) out[i] = items[i] === undefined ? null : items[i];
  if (out.length < 2) return out;
  if (compare === undefined || compare === compareTerms) {
    if (allPlainNumbers(out)) sortNumbersInto(out, false);
    // The default order of Array#sort on strings is code-unit order, the same as compareTerms.
    else if (allStrings(out)) sortInSlices(out, compareStrings);
    else sortInSlices(out, compareTerms);
    return out;
  }
  if (compare === descending && allPlainNumbers(out)) {
    sortNumbersInto(out, true);
    return out;
  }
  sortInSlices(out, compare);
  return out;
}

/** Code-unit order, what Array#sort does to strings by default. */
function compareStrings(a: unknown, b: unknown): number {
  return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
}
