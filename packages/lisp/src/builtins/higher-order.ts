/**
 * Sequence functions that call back: map, filter, keep, mapcat, some, every?, take-while,
 * partition-by, sort-by... Every one accepts any collection (maps as [key value] entries,
 * sets as members, strings as characters, nil as empty) and any callable (functions, keywords,
 * sets, maps), and always returns a vector.
 *
 * Callbacks may call tools and so return promises: each loop runs synchronously until a callback
 * answers with a promise, then continues one element at a time, awaiting each, so tool calls keep
 * program order. `map`, `filter` and `remove` are hot paths and get hand-written loops; the rest
 * use `eachResult`. sort-by's key function and comparator must answer synchronously.
 */

import { isLispError, LispError } from "../errors.js";
import { print } from "../format/print.js";
import { chargeSlots, VECTOR_BYTES } from "../runtime/allocation.js";
import { after, eachResult, eachResultFrom, type MaybePromise, settle } from "../runtime/async.js";
import { type Callable, callNow } from "../runtime/call.js";
import { active } from "../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK, sortInSlices } from "../runtime/interruptible.js";
import { itemsOf } from "../runtime/sequences.js";
import { equals } from "../values/equality.js";
import { Keyword } from "../values/keyword.js";
import { FUNCTION_INFO, type LispFunction, loopEntry } from "../values/lisp-function.js";
import { columnOrder, compareTerms, tupleIndexOrder } from "../values/term-order.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { columnsWithoutNaN, firstItemsByKeys, firstItemsInOrder } from "./support/first-in-order.js";
import {
  callbackOf,
  collectionOf,
  describeValue,
  fieldOf,
  pathOf,
  truthy,
  vectorBytes,
} from "./support/hof-common.js";
import { type KeyColumns, keyColumnStats, keyColumnsOf } from "./support/key-columns.js";

// ---------------------------------------------------------------- map

