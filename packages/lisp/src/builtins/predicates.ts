/**
 * Type and value predicates, `type` and `boolean`. Every predicate answers for any value and never
 * raises: asking "is this a number?" of a string is a question, not a mistake. Several answers are
 * fixed by design, because the language has no such values: no symbols, ratios, decimals, sorted
 * collection type (sorted-map and sorted-set return ordinary maps and sets, which are all kept in
 * order) or map-entry type (`symbol?`, `ratio?`, `decimal?`, `sorted?`, `map-entry?` are always
 * false), and no list type (`seq?` and `sequential?` mean "is a vector").
 *
 * Number predicates follow the numeric tower of values/numbers.ts: a WholeFloat (2.0) is a float,
 * a bigint is an integer, ##Inf and ##NaN are floats.
 */
import { graphemeCount } from "../runtime/graphemes.js";
import { CustomValue } from "../values/custom-value.js";
import { Keyword } from "../values/keyword.js";
import { isLispFunction } from "../values/lisp-function.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { WholeFloat } from "../values/numbers.js";
import { isPlainObject } from "../values/plain-object.js";
import { type BuiltinDefinition, builtin } from "./definition.js";

const isNil = (x: unknown): boolean => x === null || x === undefined;
const isVector = (x: unknown): boolean => Array.isArray(x);
const isMapValue = (x: unknown): boolean => x instanceof LispMap || isPlainObject(x);

