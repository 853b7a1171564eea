/**
 * Collections as vectors: emptiness (empty, empty?, not-empty), the items as a vector (seq, vec,
 * vector, list, range), vectors as stacks (peek, pop, subvec) and size (count). One file because
 * the reference lists these together, in this order; see sequences.ts for the rules all sequence
 * builtins share.
 */
import { typeError } from "../errors.js";
import { graphemeCount } from "../runtime/graphemes.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { type AnyMap, isMap, mapEntries, mapSize } from "../values/map-access.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import {
  chargeVector,
  described,
  integerArg,
  notCollectionError,
  unorderedOrNotCollection,
} from "./support/seq-common.js";
import { nil, slice, stringItems } from "./support/seq-items.js";
import { range } from "./support/seq-range.js";

// ---------------------------------------------------------------------------------------------
// Emptiness and seq

function empty(coll: unknown): unknown {
  if (Array.isArray(coll)) return [];
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return "";
  if (coll instanceof LispSet) return LispSet.empty();
  if (isMap(coll)) return LispMap.empty();
  throw notCollectionError("empty", coll);
}

function sizeOf(coll: unknown, who: string): number {
  if (Array.isArray(coll)) return coll.length;
  if (coll === null || coll === undefined) return 0;
  if (typeof coll === "string") return coll.length;
  if (coll instanceof LispSet) return coll.size;
  if (isMap(coll)) return mapSize(coll as AnyMap);
  throw notCollectionError(who, coll);
}

function isEmpty(coll: unknown): boolean {
  return sizeOf(coll, "empty?") === 0;
}

function notEmpty(coll: unknown): unknown {
  return sizeOf(coll, "not-empty") === 0 ? null : coll;
}

function seq(coll: unknown): unknown {
  if (Array.isArray(coll)) return coll.length === 0 ? null : coll;
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return coll.length === 0 ? null : stringItems(coll);
  if (coll instanceof LispSet) return coll.size === 0 ? null : coll.members();
  if (isMap(coll)) return mapSize(coll) === 0 ? null : mapEntries(coll);
  throw notCollectionError("seq", coll);
}

function count(coll: unknown): number {
  if (Array.isArray(coll)) return coll.length;
  if (typeof coll === "string") return graphemeCount(coll);
  return sizeOf(coll, "count");
}

// ---------------------------------------------------------------------------------------------
// Vectors as stacks

function vectorArg(value: unknown, who: string): readonly unknown[] | null {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return null;
  if (value instanceof LispSet || isMap(value)) throw unorderedOrNotCollection(who, value);
  throw typeError(`${who} expects a vector, got ${described(value)}`);
}

function peek(coll: unknown): unknown {
  const items = vectorArg(coll, "peek");
  return items === null || items.length === 0 ? null : nil(items[items.length - 1]);
}

function pop(coll: unknown): unknown {
  const items = vectorArg(coll, "pop");
  if (items === null || items.length === 0) return null;
  return slice(items, 0, items.length - 1);
}

function subvec(v: unknown, start: unknown, end?: unknown): unknown[] {
  if (!Array.isArray(v)) throw typeError(`subvec expects a vector, got ${described(v)}`);
  const length = v.length;
  const from = Math.min(
    Math.max(integerArg(start, "subvec", "start index", "(subvec v start end)"), 0),
    length,
  );
  const to =
    end === undefined
      ? length
      : Math.min(Math.max(integerArg(end, "subvec", "end index", "(subvec v start end)"), 0), length);
  if (from >= to) return [];
  return slice(v, from, to);
}

function vector(...items: unknown[]): unknown[] {
  chargeVector(items.length);
  for (let i = 0; i < items.length; i++) if (items[i] === undefined) items[i] = null;
  return items;
}

function vec(coll: unknown): unknown {
  if (Array.isArray(coll)) return coll;
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return stringItems(coll);
  if (coll instanceof LispSet) return coll.members();
  if (isMap(coll)) return mapEntries(coll);
  throw notCollectionError("vec", coll);
}

const CATEGORY = "Sequences";

export const sequenceVectorBuiltins: BuiltinDefinition[] = [
  builtin(
    "empty",
    [1, 1],
    ["[coll]"],
    "An empty collection of the same kind (nil for nil).",
    CATEGORY,
    empty,
    [
      ["(empty [1 2])", "[]"],
      ["(empty {:a 1})", "{}"],
    ],
  ),
  builtin(
    "empty?",
    [1, 1],
    ["[coll]"],
    "True when the collection (or string) has no items, or is nil.",
    CATEGORY,
    isEmpty,
    [
      ["(empty? [])", "true"],
      ['(empty? "a")', "false"],
    ],
  ),
  builtin("not-empty", [1, 1], ["[coll]"], "coll itself, or nil when it is empty.", CATEGORY, notEmpty, [
    ["(not-empty [1])", "[1]"],
    ["(not-empty [])", "nil"],
  ]),
  builtin(
    "seq",
    [1, 1],
    ["[coll]"],
    "The items as a vector (map entries, set members, string graphemes), or nil when empty.",
    CATEGORY,
    seq,
    [
      ["(seq {:a 1 :b 2})", "[[:a 1] [:b 2]]"],
      ["(seq [])", "nil"],
    ],
  ),
  builtin(
    "range",
    [1, 3],
    ["[end]", "[start end]", "[start end step]"],
    "Numbers from start (default 0) up to, not including, end, by step (default 1).",
    CATEGORY,
    range,
    [
      ["(range 4)", "[0 1 2 3]"],
      ["(range 10 0 -3)", "[10 7 4 1]"],
      ["(range 1 2 0.25)", "[1 1.25 1.5 1.75]"],
    ],
  ),
  builtin("peek", [1, 1], ["[v]"], "The last item of a vector, or nil.", CATEGORY, peek, [
    ["(peek [1 2 3])", "3"],
  ]),
  builtin(
    "pop",
    [1, 1],
    ["[v]"],
    "The vector without its last item; nil for an empty vector.",
    CATEGORY,
    pop,
    [["(pop [1 2 3])", "[1 2]"]],
  ),
  builtin(
    "subvec",
    [2, 3],
    ["[v start]", "[v start end]"],
    "Items from index start up to, not including, end (indices clamped to the vector).",
    CATEGORY,
    subvec,
    [["(subvec [0 1 2 3 4] 1 3)", "[1 2]"]],
  ),
  builtin(
    "list",
    [0, Infinity],
    ["[& items]"],
    "A vector of the arguments (PTC-Lisp has no list type).",
    CATEGORY,
    vector,
    [["(list 1 2 3)", "[1 2 3]"]],
  ),
  builtin("vector", [0, Infinity], ["[& items]"], "A vector of the arguments.", CATEGORY, vector, [
    ["(vector 1 2 3)", "[1 2 3]"],
  ]),
  builtin(
    "vec",
    [1, 1],
    ["[coll]"],
    "The items of a collection as a vector (nil stays nil).",
    CATEGORY,
    vec,
    [
      ["(vec #{3 1 2})", "[1 2 3]"],
      ['(vec "ab")', '["a" "b"]'],
    ],
  ),
  builtin(
    "count",
    [1, 1],
    ["[coll]"],
    "Number of items (characters of a string, entries of a map); 0 for nil.",
    CATEGORY,
    count,
    [
      ["(count [1 2 3])", "3"],
      ['(count "héllo")', "5"],
      ["(count nil)", "0"],
    ],
  ),
];
