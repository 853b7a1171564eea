/**
 * Whole-string number parsing for parse-long, parse-double and their Java-named aliases: the
 * entire string must be the number (no spaces, no trailing text); anything else, including a
 * value that is not a string, reads as nil (bad data signals, it does not raise).
 */
import { parseDecimalInteger } from "../../runtime/big-integers.js";
import { makeFloat, type WholeFloat } from "../../values/numbers.js";

const INTEGER = /^[+-]?\d+$/;
// Digits, then an optional fraction and an optional exponent, each with at least one digit.
const DECIMAL = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export function parseLong(value: unknown): number | bigint | null {
  if (typeof value !== "string") return null;
  const length = value.length;
  if (length > 0 && length <= 15) {
    // What INTEGER tests, by hand: programs parse a number out of every line of a log, and a
    // regex test per call was a third of the time of `(map parse-long ...)`.
    // The digits are summed as they are checked: at most 15 of them stay below 2^53, so the sum
    // is exact, and it saves converting the string again with Number (a runtime call in V8).
    const first = value.charCodeAt(0);
    let i = first === 43 || first === 45 ? 1 : 0;
    if (i === length) return null;
    let n = 0;
    for (; i < length; i++) {
      const code = value.charCodeAt(i);
      if (code < 48 || code > 57) return null;
      n = n * 10 + (code - 48);
    }
    return first === 45 && n !== 0 ? -n : n; // "-0" is 0
  }
  if (!INTEGER.test(value)) return null;
  return parseDecimalInteger(value);
}

export function parseDouble(value: unknown): number | WholeFloat | null {
  if (typeof value !== "string") return null;
  switch (value) {
    case "Infinity":
    case "+Infinity":
      return Number.POSITIVE_INFINITY;
    case "-Infinity":
      return Number.NEGATIVE_INFINITY;
    case "NaN":
      return Number.NaN;
  }
  if (!DECIMAL.test(value)) return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? makeFloat(parsed) : null;
}

export function parseBoolean(value: unknown): boolean | null {
  return value === "true" ? true : value === "false" ? false : null;
}
