/**
 * Order and repeats: reverse, sort (naturally or by a comparator, see support/seq-sort.ts), and
 * removing repeats (distinct, dedupe) or asking about them (distinct?). Results keep the input's
 * order where the function does not change it; see sequences.ts for the rules all sequence
 * builtins share.
 */
import { typeError } from "../errors.js";
import { active } from "../runtime/context.js";
import { graphemes } from "../runtime/graphemes.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { seqOf } from "../runtime/sequences.js";
import { equals } from "../values/equality.js";
import { hashKey } from "../values/hash-key.js";
import { LispSet } from "../values/lisp-set.js";
import { isMap, mapEntries } from "../values/map-access.js";
import { SeenItems } from "../values/seen-items.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import {
  chargeVector,
  EMPTY,
  notCollectionError,
  orderedItems,
  unorderedSetError,
} from "./support/seq-common.js";
import { isCollection, nil } from "./support/seq-items.js";
import { comparatorOf, sortedCopy } from "./support/seq-sort.js";

function reverse(coll: unknown): unknown[] {
  const items = orderedItems(coll, "reverse");
  const n = items.length;
  chargeVector(n);
  active.work(n);
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    out[i] = items[n - 1 - i];
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return out;
}

/** Items in first-seen order with later duplicates (by `=`) removed. */
function uniqueItems(items: readonly unknown[]): unknown[] {
  active.work(items.length);
  const seen = new SeenItems();
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    const item = items[i];
    if (seen.add(item)) out.push(nil(item));
  }
  chargeVector(out.length);
  return out;
}

function distinct(coll: unknown): unknown[] {
  if (Array.isArray(coll)) return uniqueItems(coll);
  if (coll === null || coll === undefined) return [];
  if (typeof coll === "string") return uniqueItems(graphemes(coll));
  if (coll instanceof LispSet) throw unorderedSetError("distinct");
  // Map entries are distinct already (their keys are).
  if (isMap(coll)) return mapEntries(coll) as unknown as unknown[];
  throw notCollectionError("distinct", coll);
}

function isDistinct(...args: unknown[]): boolean {
  if (args.length === 2) return !equals(args[0], args[1]);
  const seen = new Set<unknown>();
  for (const arg of args) {
    const key = hashKey(arg);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function dedupe(coll: unknown): unknown[] {
  const items = seqOf(coll, "dedupe");
  active.work(items.length);
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    if (i > 0 && equals(items[i], items[i - 1])) continue;
    out.push(nil(items[i]));
  }
  chargeVector(out.length);
  return out;
}

/**
 * Items `sort` accepts: vectors, nil, strings, maps (entries), sets (members). Sorting a set is an
 * extension, as in Clojure (the reference refuses it); members come in term order, so items a
 * comparator calls equal still come out in a fixed order.
 */
function sortItems(coll: unknown): readonly unknown[] {
  if (Array.isArray(coll)) return coll;
  if (coll === null || coll === undefined) return EMPTY;
  if (typeof coll === "string") return graphemes(coll);
  if (coll instanceof LispSet) return coll.members();
  if (isMap(coll)) return mapEntries(coll) as unknown as readonly unknown[];
  throw notCollectionError("sort", coll);
}

function sort(...args: unknown[]): unknown[] {
  if (args.length === 1) {
    const items = sortItems(args[0]);
    chargeVector(items.length);
    active.work(items.length * Math.max(1, Math.log2(items.length + 1)));
    return sortedCopy(items, undefined);
  }
  const [comparator, coll] = args;
  if (isCollection(comparator) && typeof coll === "function") {
    throw typeError("sort expects the comparator first: (sort comparator coll), e.g. (sort > xs)");
  }
  const compare = comparatorOf(comparator, "sort");
  const items = sortItems(coll);
  chargeVector(items.length);
  active.work(items.length * Math.max(1, Math.log2(items.length + 1)));
  return sortedCopy(items, compare);
}

const CATEGORY = "Sequences";

export const sequenceOrderingBuiltins: BuiltinDefinition[] = [
  builtin("reverse", [1, 1], ["[coll]"], "The items in reverse order.", CATEGORY, reverse, [
    ["(reverse [1 2 3])", "[3 2 1]"],
  ]),
  builtin(
    "distinct",
    [1, 1],
    ["[coll]"],
    "The items without repeats, in first-seen order.",
    CATEGORY,
    distinct,
    [["(distinct [1 2 1 3 2])", "[1 2 3]"]],
  ),
  builtin(
    "distinct?",
    [1, Infinity],
    ["[x & more]"],
    "True when no two arguments are equal.",
    CATEGORY,
    isDistinct,
    [
      ["(distinct? 1 2 3)", "true"],
      ["(distinct? 1 2 1)", "false"],
    ],
  ),
  builtin("dedupe", [1, 1], ["[coll]"], "The items with consecutive repeats collapsed.", CATEGORY, dedupe, [
    ["(dedupe [1 1 2 2 1])", "[1 2 1]"],
  ]),
  builtin(
    "sort",
    [1, 2],
    ["[coll]", "[comparator coll]"],
    "The items in ascending order, or by a comparator: <, >, :asc, :desc or a function of 2 arguments.",
    CATEGORY,
    sort,
    [
      ["(sort [3 1 2])", "[1 2 3]"],
      ["(sort > [3 1 2])", "[3 2 1]"],
      ['(sort ["b" "a"])', '["a" "b"]'],
      ["(sort > #{1 3 2})", "[3 2 1]"],
    ],
  ),
];
