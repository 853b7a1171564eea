/**
 * The items `distinct` has seen so far, compared by `=` through their hash keys (hash-key.ts).
 *
 * `(distinct (map (juxt :region :product) rows))` would hash each row's vector as its canonical
 * text: a string built per row, then flattened and hashed by the Set. A short vector is instead
 * looked up position by position in nested Maps keyed by its items' hash keys. The equality is the
 * same: two vectors are `=` exactly when they have the same length and `=` items, and hash keys
 * are equal exactly when the values are `=`. A vector never equals anything but a vector, so the
 * two kinds of lookup never need to meet.
 *
 * A small set (`(distinct (map #(hash-set (:region %) (:status %)) rows))`) goes the same way
 * through a table of its own, its members in term order: two sets are `=` exactly when their
 * members are, and `=` members take the same place in that order, so equal sets give the same
 * sequence of hash keys.
 */
import { hashKey } from "./hash-key.js";
import { LispSet } from "./lisp-set.js";

/** Vectors up to this long take the nested lookup; longer ones are hashed whole. */
const MAX_TUPLE = 4;

type Level = Map<unknown, unknown>;

export class SeenItems {
  private readonly hashed = new Set<unknown>();
  /** By length: the first items' hash keys lead, level by level, to a set of the last one's. */
  private readonly tuples: Array<Level | undefined> = [];
  /** The same for small sets, by size, over their members in term order. */
  private readonly sets: Array<Level | undefined> = [];

  /** Whether `item` is new (and remembers it); false when an `=` item was added before. */
  add(item: unknown): boolean {
    if (Array.isArray(item) && item.length > 0 && item.length <= MAX_TUPLE) return addPath(this.tuples, item);
    if (item instanceof LispSet && item.size > 0 && item.size <= MAX_TUPLE)
      return addPath(this.sets, item.members());
    const key = hashKey(item);
    if (this.hashed.has(key)) return false;
    this.hashed.add(key);
    return true;
  }
}

/** Looks `items` up position by position in `tables[items.length]`, adding them when new. */
function addPath(tables: Array<Level | undefined>, items: readonly unknown[]): boolean {
  const last = items.length - 1;
  let level = tables[items.length];
  if (level === undefined) {
    level = new Map();
    tables[items.length] = level;
  }
  for (let i = 0; i < last; i++) {
    const key = hashKey(items[i]);
    let next = level.get(key) as Level | undefined;
    if (next === undefined) {
      next = new Map();
      level.set(key, next);
    }
    level = next;
  }
  const key = hashKey(items[last]);
  if (level.has(key)) return false;
  level.set(key, true);
  return true;
}
