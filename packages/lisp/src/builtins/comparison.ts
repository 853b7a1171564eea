/** Equality, ordering and logic: = not= < > <= >= not identity. */
import { equals } from "../values/equality.js";
import { WholeFloat } from "../values/numbers.js";
import { compareTerms } from "../values/term-order.js";
import { type BuiltinDefinition, builtin } from "./definition.js";

function isNaNValue(value: unknown): boolean {
  return (
    (typeof value === "number" && Number.isNaN(value)) ||
    (value instanceof WholeFloat && Number.isNaN(value.value))
  );
}

/** Ordered comparison that never throws: mixed types use term order, NaN makes it false. */
function ordered(test: (c: number) => boolean) {
  const pair = (a: unknown, b: unknown): boolean => {
    if (typeof a === "number" && typeof b === "number")
      return test(a < b ? -1 : a > b ? 1 : a === b ? 0 : Number.NaN);
    if (isNaNValue(a) || isNaNValue(b)) return false;
    return test(compareTerms(a, b));
  };
  return (...args: unknown[]): boolean => {
    if (args.length === 2) return pair(args[0], args[1]);
    for (let i = 1; i < args.length; i++) if (!pair(args[i - 1], args[i])) return false;
    return true;
  };
}

function equal(...args: unknown[]): boolean {
  if (args.length === 2) return equals(args[0], args[1]);
  for (let i = 1; i < args.length; i++) if (!equals(args[0], args[i])) return false;
  return true;
}

const CATEGORY = "Comparison";

export const comparisonBuiltins: BuiltinDefinition[] = [
  builtin(
    "=",
    [1, Infinity],
    ["[x & more]"],
    "True when all arguments are equal (1 and 1.0 are equal; keywords and strings are not).",
    CATEGORY,
    equal,
    [
      ["(= 1 1.0)", "true"],
      ["(= [1 2] [1 2])", "true"],
      ['(= :a "a")', "false"],
    ],
  ),
  builtin(
    "not=",
    [1, Infinity],
    ["[x & more]"],
    "(not (= ...)).",
    CATEGORY,
    (...args: unknown[]) => !equal(...args),
    [["(not= 1 2)", "true"]],
  ),
  builtin(
    "<",
    [1, Infinity],
    ["[x & more]"],
    "True when the arguments increase; never throws (mixed types use a total order).",
    CATEGORY,
    ordered((c) => c < 0),
    [["(< 1 2 3)", "true"]],
  ),
  builtin(
    ">",
    [1, Infinity],
    ["[x & more]"],
    "True when the arguments decrease.",
    CATEGORY,
    ordered((c) => c > 0),
    [["(> 3 2 1)", "true"]],
  ),
  builtin(
    "<=",
    [1, Infinity],
    ["[x & more]"],
    "True when the arguments never decrease.",
    CATEGORY,
    ordered((c) => c <= 0),
    [["(<= 1 1 2)", "true"]],
  ),
  builtin(
    ">=",
    [1, Infinity],
    ["[x & more]"],
    "True when the arguments never increase.",
    CATEGORY,
    ordered((c) => c >= 0),
    [["(>= 2 2 1)", "true"]],
  ),
  builtin(
    "not",
    [1, 1],
    ["[x]"],
    "true when x is nil or false.",
    CATEGORY,
    (x: unknown) => x === null || x === false || x === undefined,
    [["(not nil)", "true"]],
  ),
  builtin("identity", [1, 1], ["[x]"], "Returns x.", CATEGORY, (x: unknown) => x, [["(identity 42)", "42"]]),
];
