/**
 * Math beyond arithmetic: rounding to integers, conversions between integers and floats, sqrt and
 * pow and bitwise operations. (abs, max, min, quot, rem and mod live in arithmetic.ts; the
 * Double constants are resolved by the analyzer.)
 *
 * Rounding functions return integers, as in the reference (`(floor 2.5)` is 2, not 2.0), and pass
 * ##Inf, ##-Inf and ##NaN through unchanged; only `int` refuses them, since it promises an integer.
 */
import { LispError } from "../errors.js";
import { chargedInteger } from "../runtime/big-integers.js";
import { requireNumber } from "../runtime/numeric.js";
import { isFloat, isInteger, type LispNumber, makeFloat, toDouble, WholeFloat } from "../values/numbers.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import {
  bitAnd,
  bitAndNot,
  bitClear,
  bitFlip,
  bitNot,
  bitOr,
  bitSet,
  bitTest,
  bitXor,
  type Int,
  requireInt,
  requireShift,
  shiftLeft,
  shiftRight,
} from "./support/num-bits.js";

/** A whole JS number as an integer value: -0 becomes 0, values past 2^53 become bigints. */
function wholeToInteger(value: number): number | bigint {
  if (Number.isSafeInteger(value)) return value === 0 ? 0 : value;
  return chargedInteger(BigInt(value));
}

/** Rounds a float with `round`; integers come back as they are, special floats unchanged. */
function rounding(who: string, round: (x: number) => number) {
  return (x: unknown): LispNumber => {
    if (typeof x === "number") {
      if (Number.isInteger(x)) return x;
      if (!Number.isFinite(x)) return x;
      return wholeToInteger(round(x));
    }
    const n = requireNumber(x, who);
    if (typeof n === "bigint") return n;
    return wholeToInteger((n as WholeFloat).value);
  };
}

/** Half away from zero: 2.5 -> 3, -2.5 -> -3 (JS Math.round would give -2). */
function roundHalfAway(x: number): number {
  const whole = Math.trunc(x);
  // x - trunc(x) is exact for doubles, so the comparison with 0.5 is too.
  return Math.abs(x - whole) >= 0.5 ? whole + Math.sign(x) : whole;
}

function toInt(x: unknown): number | bigint {
  if (typeof x === "number" && Number.isInteger(x)) return x;
  const n = requireNumber(x, "int");
  if (typeof n === "bigint") return n;
  const value = toDouble(n);
  if (Number.isNaN(value)) throw new LispError("arithmetic_error", "int: cannot convert NaN to integer");
  if (!Number.isFinite(value)) {
    throw new LispError(
      "arithmetic_error",
      `int: cannot convert ${value > 0 ? "Infinity" : "-Infinity"} to integer`,
    );
  }
  return wholeToInteger(Math.trunc(value));
}

function toFloat(who: string) {
  return (x: unknown): LispNumber => {
    if (typeof x === "number") return Number.isInteger(x) ? new WholeFloat(x) : x;
    const n = requireNumber(x, who);
    return isFloat(n) ? n : makeFloat(Number(n));
  };
}

function sqrt(x: unknown): LispNumber {
  const value = toDouble(requireNumber(x, "sqrt"));
  return makeFloat(value < 0 ? Number.NaN : Math.sqrt(value));
}

/**
 * x to the power y, always a float. Follows IEEE pow (Clojure's Math/pow), plus the reference's
 * exact answers: an integer exponent 0 or an integer base 1 give 1.0 whatever the other side is.
 */
function pow(x: unknown, y: unknown): LispNumber {
  const base = requireNumber(x, "pow");
  const exponent = requireNumber(y, "pow");
  if (exponent === 0 || base === 1) return new WholeFloat(1);
  const b = toDouble(base);
  const e = toDouble(exponent);
  if (Number.isNaN(b) || Number.isNaN(e)) return Number.NaN;
  if (b === Number.NEGATIVE_INFINITY) {
    if (e < 0) return new WholeFloat(0);
    return isInteger(exponent) && e % 2 !== 0 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!Number.isFinite(e) && Math.abs(b) === 1) return new WholeFloat(1);
  return makeFloat(b ** e);
}

/** bit-and / bit-or / bit-xor: folds one or more integers. */
function foldBits(who: string, op: (a: Int, b: Int) => Int) {
  return (...args: unknown[]): Int => {
    let total = requireInt(args[0], who);
    for (let i = 1; i < args.length; i++) total = op(total, requireInt(args[i], who));
    return total;
  };
}

function withShift(who: string, op: (x: Int, n: Int) => unknown) {
  return (x: unknown, n: unknown): unknown => op(requireInt(x, who), requireShift(n, who));
}

const CATEGORY = "Math";