function mapOne(who: string, fnArg: unknown, coll: unknown): MaybePromise<unknown[]> {
  const items = collectionOf(coll, who, `(${who} f coll)`);
  const f = callbackOf(fnArg, 1, who);
  const n = items.length;
  active.work(n);
  active.allocate(vectorBytes(n));
  const out = new Array<unknown>(n);
  const step = loopEntry(f, 1);
  for (let i = 0; i < n; i++) {
    const result = step(items[i]);
    if (result instanceof Promise) return mapOneRest(f, items, out, i, result);
    out[i] = result ?? null;
    // A builtin callback (inc, vector, upper-case) takes no evaluation steps: read the clock here.
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return out;
}

async function mapOneRest(
  f: Callable,
  items: readonly unknown[],
  out: unknown[],
  index: number,
  pending: Promise<unknown>,
): Promise<unknown[]> {
  out[index] = (await settle(pending)) ?? null;
  for (let i = index + 1; i < items.length; i++) {
    let result = f(items[i]);
    if (result instanceof Promise) result = await settle(result);
    out[i] = result ?? null;
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return out;
}

function mapMany(who: string, fnArg: unknown, colls: readonly unknown[]): MaybePromise<unknown[]> {
  const lists = colls.map((coll) => collectionOf(coll, who, `(${who} f coll1 coll2)`));
  const f = callbackOf(fnArg, lists.length, who);
  let n = Number.POSITIVE_INFINITY;
  for (const list of lists) n = Math.min(n, list.length);
  active.work(n);
  active.allocate(vectorBytes(n));
  const out = new Array<unknown>(n);
  const [a, b, c] = lists as [readonly unknown[], readonly unknown[], readonly unknown[] | undefined];
  const call = c === undefined ? (i: number) => f(a[i], b[i]) : (i: number) => f(a[i], b[i], c[i]);
  const stored = eachResult(0, n, call, (i, result) => {
    out[i] = result ?? null;
    return true;
  });
  return after(stored, () => out);
}

function makeMap(who: string) {
  return (fnArg: unknown, ...colls: unknown[]): MaybePromise<unknown[]> =>
    colls.length === 1 ? mapOne(who, fnArg, colls[0]) : mapMany(who, fnArg, colls);
}

// ---------------------------------------------------------------- filter / remove

function select(who: string, predArg: unknown, coll: unknown, wanted: boolean): MaybePromise<unknown[]> {
  const items = collectionOf(coll, who, `(${who} pred coll)`);
  const pred = callbackOf(predArg, 1, who, "predicate");
  const n = items.length;
  active.work(n);
  const out: unknown[] = [];
  const test = loopEntry(pred, 1);
  for (let i = 0; i < n; i++) {
    const item = items[i];
    const result = test(item);
    if (result instanceof Promise) return selectRest(pred, items, out, i, result, wanted);
    if ((result !== null && result !== false && result !== undefined) === wanted) out.push(item);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  active.allocate(vectorBytes(out.length));
  return out;
}

async function selectRest(
  pred: Callable,
  items: readonly unknown[],
  out: unknown[],
  index: number,
  pending: Promise<unknown>,
  wanted: boolean,
): Promise<unknown[]> {
  let result = await settle(pending);
  for (let i = index; ; ) {
    if (truthy(result) === wanted) out.push(items[i]);
    if (++i >= items.length) break;
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    result = pred(items[i]);
    if (result instanceof Promise) result = await settle(result);
  }
  active.allocate(vectorBytes(out.length));
  return out;
}

// ---------------------------------------------------------------- keep, indexed variants, mapcat

/** keep and keep-indexed: the non-nil results of f, called with the item (or index and item). */
function keepResults(name: "keep" | "keep-indexed", usage: string, indexed: boolean) {
  return (fnArg: unknown, coll: unknown): MaybePromise<unknown[]> => {
    const items = collectionOf(coll, name, usage);
    const f = callbackOf(fnArg, indexed ? 2 : 1, name);
    active.work(items.length);
    const out: unknown[] = [];
    const done = eachResult(
      0,
      items.length,
      indexed ? (i) => f(i, items[i]) : (i) => f(items[i]),
      (_i, result) => {
        if (result !== null && result !== undefined) out.push(result);
        return true;
      },
    );
    return after(done, () => {
      active.allocate(vectorBytes(out.length));
      return out;
    });
  };
}

const keep = keepResults("keep", "(keep f coll)", false);
const keepIndexed = keepResults("keep-indexed", "(keep-indexed (fn [i x] ...) coll)", true);

function mapIndexed(fnArg: unknown, coll: unknown): MaybePromise<unknown[]> {
  const items = collectionOf(coll, "map-indexed", "(map-indexed (fn [i x] ...) coll)");
  const f = callbackOf(fnArg, 2, "map-indexed");
  const n = items.length;
  active.work(n);
  active.allocate(vectorBytes(n));
  const out = new Array<unknown>(n);
  const done = eachResult(
    0,
    n,
    (i) => f(i, items[i]),
    (i, result) => {
      out[i] = result ?? null;
      return true;
    },
  );
  return after(done, () => out);
}

function mapcat(fnArg: unknown, coll: unknown): MaybePromise<unknown[]> {
  const items = collectionOf(coll, "mapcat", "(mapcat f coll)");
  const out: unknown[] = [];
  active.work(items.length);
  if (fnArg instanceof Keyword) {
    // A field that holds a single value (not a vector) contributes that value.
    for (const item of items) {
      const value = fieldOf(item, fnArg);
      if (value === null) continue;
      if (Array.isArray(value)) {
        // Charged per field: each may hold any number of values.
        active.work(value.length);
        chargeSlots(out.length + value.length, value.length);
        for (const element of value) out.push(element);
      } else {
        chargeSlots(out.length + 1, 1);
        out.push(value);
      }
    }
    active.allocate(VECTOR_BYTES);
    return out;
  }
  const f = callbackOf(fnArg, 1, "mapcat");
  const done = eachResult(
    0,
    items.length,
    (i) => f(items[i]),
    (_i, result) => {
      if (result === null || result === undefined) return true;
      const parts = itemsOf(result);
      if (parts === undefined) {
        throw new LispError(
          "type_error",
          `mapcat expects the function to return a collection (or nil), got ${describeValue(result)}; use map for single values`,
        );
      }
      active.work(parts.length);
      // Charged as the vector grows, not once at the end: the parts may be one vector returned
      // for every item, which costs nothing to return, so a hundred thousand items each giving
      // the same hundred-thousand-item vector grew the output past the memory budget (and past
      // V8's largest array, which aborts the process) before any charge. The vector cap stops it
      // short of that largest array when the budget is raised.
      chargeSlots(out.length + parts.length, parts.length);
      for (const part of parts) out.push(part);
      return true;
    },
  );
  return after(done, () => {
    active.allocate(VECTOR_BYTES);
    return out;
  });
}

// ---------------------------------------------------------------- searching

/** Index of the first item whose predicate result is truthy (or falsy), or -1, with that result. */
function scan(who: string, predArg: unknown, coll: unknown, untilTruthy: boolean, usage: string) {
  const items = collectionOf(coll, who, usage);
  const pred = callbackOf(predArg, 1, who, "predicate");
  active.work(items.length);
  let found = -1;
  let value: unknown = null;
  const accept = (i: number, result: unknown): boolean => {
    if (truthy(result) !== untilTruthy) return true;
    found = i;
    value = result;
    return false;
  };
  // eachResult's loop written out while every answer is ready (`some` over rows is a hot search):
  // no closure call per item for the call and the acceptance. From the first promise on, the
  // rest goes as eachResult would go on, each answer awaited in turn.
  const n = items.length;
  const test = loopEntry(pred, 1);
  for (let i = 0; i < n; i++) {
    const result = test(items[i]);
    if (result instanceof Promise) {
      const rest = eachResultFrom(i, result, n, (j) => pred(items[j]), accept);
      return after(rest, () => ({ items, found, value }));
    }
    if ((result !== null && result !== false && result !== undefined) === untilTruthy) {
      searchStats.readyScans++;
      return { items, found: i, value: result as unknown };
    }
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  searchStats.readyScans++;
  return { items, found, value };
}

/** Searches (some, every?...) that ran to their answer in scan's own loop: the tests read it. */
export const searchStats = { readyScans: 0 };

function some(predArg: unknown, coll: unknown): MaybePromise<unknown> {
  return after(scan("some", predArg, coll, true, "(some pred coll)"), ({ value }) => value ?? null);
}

function every(predArg: unknown, coll: unknown): MaybePromise<boolean> {
  return after(scan("every?", predArg, coll, false, "(every? pred coll)"), ({ found }) => found === -1);
}

function notAny(predArg: unknown, coll: unknown): MaybePromise<boolean> {
  return after(scan("not-any?", predArg, coll, true, "(not-any? pred coll)"), ({ found }) => found === -1);
}

function notEvery(predArg: unknown, coll: unknown): MaybePromise<boolean> {
  return after(
    scan("not-every?", predArg, coll, false, "(not-every? pred coll)"),
    ({ found }) => found !== -1,
  );
}

function splitPoint(who: string, predArg: unknown, coll: unknown) {
  return after(scan(who, predArg, coll, false, `(${who} pred coll)`), ({ items, found }) => ({
    items,
    at: found === -1 ? items.length : found,
  }));
}

function takeWhile(predArg: unknown, coll: unknown): MaybePromise<unknown[]> {
  return after(splitPoint("take-while", predArg, coll), ({ items, at }) => {
    active.allocate(vectorBytes(at));
    return items.slice(0, at);
  });
}

function dropWhile(predArg: unknown, coll: unknown): MaybePromise<unknown[]> {
  return after(splitPoint("drop-while", predArg, coll), ({ items, at }) => {
    active.allocate(vectorBytes(items.length - at));
    return items.slice(at);
  });
}

function splitWith(predArg: unknown, coll: unknown): MaybePromise<unknown[]> {
  return after(splitPoint("split-with", predArg, coll), ({ items, at }) => {
    active.allocate(vectorBytes(items.length) + 2 * vectorBytes(0));
    return [items.slice(0, at), items.slice(at)];
  });
}

function partitionBy(fnArg: unknown, coll: unknown): MaybePromise<unknown[]> {
  const items = collectionOf(coll, "partition-by", "(partition-by f coll)");
  const f = callbackOf(fnArg, 1, "partition-by");
  active.work(items.length);
  const out: unknown[][] = [];
  let current: unknown[] = [];
  let previous: unknown;
  const done = eachResult(
    0,
    items.length,
    (i) => f(items[i]),
    (i, key) => {
      if (i > 0 && !equals(key, previous)) {
        out.push(current);
        current = [];
      }
      current.push(items[i]);
      previous = key;
      return true;
    },
  );
  return after(done, () => {
    if (current.length > 0) out.push(current);
    active.allocate(vectorBytes(out.length) + vectorBytes(items.length) + VECTOR_BYTES * out.length);
    return out;
  });
}

// ---------------------------------------------------------------- sort-by

type Direction = "asc" | "desc" | "custom";

function isBuiltinNamed(value: unknown, names: readonly string[]): boolean {
  if (typeof value !== "function") return false;
  const info = (value as Partial<LispFunction>)[FUNCTION_INFO];
  return info?.builtin === true && info.name !== undefined && names.includes(info.name);
}

function isLispFunction(value: unknown): boolean {
  return typeof value === "function" && (value as Partial<LispFunction>)[FUNCTION_INFO] !== undefined;
}

/** The hint for `(sort-by key coll comparator)`: how the call should have been written. */
function hintText(value: unknown): string {
  if (typeof value === "function") {
    const info = (value as Partial<LispFunction>)[FUNCTION_INFO];
    if (info?.builtin === true && info.name !== undefined) return info.name;
    return "comparator";
  }
  return print(value, { maxChars: 40 });
}

function sortKeyFunction(key: unknown): (item: unknown) => unknown {
  if (key instanceof Keyword || typeof key === "string" || key === null || typeof key === "boolean")
    return (item) => fieldOf(item, key);
  if (Array.isArray(key)) {
    const path = key;
    return (item) => pathOf(item, path);
  }
  const f = callbackOf(key, 1, "sort-by", "key (a keyword, a string, a path vector or a function)");
  return (item) => {
    try {
      return callNow(f, "sort-by", item);
    } catch (error) {
      throw keyFailure(error, item);
    }
  };
}

/** What sort-by throws when its key function fails on `item`: a type error says which item. */
function keyFailure(error: unknown, item: unknown): unknown {
  if (isLispError(error) && error.reason === "type_error" && !error.message.startsWith("sort-by ")) {
    return new LispError(
      "type_error",
      `sort-by key function failed for item ${print(item, { maxChars: 80 })}: ${error.message}`,
    );
  }
  return error;
}

/**
 * The keys of a juxt key function as one array per part (support/key-columns.ts), with every
 * call, charge and error the key function would have made called item by item.
 */
function keyColumns(writer: KeyColumns, items: readonly unknown[]): unknown[][] {
  const n = items.length;
  const columns: unknown[][] = [];
  for (let j = 0; j < writer.width; j++) columns.push(new Array<unknown>(n));
  for (let i = 0; i < n; i++) {
    const item = items[i];
    try {
      const pending = writer.write(item, columns, i);
      if (pending instanceof Promise) callNow(() => pending, "sort-by");
    } catch (error) {
      throw keyFailure(error, item);
    }
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return columns;
}

function comparatorOf(value: unknown): { direction: Direction; compare: (a: unknown, b: unknown) => number } {
  if (value === undefined || isBuiltinNamed(value, ["<", "<=", "compare"]))
    return { direction: "asc", compare: compareTerms };
  if (isBuiltinNamed(value, [">", ">="])) return { direction: "desc", compare: compareTerms };
  if (value instanceof Keyword && value.name === "asc") return { direction: "asc", compare: compareTerms };
  if (value instanceof Keyword && value.name === "desc") return { direction: "desc", compare: compareTerms };
  if (!isLispFunction(value)) {
    throw new LispError(
      "type_error",
      `sort-by: invalid comparator ${describeValue(value)}; use <, >, :asc, :desc or a function of two arguments, as in (sort-by :price > coll)`,
    );
  }
  const f = callbackOf(value, 2, "sort-by", "comparator");
  const compare = (a: unknown, b: unknown): number => {
    const result = callNow(f, "sort-by", a, b);
    if (typeof result === "number") return result < 0 ? -1 : result > 0 ? 1 : 0;
    if (typeof result === "bigint") return result < 0n ? -1 : result > 0n ? 1 : 0;
    // A boolean comparator says whether a goes first; ask the other way round to detect ties.
    if (truthy(result)) return -1;
    return truthy(callNow(f, "sort-by", b, a)) ? 1 : 0;
  };
  return { direction: "custom", compare };
}

function sortBy(...args: unknown[]): unknown[] {
  return sortedPrefix(args, Number.POSITIVE_INFINITY);
}

/**
 * The items of `(sort-by ...args)` in order, or, when `limit` is smaller than their count, the
 * first `limit` of them (or all of them: the caller takes its prefix). `(take 10 (sort-by ...))`
 * (builtins/sorted-prefix.ts) needs only the first ten: where the order is a consistent one
 * (support/first-in-order.ts), it keeps the best ten in one pass instead of sorting everything.
 * Keys, checks and errors are the same either way.
 */
export function sortedPrefix(args: readonly unknown[], limit: number): unknown[] {
  const key = args[0];
  let comparator: unknown;
  let coll: unknown;
  if (args.length === 2) {
    coll = args[1];
  } else {
    comparator = args[1];
    coll = args[2];
    const swapped =
      Array.isArray(comparator) &&
      (isLispFunction(coll) || (coll instanceof Keyword && (coll.name === "asc" || coll.name === "desc")));
    if (swapped) {
      throw new LispError(
        "type_error",
        `sort-by expects (key, comparator, collection) but got the collection before the comparator. Try: (sort-by ${hintText(key)} ${hintText(coll)} collection)`,
      );
    }
  }
  const items = collectionOf(coll, "sort-by", "(sort-by keyfn coll) or (sort-by keyfn comparator coll)");
  const { direction, compare } = comparatorOf(comparator);
  const writer = direction === "custom" ? undefined : keyColumnsOf(key);
  const keyOf = writer === undefined ? sortKeyFunction(key) : undefined;
  const n = items.length;
  active.work(n);
  let keys = new Array<unknown>(n);
  let numeric = true;
  let tuples: ((x: number, y: number) => number) | undefined;
  if (keyOf !== undefined) {
    for (let i = 0; i < n; i++) {
      const k = keyOf(items[i]);
      keys[i] = k;
      // Plain numbers (no NaN) can be compared by subtraction.
      if (numeric && (typeof k !== "number" || Number.isNaN(k))) numeric = false;
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
  } else {
    // Keys made by juxt, never vectors; made into vectors only for an order columns cannot give.
    const columns = keyColumns(writer as KeyColumns, items);
    keyColumnStats.sorts++;
    numeric = n === 0;
    tuples = columnOrder(columns);
    if (tuples === undefined) for (let i = 0; i < n; i++) keys[i] = columns.map((column) => column[i]);
    else if (limit < n && direction !== "custom" && columnsWithoutNaN(columns)) {
      const byColumns = tuples;
      const prefix = firstItemsInOrder(
        items,
        limit,
        direction === "desc" ? (x, y) => byColumns(y, x) : byColumns,
      );
      if (prefix !== undefined) return prefix;
    }
  }
  if (limit < n && direction !== "custom" && keyOf !== undefined) {
    const prefix = firstItemsByKeys(items, keys, numeric, limit, direction === "desc");
    if (prefix !== undefined) return prefix;
  }
  active.allocate(3 * vectorBytes(n));
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n > 1) active.work(n * Math.ceil(Math.log2(n)));
  // Array.prototype.sort is stable: items with equal keys keep their order.
  // Sorted in slices, so the run's deadline holds inside a huge sort (runtime/interruptible.ts).
  if (direction === "asc" || direction === "desc") {
    // Keys made by (juxt :a :b) compare position by position, each position of one kind.
    if (!numeric && tuples === undefined && keyOf !== undefined) tuples = tupleIndexOrder(keys);
    const byColumns = tuples;
    if (byColumns !== undefined) keys = [];
    if (direction === "asc") {
      if (numeric) sortInSlices(order, (x, y) => (keys[x] as number) - (keys[y] as number));
      else if (byColumns !== undefined) sortInSlices(order, byColumns);
      else sortInSlices(order, (x, y) => compareTerms(keys[x], keys[y]));
    } else if (numeric) sortInSlices(order, (x, y) => (keys[y] as number) - (keys[x] as number));
    else if (byColumns !== undefined) sortInSlices(order, (x, y) => byColumns(y, x));
    else sortInSlices(order, (x, y) => compareTerms(keys[y], keys[x]));
  } else {
    sortInSlices(order, (x, y) => compare(keys[x], keys[y]));
  }
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) out[i] = items[order[i] as number];
  return out;
}

// ---------------------------------------------------------------- definitions

const CATEGORY = "Sequences";

export const higherOrderBuiltins: BuiltinDefinition[] = [
  builtin(
    "map",
    [2, 4],
    ["[f coll]", "[f c1 c2]", "[f c1 c2 c3]"],
    "Vector of (f item) for each item; with several collections, f takes one item of each and the shortest decides the length.",
    CATEGORY,
    makeMap("map"),
    [
      ["(map inc [1 2 3])", "[2 3 4]"],
      ['(map :name [{:name "Ann"} {:name "Bo"}])', '["Ann" "Bo"]'],
      ["(map + [1 2 3] [10 20])", "[11 22]"],
    ],
  ),
  builtin(
    "mapv",
    [2, 4],
    ["[f coll]", "[f c1 c2]", "[f c1 c2 c3]"],
    "Same as map (every sequence is a vector).",
    CATEGORY,
    makeMap("mapv"),
    [["(mapv inc [1 2])", "[2 3]"]],
  ),
  builtin(
    "filter",
    [2, 2],
    ["[pred coll]"],
    "Vector of the items for which (pred item) is truthy.",
    CATEGORY,
    (pred: unknown, coll: unknown) => select("filter", pred, coll, true),
    [
      ["(filter even? [1 2 3 4])", "[2 4]"],
      ["(filter :active [{:id 1 :active true} {:id 2}])", "[{:active true :id 1}]"],
    ],
  ),
  builtin(
    "filterv",
    [2, 2],
    ["[pred coll]"],
    "Same as filter.",
    CATEGORY,
    (pred: unknown, coll: unknown) => select("filterv", pred, coll, true),
    [["(filterv odd? [1 2 3])", "[1 3]"]],
  ),
  builtin(
    "remove",
    [2, 2],
    ["[pred coll]"],
    "Vector of the items for which (pred item) is falsy.",
    CATEGORY,
    (pred: unknown, coll: unknown) => select("remove", pred, coll, false),
    [["(remove even? [1 2 3 4])", "[1 3]"]],
  ),
  builtin(
    "keep",
    [2, 2],
    ["[f coll]"],
    "Vector of the non-nil results of (f item) (false is kept).",
    CATEGORY,
    keep,
    [["(keep #(when (odd? %) (* % 10)) [1 2 3])", "[10 30]"]],
  ),
  builtin(
    "keep-indexed",
    [2, 2],
    ["[f coll]"],
    "Vector of the non-nil results of (f index item).",
    CATEGORY,
    keepIndexed,
    [["(keep-indexed (fn [i x] (when (even? i) x)) [:a :b :c])", "[:a :c]"]],
  ),
  builtin(
    "map-indexed",
    [2, 2],
    ["[f coll]"],
    "Vector of (f index item) for each item.",
    CATEGORY,
    mapIndexed,
    [["(map-indexed (fn [i x] [i x]) [:a :b])", "[[0 :a] [1 :b]]"]],
  ),
  builtin(
    "mapcat",
    [2, 2],
    ["[f coll]"],
    "Concatenation of the collections (f item) returns; with a keyword, the field values (vectors spliced).",
    CATEGORY,
    mapcat,
    [
      ["(mapcat (fn [x] [x x]) [1 2])", "[1 1 2 2]"],
      ["(mapcat :tags [{:tags [:a :b]} {:tags [:c]}])", "[:a :b :c]"],
    ],
  ),
  builtin("some", [2, 2], ["[pred coll]"], "The first truthy (pred item), or nil.", CATEGORY, some, [
    ["(some even? [1 3 4])", "true"],
    ['(some :email [{:id 1} {:email "a@b.c"}])', '"a@b.c"'],
  ]),
  builtin(
    "every?",
    [2, 2],
    ["[pred coll]"],
    "True when (pred item) is truthy for every item (true for an empty collection).",
    CATEGORY,
    every,
    [["(every? pos? [1 2 3])", "true"]],
  ),
  builtin(
    "not-any?",
    [2, 2],
    ["[pred coll]"],
    "True when (pred item) is falsy for every item.",
    CATEGORY,
    notAny,
    [["(not-any? neg? [1 2])", "true"]],
  ),
  builtin(
    "not-every?",
    [2, 2],
    ["[pred coll]"],
    "True when (pred item) is falsy for at least one item.",
    CATEGORY,
    notEvery,
    [["(not-every? even? [2 3])", "true"]],
  ),
  builtin(
    "take-while",
    [2, 2],
    ["[pred coll]"],
    "The leading items for which (pred item) is truthy.",
    CATEGORY,
    takeWhile,
    [["(take-while pos? [2 1 0 3])", "[2 1]"]],
  ),
  builtin(
    "drop-while",
    [2, 2],
    ["[pred coll]"],
    "The items from the first one for which (pred item) is falsy.",
    CATEGORY,
    dropWhile,
    [["(drop-while pos? [2 1 0 3])", "[0 3]"]],
  ),
  builtin(
    "split-with",
    [2, 2],
    ["[pred coll]"],
    "[(take-while pred coll) (drop-while pred coll)].",
    CATEGORY,
    splitWith,
    [["(split-with pos? [2 1 0 3])", "[[2 1] [0 3]]"]],
  ),
  builtin(
    "partition-by",
    [2, 2],
    ["[f coll]"],
    "Splits the items into runs where (f item) stays the same.",
    CATEGORY,
    partitionBy,
    [["(partition-by odd? [1 3 2 4 5])", "[[1 3] [2 4] [5]]"]],
  ),
  builtin(
    "sort-by",
    [2, 3],
    ["[keyfn coll]", "[keyfn comparator coll]"],
    "Items sorted by (keyfn item), stable; keyfn may be a keyword, string, path vector or function; comparator may be <, >, :asc, :desc or a 2-argument function.",
    CATEGORY,
    sortBy,
    [
      ["(sort-by :age [{:age 30} {:age 20}])", "[{:age 20} {:age 30}]"],
      ["(sort-by :price > [{:price 5} {:price 9}])", "[{:price 9} {:price 5}]"],
      ['(sort-by count :desc ["a" "abc" "ab"])', '["abc" "ab" "a"]'],
    ],
  ),
];
