/**
 * The first `limit` items of a stable sort, without sorting: `(take 10 (sort-by :amount > rows))`
 * needs ten items, and one pass that keeps the ten best so far (in order, in a small buffer) costs
 * about one comparison per item, where sorting 10,000 rows costs some fourteen.
 *
 * The answer equals the sort's prefix only when the comparison is a consistent order (no key
 * both equal to and ordered against another): plain numbers without NaN, strings, and positions
 * of juxt keys each holding one of those. NaN compares equal to everything under `<` and `>`, so
 * a sort's answer with NaN keys depends on the order of its comparisons: such keys are sorted as
 * before. Ties keep their input order, as the stable sort does: an item replaces a kept one only
 * if it is strictly smaller, and goes after the kept items it equals.
 */
import { active } from "../../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../../runtime/interruptible.js";
import { compareTerms, tupleIndexOrder } from "../../values/term-order.js";
import { vectorBytes } from "./seq-common.js";

/** Prefix selections made instead of a whole sort (tests prove the path ran). */
export const firstInOrderStats = { selections: 0 };

/**
 * Above this many kept items the buffer's insertions (each moves up to `limit` indexes) could
 * cost more than the sort they replace: the whole sort runs.
 */
const MAX_LIMIT = 128;

/** Whether no column holds NaN (columns hold plain numbers or strings: term-order.ts). */
export function columnsWithoutNaN(columns: readonly (readonly unknown[])[]): boolean {
  for (const column of columns) {
    if (typeof column[0] !== "number") continue;
    for (let i = 0; i < column.length; i++) if (Number.isNaN(column[i])) return false;
  }
  return true;
}

/**
 * The first `limit` items in the order `compare` gives their indexes (ties in input order), or
 * undefined when `limit` is out of this path's range (the caller sorts everything).
 */
export function firstItemsInOrder(
  items: readonly unknown[],
  limit: number,
  compare: (x: number, y: number) => number,
): unknown[] | undefined {
  const n = items.length;
  if (limit < 1 || limit > MAX_LIMIT || limit >= n) return undefined;
  firstInOrderStats.selections++;
  // What a sort of the keys would have held: the keys (made by the caller) and the answer.
  active.allocate(vectorBytes(n) + vectorBytes(limit));
  const kept: number[] = [];
  let moves = 0;
  for (let i = 0; i < n; i++) {
    if ((i & CHECK_MASK) === CHECK_MASK) {
      active.work(CHECK_EVERY + moves);
      moves = 0;
    }
    const size = kept.length;
    // Not smaller than the last kept item: it sorts after it (a tie: it came later).
    if (size === limit && compare(i, kept[size - 1] as number) >= 0) continue;
    // After every kept item it does not sort before.
    let low = 0;
    let high = size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(i, kept[middle] as number) < 0) high = middle;
      else low = middle + 1;
    }
    if (size === limit) kept.pop();
    kept.splice(low, 0, i);
    moves += size - low;
  }
  const out = new Array<unknown>(kept.length);
  for (let j = 0; j < kept.length; j++) out[j] = items[kept[j] as number];
  return out;
}

/**
 * The first `limit` items by keys made one per item (`(sort-by :amount > rows)`), or undefined
 * when the keys' order is not a consistent one (see the top) or `limit` is out of range.
 * `numeric`: every key is a plain number, none NaN.
 */
export function firstItemsByKeys(
  items: readonly unknown[],
  keys: readonly unknown[],
  numeric: boolean,
  limit: number,
  descending: boolean,
): unknown[] | undefined {
  if (limit < 1 || limit > MAX_LIMIT || limit >= items.length) return undefined;
  const order = numeric
    ? (x: number, y: number) => (keys[x] as number) - (keys[y] as number)
    : keyOrder(keys);
  if (order === undefined) return undefined;
  return firstItemsInOrder(items, limit, descending ? (x, y) => order(y, x) : order);
}

/** compareTerms over keys that are all strings, or juxt-like vectors without NaN; else undefined. */
function keyOrder(keys: readonly unknown[]): ((x: number, y: number) => number) | undefined {
  if (keys.every((key) => typeof key === "string")) return (x, y) => compareTerms(keys[x], keys[y]);
  for (const key of keys) {
    if (!Array.isArray(key)) return undefined;
    for (const part of key) if (typeof part === "number" && Number.isNaN(part)) return undefined;
  }
  return tupleIndexOrder(keys);
}
