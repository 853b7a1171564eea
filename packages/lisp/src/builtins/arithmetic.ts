/** Arithmetic: + - * / inc dec quot rem mod, their primed aliases, abs, max, min, ==, compare. */

import { chargedInteger } from "../runtime/big-integers.js";
import { active } from "../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import {
  add,
  compareNumbers,
  divide,
  mod,
  multiply,
  negate,
  quot,
  rem,
  requireNumber,
  subtract,
} from "../runtime/numeric.js";
import { isNumber, type LispNumber, makeFloat, WholeFloat } from "../values/numbers.js";
import { compareTerms } from "../values/term-order.js";
import { type BuiltinDefinition, builtin } from "./definition.js";

// With one argument, + and * return it as it is, as the reference does: `(filter + [0 nil 2])`
// keeps the numbers and drops the nils instead of failing.
function plus(...args: unknown[]): unknown {
  if (args.length === 2) return add(args[0], args[1]);
  if (args.length === 1) return args[0];
  return sumFrom(0, args, 0);
}

/** The fold of `+` over items[from..], starting from `total`, reading the clock as it goes. */
function sumFrom(total: unknown, items: readonly unknown[], from: number): unknown {
  for (let i = from; i < items.length; i++) {
    total = add(total, items[i]);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return total;
}

/**
 * `(apply + items)`: what `plus(...items)` returns, without an argument array or a call to add
 * per item. Plain numbers are summed in one double, which is exactly what add's steps compute:
 * an integer sum stays exact while it is safe, and once an item is a float every later step is a
 * float addition of the same doubles (the result is a float, boxed if whole). An item that is not a
 * plain number, or an integer sum leaving the safe range, hands the fold to add from there.
 */
export function sumOf(items: readonly unknown[]): unknown {
  const n = items.length;
  if (n < 3) return n === 0 ? 0 : n === 1 ? items[0] : add(items[0], items[1]);
  let sum = 0;
  let float = false;
  for (let i = 0; i < n; i++) {
    const item = items[i];
    if (typeof item !== "number") return sumFrom(float ? makeFloat(sum) : sum, items, i);
    const next = sum + item;
    if (!Number.isInteger(item)) float = true;
    else if (!float && !(Math.abs(next) <= Number.MAX_SAFE_INTEGER)) return sumFrom(sum, items, i);
    sum = next;
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return float ? makeFloat(sum) : sum;
}

function minus(...args: unknown[]): unknown {
  if (args.length === 2) return subtract(args[0], args[1]);
  if (args.length === 1) return negate(requireNumber(args[0], "-"));
  let total = args[0];
  for (let i = 1; i < args.length; i++) total = subtract(total, args[i]);
  return total;
}

function times(...args: unknown[]): unknown {
  if (args.length === 2) return multiply(args[0], args[1]);
  if (args.length === 1) return args[0];
  let total: unknown = 1;
  for (let i = 0; i < args.length; i++) {
    total = multiply(total, args[i]);
    // (apply * (range 1 50000)) grows a big integer with every step: read the clock as it does.
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return total;
}

function slash(...args: unknown[]): unknown {
  if (args.length === 1) return divide(1, args[0]);
  let total = args[0];
  for (let i = 1; i < args.length; i++) total = divide(total, args[i]);
  return total;
}

/**
 * The two-argument operation of `+`, `-` and `*` (what each does when called with exactly two
 * arguments), for builtins that call a function given to them with two arguments per item
 * (reduce, merge-with): a direct call, without the variadic entry's argument array.
 */
export function twoArgumentForm(fn: unknown): ((a: unknown, b: unknown) => unknown) | undefined {
  // Three identity tests: cheaper than any lookup, and this is asked once per row.
  if (fn === plus) return add;
  if (fn === times) return multiply;
  if (fn === minus) return subtract;
  return undefined;
}

function inc(value: unknown): unknown {
  if (typeof value === "number" && Number.isSafeInteger(value) && value < Number.MAX_SAFE_INTEGER)
    return value + 1;
  return add(requireNumber(value, "inc"), 1);
}

function dec(value: unknown): unknown {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > Number.MIN_SAFE_INTEGER)
    return value - 1;
  return subtract(requireNumber(value, "dec"), 1);
}

function abs(value: unknown): unknown {
  const n = requireNumber(value, "abs");
  if (typeof n === "bigint") return chargedInteger(n < 0n ? -n : n);
  if (n instanceof WholeFloat) return new WholeFloat(Math.abs(n.value));
  return Math.abs(n);
}

/** `max` or `min` over an array of at least one item: `(apply max xs)` calls it without a spread. */
function extremeOf(who: string, pick: (c: number) => boolean, greatest: boolean) {
  return (items: readonly unknown[]): unknown => {
    let best = requireNumber(items[0], who);
    for (let i = 1; i < items.length; i++) {
      const next = items[i];
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
      // Two plain numbers (the usual case, (apply max amounts)): compared in place.
      if (typeof next === "number" && typeof best === "number") {
        if (Number.isNaN(next) || Number.isNaN(best)) return Number.NaN;
        if (greatest ? next > best : next < best) best = next;
        continue;
      }
      const candidate = requireNumber(next, who);
      const c = compareNumbers(candidate, best);
      if (Number.isNaN(c)) return Number.NaN;
      if (pick(c)) best = candidate;
    }
    return best;
  };
}

const maxOf = extremeOf("max", (c) => c > 0, true);
const minOf = extremeOf("min", (c) => c < 0, false);
const max = (...args: unknown[]): unknown => maxOf(args);
const min = (...args: unknown[]): unknown => minOf(args);

/**
 * What `(apply fn items)` returns for `+`, `max` and `min` over an array, computed over the array
 * itself (no spread into arguments, however many items); undefined for any other function, or
 * for max/min of no items (an arity error, left to apply).
 */
export function overItems(
  fn: unknown,
  items: readonly unknown[],
): ((items: readonly unknown[]) => unknown) | undefined {
  if (fn === plus) return sumOf;
  if (items.length === 0) return undefined;
  if (fn === max) return maxOf;
  if (fn === min) return minOf;
  return undefined;
}

function numericEquals(...args: unknown[]): boolean {
  for (let i = 0; i < args.length; i++) requireNumber(args[i], "==");
  for (let i = 1; i < args.length; i++) {
    if (compareNumbers(args[i - 1] as LispNumber, args[i] as LispNumber) !== 0) return false;
  }
  return true;
}

function compare(a: unknown, b: unknown): number {
  if (isNumber(a) && isNumber(b)) {
    const c = compareNumbers(a, b);
    return Number.isNaN(c) ? 0 : c;
  }
  return compareTerms(a, b);
}

const CATEGORY = "Arithmetic";

export const arithmeticBuiltins: BuiltinDefinition[] = [
  builtin(
    "+",
    [0, Infinity],
    ["[]", "[x]", "[x y & more]"],
    "Sum of the numbers; (+) is 0.",
    CATEGORY,
    plus,
    [
      ["(+ 1 2 3)", "6"],
      ["(+ 1 2.5)", "3.5"],
    ],
  ),
  builtin(
    "-",
    [1, Infinity],
    ["[x]", "[x y & more]"],
    "Subtracts the rest from the first; with one argument, negates it.",
    CATEGORY,
    minus,
    [
      ["(- 10 3 2)", "5"],
      ["(- 5)", "-5"],
    ],
  ),
  builtin(
    "*",
    [0, Infinity],
    ["[]", "[x]", "[x y & more]"],
    "Product of the numbers; (*) is 1.",
    CATEGORY,
    times,
    [["(* 2 3 4)", "24"]],
  ),
  builtin(
    "/",
    [1, Infinity],
    ["[x]", "[x y & more]"],
    "Divides the first by the rest; always a float. Dividing by integer 0 is an error.",
    CATEGORY,
    slash,
    [
      ["(/ 10 4)", "2.5"],
      ["(/ 10 2)", "5.0"],
    ],
  ),
  builtin("inc", [1, 1], ["[x]"], "x plus one.", CATEGORY, inc, [["(inc 41)", "42"]]),
  builtin("dec", [1, 1], ["[x]"], "x minus one.", CATEGORY, dec, [["(dec 43)", "42"]]),
  builtin(
    "+'",
    [0, Infinity],
    ["[]", "[x]", "[x y & more]"],
    "Same as + (integers never overflow).",
    CATEGORY,
    (...args: unknown[]) => plus(...args),
    [["(+' 9007199254740991 1)", "9007199254740992"]],
  ),
  builtin(
    "-'",
    [1, Infinity],
    ["[x]", "[x y & more]"],
    "Same as -.",
    CATEGORY,
    (...args: unknown[]) => minus(...args),
    [["(-' 1 2)", "-1"]],
  ),
  builtin(
    "*'",
    [0, Infinity],
    ["[]", "[x]", "[x y & more]"],
    "Same as *.",
    CATEGORY,
    (...args: unknown[]) => times(...args),
    [["(*' 4294967296 4294967296)", "18446744073709551616"]],
  ),
  builtin("inc'", [1, 1], ["[x]"], "Same as inc.", CATEGORY, (x: unknown) => inc(x), [["(inc' 1)", "2"]]),
  builtin("dec'", [1, 1], ["[x]"], "Same as dec.", CATEGORY, (x: unknown) => dec(x), [["(dec' 1)", "0"]]),
  builtin("quot", [2, 2], ["[num div]"], "Integer quotient, truncated toward zero.", CATEGORY, quot, [
    ["(quot 7 2)", "3"],
    ["(quot -7 2)", "-3"],
  ]),
  builtin("rem", [2, 2], ["[num div]"], "Remainder of truncated division (sign of num).", CATEGORY, rem, [
    ["(rem -7 2)", "-1"],
  ]),
  builtin("mod", [2, 2], ["[num div]"], "Modulus of floored division (sign of div).", CATEGORY, mod, [
    ["(mod -7 2)", "1"],
  ]),
  builtin("abs", [1, 1], ["[x]"], "Absolute value.", "Math", abs, [["(abs -5)", "5"]]),
  builtin("max", [1, Infinity], ["[x & more]"], "Greatest of the numbers.", "Math", max, [
    ["(max 1 5 3)", "5"],
  ]),
  builtin("min", [1, Infinity], ["[x & more]"], "Least of the numbers.", "Math", min, [["(min 1 5 3)", "1"]]),
  builtin(
    "==",
    [1, Infinity],
    ["[x & more]"],
    "True when all numbers are numerically equal.",
    CATEGORY,
    numericEquals,
    [["(== 1 1.0)", "true"]],
  ),
  builtin(
    "compare",
    [2, 2],
    ["[x y]"],
    "-1, 0 or 1 as x is less than, equal to or greater than y.",
    CATEGORY,
    compare,
    [["(compare 1 2)", "-1"]],
  ),
];
