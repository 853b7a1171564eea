/**
 * Sequence access: reading one item (first, second, last, nth) or all but one end (rest, next,
 * butlast), and their compositions (ffirst, fnext, nfirst, nnext). Positional, so sets and maps
 * are refused with advice; see sequences.ts for the rules all sequence builtins share.
 */
import { typeError } from "../errors.js";
import { typeName } from "../runtime/describe.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import {
  graphemeAt,
  integerArg,
  lastGrapheme,
  orderedItems,
  unorderedOrNotCollection,
} from "./support/seq-common.js";
import { isCollection, nil, slice } from "./support/seq-items.js";

function first(coll: unknown): unknown {
  if (Array.isArray(coll)) return coll.length === 0 ? null : nil(coll[0]);
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return graphemeAt(coll, 0);
  throw unorderedOrNotCollection("first", coll);
}

function second(coll: unknown): unknown {
  if (Array.isArray(coll)) return coll.length < 2 ? null : nil(coll[1]);
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return graphemeAt(coll, 1);
  throw unorderedOrNotCollection("second", coll);
}

function last(coll: unknown): unknown {
  if (Array.isArray(coll)) return coll.length === 0 ? null : nil(coll[coll.length - 1]);
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return lastGrapheme(coll);
  throw unorderedOrNotCollection("last", coll);
}

function nth(coll: unknown, index: unknown, notFound: unknown = null): unknown {
  if (typeof index !== "number" || !Number.isInteger(index)) {
    if (isCollection(index) && !isCollection(coll)) {
      throw typeError(
        `nth expects the collection first: (nth coll index), got (nth ${typeName(coll)} ${typeName(index)})`,
      );
    }
    if (typeof index !== "bigint") integerArg(index, "nth", "index", "(nth coll index)");
    // A bigint index is out of range of any collection.
    if (Array.isArray(coll) || typeof coll === "string" || coll === null || coll === undefined)
      return notFound;
    throw unorderedOrNotCollection("nth", coll);
  }
  if (Array.isArray(coll)) return index >= 0 && index < coll.length ? nil(coll[index]) : notFound;
  if (coll === null || coll === undefined) return notFound;
  if (typeof coll === "string") {
    const found = graphemeAt(coll, index);
    return found === null ? notFound : found;
  }
  throw unorderedOrNotCollection("nth", coll);
}

function rest(coll: unknown): unknown[] {
  const items = orderedItems(coll, "rest");
  return slice(items, 1, items.length);
}

function next(coll: unknown): unknown[] | null {
  const items = orderedItems(coll, "next");
  return items.length <= 1 ? null : slice(items, 1, items.length);
}

function butlast(coll: unknown): unknown[] {
  const items = orderedItems(coll, "butlast");
  return slice(items, 0, Math.max(0, items.length - 1));
}

const CATEGORY = "Sequences";

export const sequenceAccessBuiltins: BuiltinDefinition[] = [
  builtin(
    "first",
    [1, 1],
    ["[coll]"],
    "The first item of a vector or string, or nil when empty.",
    CATEGORY,
    first,
    [
      ["(first [1 2 3])", "1"],
      ["(first [])", "nil"],
      ['(first "hello")', '"h"'],
    ],
  ),
  builtin("second", [1, 1], ["[coll]"], "The second item, or nil.", CATEGORY, second, [
    ["(second [1 2 3])", "2"],
  ]),
  builtin("last", [1, 1], ["[coll]"], "The last item, or nil when empty.", CATEGORY, last, [
    ["(last [1 2 3])", "3"],
  ]),
  builtin(
    "nth",
    [2, 3],
    ["[coll index]", "[coll index not-found]"],
    "The item at a zero-based index; nil (or not-found) when out of range.",
    CATEGORY,
    nth,
    [
      ["(nth [10 20 30] 1)", "20"],
      ["(nth [10 20 30] 5)", "nil"],
      ["(nth [10 20 30] 5 :none)", ":none"],
    ],
  ),
  builtin(
    "rest",
    [1, 1],
    ["[coll]"],
    "All items but the first (an empty vector when there are none).",
    CATEGORY,
    rest,
    [
      ["(rest [1 2 3])", "[2 3]"],
      ["(rest [])", "[]"],
    ],
  ),
  builtin(
    "next",
    [1, 1],
    ["[coll]"],
    "All items but the first, or nil when there are none.",
    CATEGORY,
    next,
    [
      ["(next [1 2 3])", "[2 3]"],
      ["(next [1])", "nil"],
    ],
  ),
  builtin("butlast", [1, 1], ["[coll]"], "All items but the last.", CATEGORY, butlast, [
    ["(butlast [1 2 3])", "[1 2]"],
  ]),
  builtin(
    "ffirst",
    [1, 1],
    ["[coll]"],
    "(first (first coll)).",
    CATEGORY,
    (coll: unknown) => first(first(coll)),
    [["(ffirst [[1 2] [3]])", "1"]],
  ),
  builtin(
    "fnext",
    [1, 1],
    ["[coll]"],
    "(first (next coll)).",
    CATEGORY,
    (coll: unknown) => first(next(coll)),
    [["(fnext [1 2 3])", "2"]],
  ),
  builtin(
    "nfirst",
    [1, 1],
    ["[coll]"],
    "(next (first coll)).",
    CATEGORY,
    (coll: unknown) => next(first(coll)),
    [["(nfirst [[1 2] [3]])", "[2]"]],
  ),
  builtin("nnext", [1, 1], ["[coll]"], "(next (next coll)).", CATEGORY, (coll: unknown) => next(next(coll)), [
    ["(nnext [1 2 3 4])", "[3 4]"],
  ]),
];
