/**
 * Sort keys read as columns. `(sort-by (juxt :region :status :id) rows)` would make a small vector
 * per row only for the sort to take each apart again some 17 times (at 100,000 rows), and keeping
 * 100,000 live vectors makes every young-generation collection during the sort copy them all. A
 * function made by `juxt` therefore also carries a writer that puts the value of each of its parts
 * for one item into one array per part: the same calls in the same order, the same charge, the
 * same values as the vector it would return, and, should a part answer with a promise, the very
 * promise the function itself would have returned (sort-by then refuses it as it always did).
 */
import type { MaybePromise } from "../../runtime/async.js";

export const KEY_COLUMNS: unique symbol = Symbol("key columns");

/** For tests only (results never depend on it): sorts whose keys were read as columns. */
export const keyColumnStats = { sorts: 0 };

export interface KeyColumns {
  /** How many values the function makes per item (one column each). */
  readonly width: number;
  /** Writes the item's values at `index` of each column; undefined when done, else the promise. */
  write(item: unknown, columns: unknown[][], index: number): MaybePromise<undefined | unknown[]>;
}

/** The column writer of a function made by juxt, or undefined for any other value. */
export function keyColumnsOf(fn: unknown): KeyColumns | undefined {
  if (typeof fn !== "function") return undefined;
  return (fn as { [KEY_COLUMNS]?: KeyColumns })[KEY_COLUMNS];
}