function isInteger(x: unknown): boolean {
  return (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint";
}

function isFloat(x: unknown): boolean {
  return (typeof x === "number" && !Number.isInteger(x)) || x instanceof WholeFloat;
}

function isNumber(x: unknown): boolean {
  return typeof x === "number" || typeof x === "bigint" || x instanceof WholeFloat;
}

/** The sign of a number (-1, 0, 1; NaN for NaN), or undefined for anything else. */
function sign(x: unknown): number | undefined {
  if (typeof x === "number") return Math.sign(x);
  if (typeof x === "bigint") return x < 0n ? -1 : x > 0n ? 1 : 0;
  if (x instanceof WholeFloat) return Math.sign(x.value);
  return undefined;
}

/** Whether a number is whole and even; undefined when it is not a whole number at all. */
function evenness(x: unknown): boolean | undefined {
  if (typeof x === "number") return Number.isInteger(x) ? x % 2 === 0 : undefined;
  if (typeof x === "bigint") return x % 2n === 0n;
  if (x instanceof WholeFloat) return Number.isFinite(x.value) ? x.value % 2 === 0 : undefined;
  return undefined;
}

function isChar(x: unknown): boolean {
  if (typeof x !== "string") return false;
  if (x.length === 1) return true;
  return x.length > 1 && graphemeCount(x) === 1;
}

const KEYWORD_OF: Record<string, Keyword> = {};
function typeKeyword(name: string): Keyword {
  let keyword = KEYWORD_OF[name];
  if (keyword === undefined) {
    keyword = Keyword.of(name);
    KEYWORD_OF[name] = keyword;
  }
  return keyword;
}

function typeOf(x: unknown): Keyword | null {
  if (isNil(x)) return null;
  switch (typeof x) {
    case "boolean":
      return typeKeyword("boolean");
    case "number":
    case "bigint":
      return typeKeyword("number");
    case "string":
      return typeKeyword("string");
    case "function":
      return typeKeyword("function");
  }
  if (Array.isArray(x)) return typeKeyword("vector");
  if (x instanceof Keyword) return typeKeyword("keyword");
  if (x instanceof WholeFloat) return typeKeyword("number");
  if (isMapValue(x)) return typeKeyword("map");
  if (x instanceof LispSet) return typeKeyword("set");
  if (x instanceof CustomValue) return typeKeyword(x.typeName);
  return typeKeyword("unknown");
}

const never = (_x: unknown): boolean => false;

const CATEGORY = "Predicates";

export const predicatesBuiltins: BuiltinDefinition[] = [
  builtin("nil?", [1, 1], ["[x]"], "True when x is nil.", CATEGORY, isNil, [
    ["(nil? nil)", "true"],
    ["(nil? false)", "false"],
  ]),
  builtin(
    "some?",
    [1, 1],
    ["[x]"],
    "True when x is not nil (false counts as some).",
    CATEGORY,
    (x: unknown) => !isNil(x),
    [["(some? false)", "true"]],
  ),
  builtin(
    "boolean?",
    [1, 1],
    ["[x]"],
    "True when x is true or false.",
    CATEGORY,
    (x: unknown) => typeof x === "boolean",
    [["(boolean? false)", "true"]],
  ),
  builtin(
    "number?",
    [1, 1],
    ["[x]"],
    "True for any number: integer, float, ##Inf or ##NaN.",
    CATEGORY,
    isNumber,
    [
      ["(number? 1.5)", "true"],
      ['(number? "1")', "false"],
    ],
  ),
  builtin(
    "int?",
    [1, 1],
    ["[x]"],
    "True when x is an integer (not a float, even a whole one).",
    CATEGORY,
    isInteger,
    [
      ["(int? 42)", "true"],
      ["(int? 42.0)", "false"],
    ],
  ),
  builtin("integer?", [1, 1], ["[x]"], "True when x is an integer.", CATEGORY, isInteger, [
    ["(integer? -5)", "true"],
  ]),
  builtin(
    "float?",
    [1, 1],
    ["[x]"],
    "True when x is a float (2.0 is a float, 2 is not).",
    CATEGORY,
    isFloat,
    [
      ["(float? 2.0)", "true"],
      ["(float? 2)", "false"],
    ],
  ),
  builtin("double?", [1, 1], ["[x]"], "Same as float?: every float is a double.", CATEGORY, isFloat, [
    ["(double? 0.5)", "true"],
  ]),
  builtin(
    "string?",
    [1, 1],
    ["[x]"],
    "True when x is a string (characters are strings too).",
    CATEGORY,
    (x: unknown) => typeof x === "string",
    [['(string? "a")', "true"]],
  ),
  builtin(
    "char?",
    [1, 1],
    ["[x]"],
    "True when x is a string of exactly one character (grapheme): there is no separate char type.",
    CATEGORY,
    isChar,
    [
      ['(char? "a")', "true"],
      ['(char? "ab")', "false"],
    ],
  ),
  builtin(
    "keyword?",
    [1, 1],
    ["[x]"],
    "True when x is a keyword.",
    CATEGORY,
    (x: unknown) => x instanceof Keyword,
    [
      ["(keyword? :a)", "true"],
      ['(keyword? "a")', "false"],
    ],
  ),
  builtin(
    "vector?",
    [1, 1],
    ["[x]"],
    "True when x is a vector (lists are vectors too).",
    CATEGORY,
    isVector,
    [["(vector? [1 2])", "true"]],
  ),
  builtin("map?", [1, 1], ["[x]"], "True when x is a map.", CATEGORY, isMapValue, [
    ["(map? {:a 1})", "true"],
    ["(map? [1])", "false"],
  ]),
  builtin("set?", [1, 1], ["[x]"], "True when x is a set.", CATEGORY, (x: unknown) => x instanceof LispSet, [
    ["(set? #{1})", "true"],
  ]),
  builtin(
    "fn?",
    [1, 1],
    ["[x]"],
    "True when x is a function (a builtin or a closure; keywords, maps and sets are not).",
    CATEGORY,
    isLispFunction,
    [
      ["(fn? inc)", "true"],
      ["(fn? :a)", "false"],
    ],
  ),
  builtin(
    "ifn?",
    [1, 1],
    ["[x]"],
    "True when x can be called: functions, keywords, maps and sets.",
    CATEGORY,
    (x: unknown) => isLispFunction(x) || x instanceof Keyword || x instanceof LispSet || isMapValue(x),
    [
      ["(ifn? :a)", "true"],
      ["(ifn? [1])", "false"],
    ],
  ),
  builtin(
    "coll?",
    [1, 1],
    ["[x]"],
    "True for collections: vectors, maps and sets (not strings).",
    CATEGORY,
    (x: unknown) => Array.isArray(x) || x instanceof LispSet || isMapValue(x),
    [
      ["(coll? #{1})", "true"],
      ['(coll? "ab")', "false"],
    ],
  ),
  builtin(
    "seq?",
    [1, 1],
    ["[x]"],
    "True when x is a vector (there are no lazy sequences).",
    CATEGORY,
    isVector,
    [["(seq? [1 2])", "true"]],
  ),
  builtin(
    "seqable?",
    [1, 1],
    ["[x]"],
    "True when (seq x) works: nil, vectors, maps, sets and strings.",
    CATEGORY,
    (x: unknown) =>
      isNil(x) || typeof x === "string" || Array.isArray(x) || x instanceof LispSet || isMapValue(x),
    [
      ["(seqable? nil)", "true"],
      ["(seqable? 42)", "false"],
    ],
  ),
  builtin(
    "sequential?",
    [1, 1],
    ["[x]"],
    "True for ordered collections, which means vectors.",
    CATEGORY,
    isVector,
    [["(sequential? #{1})", "false"]],
  ),
  builtin(
    "associative?",
    [1, 1],
    ["[x]"],
    "True for collections assoc works on: maps and vectors.",
    CATEGORY,
    (x: unknown) => Array.isArray(x) || isMapValue(x),
    [["(associative? [1])", "true"]],
  ),
  builtin(
    "counted?",
    [1, 1],
    ["[x]"],
    "True when count works on x: vectors, maps, sets and strings.",
    CATEGORY,
    (x: unknown) => typeof x === "string" || Array.isArray(x) || x instanceof LispSet || isMapValue(x),
    [['(counted? "abc")', "true"]],
  ),
  builtin(
    "indexed?",
    [1, 1],
    ["[x]"],
    "True when nth works by position: vectors and strings.",
    CATEGORY,
    (x: unknown) => typeof x === "string" || Array.isArray(x),
    [["(indexed? {:a 1})", "false"]],
  ),
  builtin(
    "reversible?",
    [1, 1],
    ["[x]"],
    "True when reverse keeps a meaningful order: vectors and strings.",
    CATEGORY,
    (x: unknown) => typeof x === "string" || Array.isArray(x),
    [["(reversible? [1 2])", "true"]],
  ),
  builtin(
    "sorted?",
    [1, 1],
    ["[x]"],
    "Always false: no value has a sorted type; sorted-map and sorted-set return ordinary maps and sets, all kept in key order.",
    CATEGORY,
    never,
    [
      ["(sorted? [1 2])", "false"],
      ["(sorted? (sorted-set 1 2))", "false"],
    ],
  ),
  builtin(
    "map-entry?",
    [1, 1],
    ["[x]"],
    "Always false: map entries are plain [key value] vectors.",
    CATEGORY,
    never,
    [["(map-entry? [:a 1])", "false"]],
  ),
  builtin(
    "symbol?",
    [1, 1],
    ["[x]"],
    "Always false: programs use keywords, not symbols, as data.",
    CATEGORY,
    never,
    [["(symbol? :a)", "false"]],
  ),
  builtin("decimal?", [1, 1], ["[x]"], "Always false: there are no BigDecimals.", CATEGORY, never, [
    ["(decimal? 1.5)", "false"],
  ]),
  builtin(
    "ratio?",
    [1, 1],
    ["[x]"],
    "Always false: there are no ratios (/ always gives a float).",
    CATEGORY,
    never,
    [["(ratio? 0.5)", "false"]],
  ),
  builtin(
    "rational?",
    [1, 1],
    ["[x]"],
    "True for integers (the only rationals there are).",
    CATEGORY,
    isInteger,
    [
      ["(rational? 3)", "true"],
      ["(rational? 0.5)", "false"],
    ],
  ),
  builtin("true?", [1, 1], ["[x]"], "True only for the value true.", CATEGORY, (x: unknown) => x === true, [
    ["(true? 1)", "false"],
  ]),
  builtin(
    "false?",
    [1, 1],
    ["[x]"],
    "True only for the value false.",
    CATEGORY,
    (x: unknown) => x === false,
    [["(false? nil)", "false"]],
  ),
  builtin(
    "zero?",
    [1, 1],
    ["[x]"],
    "True when x is a number equal to zero (0 or 0.0); false for anything else.",
    CATEGORY,
    (x: unknown) => sign(x) === 0,
    [
      ["(zero? 0.0)", "true"],
      ["(zero? nil)", "false"],
    ],
  ),
  builtin(
    "pos?",
    [1, 1],
    ["[x]"],
    "True when x is a number greater than zero; false for anything else.",
    CATEGORY,
    (x: unknown) => sign(x) === 1,
    [["(pos? 3)", "true"]],
  ),
  builtin(
    "neg?",
    [1, 1],
    ["[x]"],
    "True when x is a number less than zero; false for anything else.",
    CATEGORY,
    (x: unknown) => sign(x) === -1,
    [["(neg? -0.5)", "true"]],
  ),
  builtin(
    "even?",
    [1, 1],
    ["[x]"],
    "True when x is an even whole number (4 or 4.0); false otherwise.",
    CATEGORY,
    (x: unknown) => evenness(x) === true,
    [
      ["(even? 4)", "true"],
      ["(even? 4.0)", "true"],
      ["(even? 4.5)", "false"],
    ],
  ),
  builtin(
    "odd?",
    [1, 1],
    ["[x]"],
    "True when x is an odd whole number (3 or 3.0); false otherwise.",
    CATEGORY,
    (x: unknown) => evenness(x) === false,
    [["(odd? 3)", "true"]],
  ),
  builtin(
    "nat-int?",
    [1, 1],
    ["[x]"],
    "True when x is an integer >= 0.",
    CATEGORY,
    (x: unknown) => isInteger(x) && (sign(x) as number) >= 0,
    [["(nat-int? 0)", "true"]],
  ),
  builtin(
    "neg-int?",
    [1, 1],
    ["[x]"],
    "True when x is an integer < 0.",
    CATEGORY,
    (x: unknown) => isInteger(x) && sign(x) === -1,
    [["(neg-int? -1)", "true"]],
  ),
  builtin(
    "pos-int?",
    [1, 1],
    ["[x]"],
    "True when x is an integer > 0.",
    CATEGORY,
    (x: unknown) => isInteger(x) && sign(x) === 1,
    [["(pos-int? 0)", "false"]],
  ),
  builtin(
    "infinite?",
    [1, 1],
    ["[x]"],
    "True when x is ##Inf or ##-Inf.",
    CATEGORY,
    (x: unknown) =>
      (typeof x === "number" || x instanceof WholeFloat) &&
      Math.abs(typeof x === "number" ? x : x.value) === Number.POSITIVE_INFINITY,
    [
      ["(infinite? ##-Inf)", "true"],
      ["(infinite? 1e300)", "false"],
    ],
  ),
  builtin(
    "NaN?",
    [1, 1],
    ["[x]"],
    "True when x is ##NaN (false for anything else, including non-numbers).",
    CATEGORY,
    (x: unknown) => typeof x === "number" && Number.isNaN(x),
    [
      ["(NaN? ##NaN)", "true"],
      ["(NaN? nil)", "false"],
    ],
  ),
  builtin(
    "type",
    [1, 1],
    ["[x]"],
    "The type of x as a keyword (:number :string :keyword :vector :map :set :function :boolean :regex); nil for nil.",
    CATEGORY,
    typeOf,
    [
      ["(type 1.5)", ":number"],
      ["(type [1])", ":vector"],
      ["(type nil)", "nil"],
    ],
  ),
  builtin(
    "boolean",
    [1, 1],
    ["[x]"],
    'false for nil and false, true for everything else (0, "" and [] are true).',
    CATEGORY,
    (x: unknown) => !(isNil(x) || x === false),
    [
      ["(boolean nil)", "false"],
      ["(boolean 0)", "true"],
    ],
  ),
];