export const mathBuiltins: BuiltinDefinition[] = [
  builtin(
    "floor",
    [1, 1],
    ["[x]"],
    "Largest integer <= x (an integer, not a float).",
    CATEGORY,
    rounding("floor", Math.floor),
    [
      ["(floor 3.7)", "3"],
      ["(floor -3.2)", "-4"],
    ],
  ),
  builtin(
    "ceil",
    [1, 1],
    ["[x]"],
    "Smallest integer >= x (an integer, not a float).",
    CATEGORY,
    rounding("ceil", Math.ceil),
    [["(ceil 3.2)", "4"]],
  ),
  builtin(
    "round",
    [1, 1],
    ["[x]"],
    "Nearest integer; halves round away from zero.",
    CATEGORY,
    rounding("round", roundHalfAway),
    [
      ["(round 2.5)", "3"],
      ["(round -2.5)", "-3"],
    ],
  ),
  builtin(
    "trunc",
    [1, 1],
    ["[x]"],
    "x without its fractional part, as an integer (rounds toward zero).",
    CATEGORY,
    rounding("trunc", Math.trunc),
    [["(trunc -3.7)", "-3"]],
  ),
  builtin(
    "int",
    [1, 1],
    ["[x]"],
    "x as an integer, truncating toward zero. ##Inf and ##NaN are errors.",
    CATEGORY,
    toInt,
    [
      ["(int 3.9)", "3"],
      ["(int -3.9)", "-3"],
    ],
  ),
  builtin("float", [1, 1], ["[x]"], "x as a float.", CATEGORY, toFloat("float"), [["(float 5)", "5.0"]]),
  builtin("double", [1, 1], ["[x]"], "x as a float (same as float).", CATEGORY, toFloat("double"), [
    ["(double 1)", "1.0"],
  ]),
  builtin("sqrt", [1, 1], ["[x]"], "Square root, as a float; ##NaN for negative x.", CATEGORY, sqrt, [
    ["(sqrt 16)", "4.0"],
    ["(sqrt -1)", "##NaN"],
  ]),
  builtin("pow", [2, 2], ["[x y]"], "x raised to the power y, as a float.", CATEGORY, pow, [
    ["(pow 2 10)", "1024.0"],
    ["(pow 4 0.5)", "2.0"],
  ]),
  builtin(
    "bit-and",
    [1, Infinity],
    ["[x & more]"],
    "Bitwise AND of the integers.",
    CATEGORY,
    foldBits("bit-and", bitAnd),
    [["(bit-and 12 10)", "8"]],
  ),
  builtin(
    "bit-or",
    [1, Infinity],
    ["[x & more]"],
    "Bitwise OR of the integers.",
    CATEGORY,
    foldBits("bit-or", bitOr),
    [["(bit-or 12 10)", "14"]],
  ),
  builtin(
    "bit-xor",
    [1, Infinity],
    ["[x & more]"],
    "Bitwise exclusive OR of the integers.",
    CATEGORY,
    foldBits("bit-xor", bitXor),
    [["(bit-xor 12 10)", "6"]],
  ),
  builtin(
    "bit-and-not",
    [1, Infinity],
    ["[x & more]"],
    "x with every bit that is set in the others cleared.",
    CATEGORY,
    foldBits("bit-and-not", bitAndNot),
    [["(bit-and-not 15 9)", "6"]],
  ),
  builtin(
    "bit-not",
    [1, 1],
    ["[x]"],
    "Bitwise complement (-x - 1).",
    CATEGORY,
    (x: unknown) => bitNot(requireInt(x, "bit-not")),
    [["(bit-not 5)", "-6"]],
  ),
  builtin(
    "bit-shift-left",
    [2, 2],
    ["[x n]"],
    "x shifted left by n bits; integers never overflow.",
    CATEGORY,
    withShift("bit-shift-left", shiftLeft),
    [
      ["(bit-shift-left 1 4)", "16"],
      ["(bit-shift-left 1 64)", "18446744073709551616"],
    ],
  ),
  builtin(
    "bit-shift-right",
    [2, 2],
    ["[x n]"],
    "x shifted right by n bits, keeping the sign.",
    CATEGORY,
    withShift("bit-shift-right", shiftRight),
    [["(bit-shift-right -16 2)", "-4"]],
  ),
  builtin("bit-set", [2, 2], ["[x n]"], "x with bit n set.", CATEGORY, withShift("bit-set", bitSet), [
    ["(bit-set 0 3)", "8"],
  ]),
  builtin(
    "bit-clear",
    [2, 2],
    ["[x n]"],
    "x with bit n cleared.",
    CATEGORY,
    withShift("bit-clear", bitClear),
    [["(bit-clear 15 1)", "13"]],
  ),
  builtin("bit-flip", [2, 2], ["[x n]"], "x with bit n flipped.", CATEGORY, withShift("bit-flip", bitFlip), [
    ["(bit-flip 0 2)", "4"],
  ]),
  builtin(
    "bit-test",
    [2, 2],
    ["[x n]"],
    "True when bit n of x is set.",
    CATEGORY,
    withShift("bit-test", bitTest),
    [
      ["(bit-test 5 0)", "true"],
      ["(bit-test 5 1)", "false"],
    ],
  ),
];
