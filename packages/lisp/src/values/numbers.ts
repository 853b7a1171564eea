/**
 * The numeric tower. PTC-Lisp has arbitrary-precision integers and IEEE doubles, and keeps the two
 * apart (`(float? 2.0)` is true, `(str 2.0)` is "2.0") while `=` compares them by value.
 *
 * Representation, chosen so that the common case is a bare JS number with no allocation:
 * - a JS number that is an integer (and safe) is an integer;
 * - a JS number that is not an integer, or not finite, is a float;
 * - a `WholeFloat` is a float whose value happens to be whole (2.0, -0.0, 1e20);
 * - a bigint is an integer outside the safe range. Results in the safe range are always narrowed
 *   back to numbers, so a bigint never equals a number of the same value by accident.
 * Host data is JSON: its whole numbers are integers, as JSON cannot tell 2 from 2.0.
 */
import { INSPECT } from "./host-view.js";

export class WholeFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }

  /** For `JSON.stringify`: the number (JSON cannot tell 2.0 from 2). */
  toJSON(): number | null {
    return Number.isFinite(this.value) ? this.value : null;
  }

  /** For `console.log` and `util.inspect`: `2.0`, as the language prints it. */
  [INSPECT](): string {
    const value = this.value;
    if (Object.is(value, -0)) return "-0.0";
    return Math.abs(value) < 1e21 ? value.toFixed(1) : String(value);
  }
}

export type LispNumber = number | bigint | WholeFloat;

export function isNumber(value: unknown): value is LispNumber {
  return typeof value === "number" || value instanceof WholeFloat || typeof value === "bigint";
}

export function isInteger(value: unknown): value is number | bigint {
  return (typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint";
}

export function isFloat(value: unknown): value is number | WholeFloat {
  return (typeof value === "number" && !Number.isInteger(value)) || value instanceof WholeFloat;
}

/** Builds a float from a JS number, boxing it when its value is whole. */
export function makeFloat(value: number): number | WholeFloat {
  return Number.isInteger(value) || Object.is(value, -0) ? new WholeFloat(value) : value;
}

/**
 * The most bits an integer may hold: 2^18, about 78,900 decimal digits (20,000! fits). V8
 * multiplies, divides and prints big integers in more than linear time, and the clock cannot
 * interrupt one operation, so their size is bounded where a single operation still takes a few
 * hundredths of a second: printing an integer of this size is the slowest (20 ms, 60 ms on a
 * loaded machine; four times the size takes ten times as long). runtime/big-integers.ts enforces
 * it; integer literals are far shorter (100 digits at most).
 */
export const MAX_INTEGER_BITS = 2 ** 18;

/** Decimal digits of the largest integer, MAX_INTEGER_BITS × log10(2), rounded down. */
export const MAX_INTEGER_DIGITS = Math.floor(MAX_INTEGER_BITS * Math.log10(2));

/** Builds an integer from a bigint, narrowing it to a number when it is safe. */
export function makeInteger(value: bigint): number | bigint {
  return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
}

/** The JS number nearest to a Lisp number (bigints lose precision). */
export function toDouble(value: LispNumber): number {
  return typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : value.value;
}

/** Integer result of an operation on two safe integers, promoted to bigint when it overflows. */
export function integerResult(result: number, exact: () => bigint): number | bigint {
  return Number.isSafeInteger(result) ? result : makeInteger(exact());
}
