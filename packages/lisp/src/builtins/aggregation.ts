/**
 * Aggregation: reduce, reduce-kv, group-by, frequencies, and the PTC helpers sum, avg, sum-by,
 * avg-by, min-by, max-by, min-key, max-key, distinct-by.
 *
 * Keys of the `*-by` functions are keywords or strings (a field, flexible lookup), path vectors or
 * functions. `sum`/`avg` and their `-by` forms skip nil (missing fields) and raise an
 * arithmetic_error on anything else that is not a number; arithmetic goes through numeric.ts so
 * integers stay exact and floats stay floats. Callbacks may return promises (tool calls): loops
 * continue asynchronously from the first one, in order.
 */
import { LispError } from "../errors.js";
import { mapBytes, VECTOR_BYTES, VECTOR_SLOT_BYTES } from "../runtime/allocation.js";
import { after, eachResult, type MaybePromise, settle } from "../runtime/async.js";
import type { Callable } from "../runtime/call.js";
import { active } from "../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { add, divide } from "../runtime/numeric.js";
import { ownedVector } from "../runtime/owned-vector.js";
import { HASHED_LENGTH, hashKey } from "../values/hash-key.js";
import { Keyword } from "../values/keyword.js";
import { FUNCTION_INFO, isLispFunction, loopEntry } from "../values/lisp-function.js";
import { type KeyedGroup, LispMap, MapBuilder, mapOfGroups } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { type AnyMap, getField, isMap, mapEntries, toLispMap } from "../values/map-access.js";
import { isNumber, type LispNumber, makeFloat } from "../values/numbers.js";
import { ownedTable } from "../values/owned-table.js";
import { detachAccumulator } from "../values/pin.js";
import { compareTerms } from "../values/term-order.js";
import { twoArgumentForm } from "./arithmetic.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { conj } from "./sequences-building.js";
import { callbackOf, collectionOf, describeValue, keyFunctionOf, vectorBytes } from "./support/hof-common.js";
import { ownedNested } from "./support/nested-in-place.js";

// ---------------------------------------------------------------- reduce

function reduce(...args: unknown[]): MaybePromise<unknown> {
  const withInit = args.length === 3;
  const fnArg = args[0];
  const items = collectionOf(
    withInit ? args[2] : args[1],
    "reduce",
    "(reduce f coll) or (reduce f init coll)",
  );
  let acc: unknown;
  let start = 0;
  if (withInit) {
    // Detached, so that the caller's hold on the initial map does not keep every version alive.
    acc = detachAccumulator(args[1]);
  } else {
    // Unlike Clojure, (reduce f []) does not call (f): it is nil.
    if (items.length === 0) return null;
    acc = items[0];
    start = 1;
  }
  const n = items.length;
  // (reduce conj v xs) appends to a copy it owns, instead of copying the vector once per item.
  if (fnArg === conj && Array.isArray(acc)) return conjAll(acc, items, start);
  const f = twoArgumentForm(fnArg) ?? callbackOf(fnArg, 2, "reduce");
  active.work(n);
  if (isLispFunction(f) && f[FUNCTION_INFO].ownedAccumulator === true) {
    if (Array.isArray(acc)) return reduceOwning(f, ownedVectorCopy(acc), ownedVector, items, start);
    if (acc !== null && typeof acc === "object" && isMap(acc))
      return reduceOwning(f, ownedMapCopy(acc), ownedTable, items, start);
  }
  if (f === add && typeof acc === "number") return sumFrom(acc, items, start);
  return foldFrom(f, acc, items, start);
}

/** reduce's loop from items[start], with `acc` so far. */
function foldFrom(
  f: Callable,
  acc: unknown,
  items: readonly unknown[],
  start: number,
): MaybePromise<unknown> {
  const n = items.length;
  const step = loopEntry(f, 2);
  for (let i = start; i < n; i++) {
    acc = step(acc, items[i]);
    if (acc instanceof Promise) return reduceRest(f, items, i + 1, acc);
    // A builtin callback (+, max, assoc) takes no evaluation steps: read the clock here.
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return acc ?? null;
}

/** `(reduce + n xs)` summed in reduce's own loop (the tests read it). */
export const reduceSumStats = { sums: 0 };

/**
 * `(reduce + total items)` with a plain number as the total: while the items are plain numbers,
 * summed in one double with no call per item, which is what add's steps compute (as sumOf in
 * arithmetic.ts reasons): an integer sum stays exact while it is safe, and once the total or an
 * item is a float every later step is a float addition of the same doubles (the result a float,
 * boxed if whole). An item that is not a plain number, or an integer sum leaving the safe range,
 * hands the rest to reduce's own loop, with the total so far. The clock is read as that loop reads
 * it. In the bench state the call of add through reduce's shared call site cost more than the sum.
 */
function sumFrom(total: number, items: readonly unknown[], start: number): MaybePromise<unknown> {
  reduceSumStats.sums++;
  const n = items.length;
  let sum = total;
  let float = !Number.isInteger(total);
  for (let i = start; i < n; i++) {
    const item = items[i];
    if (typeof item !== "number") return foldFrom(add, float ? makeFloat(sum) : sum, items, i);
    const next = sum + item;
    if (!Number.isInteger(item)) float = true;
    else if (!float && !(Math.abs(next) <= Number.MAX_SAFE_INTEGER)) return foldFrom(add, sum, items, i);
    sum = next;
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  // The total as reduce would hand it back: a float as its steps would box it, an empty fold's
  // total as it came (never boxed, never nil).
  return float && n > start ? makeFloat(sum) : sum;
}

/**
 * reduce with a function that only derives from its accumulator (compiler/accumulator-use.ts):
 * the accumulator is a copy nobody else holds, named in `token` while the function runs, so that
 * conj appends to a vector in place (runtime/owned-vector.ts) and assoc, update, merge-with...
 * change a map in place (values/owned-table.ts): building over n rows costs n, not n squared, and
 * leaves no version per row. The function hands the copy back (changed, or as it was) or hands
 * back something else, which may be shared: from then on nothing is owned.
 */
function reduceOwning<T extends object>(
  f: Callable,
  copy: T,
  token: { current: T | undefined },
  items: readonly unknown[],
  start: number,
): unknown {
  let acc: unknown = copy;
  let owned: T | undefined = copy;
  const previous = token.current;
  // The maps this reduce's update-in makes below the accumulator (support/nested-in-place.ts) are
  // forgotten when it ends, and an enclosing reduce's come back.
  const { owner, made } = ownedNested;
  try {
    for (let i = start; i < items.length; i++) {
      token.current = owned;
      acc = f(acc, items[i]);
      if (acc instanceof Promise) {
        token.current = previous;
        ownedNested.owner = owner;
        ownedNested.made = made;
        return reduceRest(f, items, i + 1, acc);
      }
      if (acc !== owned) owned = undefined;
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
  } finally {
    token.current = previous;
    ownedNested.owner = owner;
    ownedNested.made = made;
  }
  return acc ?? null;
}

/** A copy of a reduce's initial collection that the reduce may own. */
export function ownedVectorCopy(initial: readonly unknown[]): unknown[] {
  active.copy(initial.length);
  return initial.slice();
}

export function ownedMapCopy(initial: AnyMap): LispMap {
  return initial instanceof LispMap ? initial.ownableCopy() : toLispMap(initial);
}

function conjAll(vector: readonly unknown[], items: readonly unknown[], start: number): unknown[] {
  active.copy(vector.length);
  active.allocate(vectorBytes(items.length - start));
  active.work(items.length);
  // Made at its final length and filled by index: pushing onto a copy grows it step by step.
  const out = new Array<unknown>(vector.length + items.length - start);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i];
  let at = vector.length;
  for (let i = start; i < items.length; i++) {
    const item = items[i];
    out[at++] = item === undefined ? null : item;
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return out;
}

async function reduceRest(
  f: Callable,
  items: readonly unknown[],
  next: number,
  pending: Promise<unknown>,
): Promise<unknown> {
  let acc = await settle(pending);
  for (let i = next; i < items.length; i++) {
    acc = f(acc, items[i]);
    if (acc instanceof Promise) acc = await settle(acc);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return acc ?? null;
}

function reduceKv(fnArg: unknown, init: unknown, coll: unknown): MaybePromise<unknown> {
  if (coll === null || coll === undefined) return init;
  if (!isMap(coll)) {
    throw new LispError(
      "type_error",
      `reduce-kv expects a map, got ${describeValue(coll)}; for a vector use (reduce f init coll) or (reduce f init (map-indexed vector coll))`,
    );
  }
  const f = callbackOf(fnArg, 3, "reduce-kv");
  const entries = mapEntries(coll);
  active.work(entries.length);
  let acc = init;
  const done = eachResult(
    0,
    entries.length,
    (i) => {
      const entry = entries[i] as readonly [unknown, unknown];
      return f(acc, entry[0], entry[1]);
    },
    (_i, result) => {
      acc = result;
      return true;
    },
  );
  return after(done, () => acc ?? null);
}

// ---------------------------------------------------------------- grouping and counting

/**
 * hashKey, with the common cases (plain strings, keywords, small integers) inline. A string too
 * long for V8 to hash by its characters goes through hashKey, which charges it to the clock
 * (hash-key.ts says why): inline, group-by and frequencies compared each such key with all the
 * others of its length in native Map calls, without reading the clock (300 keys of 100,000
 * characters: two to three seconds past a one-second deadline, 500 keys over fifteen).
 */
export function groupHash(key: unknown): unknown {
  if (typeof key === "string")
    return key.length > HASHED_LENGTH || (key.length > 0 && key.charCodeAt(0) === 0) ? hashKey(key) : key;
  if (key instanceof Keyword || (typeof key === "number" && Number.isSafeInteger(key))) return key;
  return hashKey(key);
}

interface Group extends KeyedGroup {
  readonly items: unknown[];
}

/**
 * Groups in first-seen order; the map itself orders its keys. Built once: past a few groups the
 * map takes `slots` as its table (values/lisp-map.ts, mapOfGroups).
 */
export class Groups {
  private readonly slots = new Map<unknown, Group>();
  private readonly order: Group[] = [];

  add(key: unknown, item: unknown): void {
    const hash = groupHash(key);
    const group = this.slots.get(hash);
    if (group === undefined) {
      const made = { key: key ?? null, hash, items: [item] };
      this.slots.set(hash, made);
      this.order.push(made);
    } else group.items.push(item);
  }

  build(total: number): unknown {
    return groupMap(this.slots, this.order, total, (group) => group.items);
  }
}

/**
 * The map of a grouping pass's groups (values/lisp-map.ts, mapOfGroups), charged as group-by's:
 * a map entry and a vector per group, a slot per each of `total` items. A million distinct keys
 * make a million entries: the clock is read as they are filled in.
 */
export function groupMap<G extends KeyedGroup>(
  slots: Map<unknown, G>,
  groups: readonly G[],
  total: number,
  groupValue: (group: G) => unknown,
): unknown {
  let filled = 0;
  const map = mapOfGroups(slots, groups, (group) => {
    if ((++filled & CHECK_MASK) === 0) active.work(CHECK_EVERY);
    return groupValue(group);
  });
  const size = groups.length;
  active.allocate(mapBytes(size) + VECTOR_BYTES * size + VECTOR_SLOT_BYTES * total);
  return map;
}

export function groupBy(keyArg: unknown, coll: unknown): MaybePromise<unknown> {
  const items = collectionOf(coll, "group-by", "(group-by keyfn coll)");
  const groups = new Groups();
  const n = items.length;
  active.work(n);
  if (keyArg instanceof Keyword) {
    // The common `(group-by :region rows)`: the field read in place (no call of a key function
    // per item, and no promise to look for: a field read never makes one).
    for (let i = 0; i < n; i++) {
      const item = items[i];
      groups.add(getField(item, keyArg), item);
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    return groups.build(n);
  }
  const keyOf = keyFunctionOf(keyArg, "group-by");
  for (let i = 0; i < n; i++) {
    const item = items[i];
    const key = keyOf(item);
    if (key instanceof Promise) return groupByRest(keyOf, items, groups, i, key);
    groups.add(key, item);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return groups.build(n);
}

async function groupByRest(
  keyOf: Callable,
  items: readonly unknown[],
  groups: Groups,
  index: number,
  pending: Promise<unknown>,
): Promise<unknown> {
  groups.add(await settle(pending), items[index]);
  for (let i = index + 1; i < items.length; i++) {
    let key = keyOf(items[i]);
    if (key instanceof Promise) key = await settle(key);
    groups.add(key, items[i]);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return groups.build(items.length);
}

function frequencies(coll: unknown): unknown {
  const items = collectionOf(coll, "frequencies", "(frequencies coll)");
  const n = items.length;
  active.work(n);
  const counts = new Map<unknown, { item: unknown; count: number }>();
  for (let i = 0; i < n; i++) {
    const item = items[i] ?? null;
    const hash = groupHash(item);
    const slot = counts.get(hash);
    if (slot === undefined) counts.set(hash, { item, count: 1 });
    else slot.count++;
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  const builder = new MapBuilder();
  // Filling the map costs about what counting did: a million distinct items, a million entries.
  let filled = 0;
  for (const { item, count } of counts.values()) {
    builder.set(item, count);
    if ((++filled & CHECK_MASK) === 0) active.work(CHECK_EVERY);
  }
  active.allocate(mapBytes(counts.size));
  return builder.build();
}

function distinctBy(keyArg: unknown, coll: unknown): MaybePromise<unknown[]> {
  const items = collectionOf(coll, "distinct-by", "(distinct-by keyfn coll)");
  const keyOf = keyFunctionOf(keyArg, "distinct-by");
  active.work(items.length);
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  const done = eachResult(
    0,
    items.length,
    (i) => keyOf(items[i]),
    (i, key) => {
      const hash = hashKey(key);
      if (!seen.has(hash)) {
        seen.add(hash);
        out.push(items[i]);
      }
      return true;
    },
  );
  return after(done, () => {
    active.allocate(vectorBytes(out.length));
    return out;
  });
}

// ---------------------------------------------------------------- sums and averages

function notSummable(who: string, value: unknown): LispError {
  return new LispError(
    "arithmetic_error",
    `${who}: bad argument in arithmetic expression: ${describeValue(value)} is not a number. ${who} adds numbers only (nil is skipped); convert first, e.g. with parse-double`,
  );
}

/**
 * Running total of the numbers seen; nil is skipped, anything else that is not a number raises.
 * The total is what folding add over the terms from integer 0 gives, kept as a JS double and a
 * flag saying whether it is a float while that is exact (as compiler/running-sum.ts does in
 * generated code): add's steps are these same double additions, a float term makes every later
 * sum a float, and an integer sum is exact while it stays safe. Folding with add itself would box
 * every sum of 100,000 float amounts (a heap number each, or a WholeFloat when one is whole), so
 * sum-by allocated per row. A term of another kind (a big integer, a whole float), or an integer
 * sum leaving the safe range, hands the total over to add for the rest.
 */
class Total {
  /** The total while `exact` is undefined: a double, a float when `float` says so. */
  private sum = 0;
  private float = false;
  /** The total once add took over. */
  private exact: LispNumber | undefined = undefined;
  count = 0;

  constructor(private readonly who: string) {}

  add(value: unknown): void {
    if (value === null || value === undefined) return;
    if (typeof value === "number" && this.exact === undefined) {
      const next = this.sum + value;
      if (!Number.isInteger(value)) this.float = true;
      else if (!this.float && !(Math.abs(next) <= Number.MAX_SAFE_INTEGER)) {
        // `sum` is an exact safe integer here: add makes the big integer (and charges it).
        this.exact = add(this.sum, value);
        this.count++;
        return;
      }
      this.sum = next;
      this.count++;
      return;
    }
    if (typeof value !== "number" && !isNumber(value)) throw notSummable(this.who, value);
    this.exact = add(this.total(), value);
    this.count++;
  }

  /** The total as a value: a float that is whole boxed, as add would have returned it. */
  total(): LispNumber {
    if (this.exact !== undefined) return this.exact;
    return this.float ? makeFloat(this.sum) : this.sum;
  }

  average(): unknown {
    return this.count === 0 ? null : divide(this.total(), this.count);
  }
}

function totalOf(who: string, coll: unknown): Total {
  const items = collectionOf(coll, who, `(${who} coll)`);
  active.work(items.length);
  const total = new Total(who);
  for (let i = 0; i < items.length; i++) {
    total.add(items[i]);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return total;
}

function totalBy(who: string, keyArg: unknown, coll: unknown): MaybePromise<Total> {
  const items = collectionOf(coll, who, `(${who} key coll)`);
  const n = items.length;
  active.work(n);
  const total = new Total(who);
  if (keyArg instanceof Keyword) {
    // `(sum-by :amount rows)`: the field read in place, as in groupBy.
    for (let i = 0; i < n; i++) {
      total.add(getField(items[i], keyArg));
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    return total;
  }
  const keyOf = keyFunctionOf(keyArg, who);
  for (let i = 0; i < n; i++) {
    const value = keyOf(items[i]);
    if (value instanceof Promise) return totalByRest(keyOf, items, total, i, value);
    total.add(value);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return total;
}

async function totalByRest(
  keyOf: Callable,
  items: readonly unknown[],
  total: Total,
  index: number,
  pending: Promise<unknown>,
): Promise<Total> {
  total.add(await settle(pending));
  for (let i = index + 1; i < items.length; i++) {
    let value = keyOf(items[i]);
    if (value instanceof Promise) value = await settle(value);
    total.add(value);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return total;
}

// ---------------------------------------------------------------- extremes

/**
 * The item with the least (or greatest) key in term order, the first one on ties. Items whose key
 * is nil are skipped when `skipNil` (min-by/max-by), considered otherwise (min-key/max-key).
 */
function extremeBy(
  keyOf: Callable,
  items: readonly unknown[],
  greatest: boolean,
  skipNil: boolean,
): MaybePromise<unknown> {
  active.work(items.length);
  let best: unknown = null;
  let bestKey: unknown;
  let found = false;
  const done = eachResult(
    0,
    items.length,
    (i) => keyOf(items[i]),
    (i, key) => {
      if (skipNil && (key === null || key === undefined)) return true;
      if (!found) {
        found = true;
        best = items[i];
        bestKey = key;
        return true;
      }
      const c = compareTerms(key, bestKey);
      if (greatest ? c > 0 : c < 0) {
        best = items[i];
        bestKey = key;
      }
      return true;
    },
  );
  return after(done, () => best ?? null);
}

function isCollection(value: unknown): boolean {
  return (
    Array.isArray(value) ||
    value instanceof LispSet ||
    (value !== null && typeof value === "object" && isMap(value))
  );
}

/** min-by/max-by: (f coll), or the items themselves after the key (as (apply max-by k items) gives). */
function makeExtremeBy(who: string, greatest: boolean) {
  return (keyArg: unknown, ...rest: unknown[]): MaybePromise<unknown> => {
    const items =
      rest.length === 1 && (isCollection(rest[0]) || rest[0] === null || rest[0] === undefined)
        ? collectionOf(rest[0], who, `(${who} key coll)`)
        : rest;
    return extremeBy(keyFunctionOf(keyArg, who), items, greatest, true);
  };
}

/** min-key/max-key: the argument x for which (f x) is least (greatest); f is not called for one x. */
function makeExtremeKey(who: string, greatest: boolean) {
  return (fnArg: unknown, ...xs: unknown[]): MaybePromise<unknown> => {
    const f = callbackOf(fnArg, 1, who);
    if (xs.length === 1) return xs[0] ?? null;
    return extremeBy(f, xs, greatest, false);
  };
}

// ---------------------------------------------------------------- definitions

const CATEGORY = "Aggregation";

export const aggregationBuiltins: BuiltinDefinition[] = [
  builtin(
    "reduce",
    [2, 3],
    ["[f coll]", "[f init coll]"],
    "Folds coll with (f acc item), starting from init or the first item; (reduce f []) is nil.",
    CATEGORY,
    reduce,
    [
      ["(reduce + [1 2 3])", "6"],
      ["(reduce (fn [acc x] (conj acc (* x x))) [] [1 2 3])", "[1 4 9]"],
      ["(reduce + [])", "nil"],
    ],
  ),
  builtin(
    "reduce-kv",
    [3, 3],
    ["[f init m]"],
    "Folds a map with (f acc key value), starting from init.",
    CATEGORY,
    reduceKv,
    [["(reduce-kv (fn [acc k v] (+ acc v)) 0 {:a 1 :b 2})", "3"]],
  ),
  builtin(
    "group-by",
    [2, 2],
    ["[keyfn coll]"],
    "Map from each key (keyfn item) to the vector of items with that key, in order.",
    CATEGORY,
    groupBy,
    [
      [
        "(group-by :type [{:type :a :n 1} {:type :b :n 2} {:type :a :n 3}])",
        "{:a [{:n 1 :type :a} {:n 3 :type :a}] :b [{:n 2 :type :b}]}",
      ],
      ["(group-by odd? [1 2 3])", "{false [2] true [1 3]}"],
    ],
  ),
  builtin(
    "frequencies",
    [1, 1],
    ["[coll]"],
    "Map from each distinct item to the number of times it occurs.",
    CATEGORY,
    frequencies,
    [["(frequencies [:a :b :a])", "{:a 2 :b 1}"]],
  ),
  builtin(
    "sum",
    [1, 1],
    ["[coll]"],
    "Sum of the numbers in coll, skipping nil; (sum []) is 0.",
    CATEGORY,
    (coll: unknown) => totalOf("sum", coll).total(),
    [
      ["(sum [1 2 3])", "6"],
      ["(sum [1.5 nil 2])", "3.5"],
    ],
  ),
  builtin(
    "avg",
    [1, 1],
    ["[coll]"],
    "Mean of the numbers in coll (a float), skipping nil; nil when there are none.",
    CATEGORY,
    (coll: unknown) => totalOf("avg", coll).average(),
    [
      ["(avg [1 2 3 4])", "2.5"],
      ["(avg [])", "nil"],
    ],
  ),
  builtin(
    "sum-by",
    [2, 2],
    ["[key coll]"],
    "Sum of (key item) over the items, skipping nil or missing values.",
    CATEGORY,
    (key: unknown, coll: unknown) => after(totalBy("sum-by", key, coll), (total) => total.total()),
    [["(sum-by :amount [{:amount 10} {:amount 5} {}])", "15"]],
  ),
  builtin(
    "avg-by",
    [2, 2],
    ["[key coll]"],
    "Mean of (key item) over the items (a float), skipping nil or missing values; nil when there are none.",
    CATEGORY,
    (key: unknown, coll: unknown) => after(totalBy("avg-by", key, coll), (total) => total.average()),
    [["(avg-by :score [{:score 80} {:score 90} {:score nil}])", "85.0"]],
  ),
  builtin(
    "min-by",
    [2, Infinity],
    ["[key coll]", "[key x & more]"],
    "The item with the least (key item), skipping nil keys; the first on ties; nil when there is none.",
    CATEGORY,
    makeExtremeBy("min-by", false),
    [["(min-by :price [{:price 5} {:price 2} {:price nil}])", "{:price 2}"]],
  ),
  builtin(
    "max-by",
    [2, Infinity],
    ["[key coll]", "[key x & more]"],
    "The item with the greatest (key item), skipping nil keys; the first on ties; nil when there is none.",
    CATEGORY,
    makeExtremeBy("max-by", true),
    [["(max-by :price [{:price 5} {:price 9}])", "{:price 9}"]],
  ),
  builtin(
    "min-key",
    [2, Infinity],
    ["[f x]", "[f x y & more]"],
    "The argument x for which (f x) is least (the first on ties).",
    CATEGORY,
    makeExtremeKey("min-key", false),
    [['(min-key count "abc" "a" "ab")', '"a"']],
  ),
  builtin(
    "max-key",
    [2, Infinity],
    ["[f x]", "[f x y & more]"],
    "The argument x for which (f x) is greatest (the first on ties).",
    CATEGORY,
    makeExtremeKey("max-key", true),
    [
      ['(max-key count "a" "abc" "ab")', '"abc"'],
      ["(apply max-key val (seq {:a 3 :b 7}))", "[:b 7]"],
    ],
  ),
  builtin(
    "distinct-by",
    [2, 2],
    ["[key coll]"],
    "The items whose (key item) was not seen before, in order.",
    CATEGORY,
    distinctBy,
    [["(distinct-by :id [{:id 1 :v :a} {:id 1 :v :b} {:id 2 :v :c}])", "[{:id 1 :v :a} {:id 2 :v :c}]"]],
  ),
];
