/**
 * A persistent hash table with O(1) reads and writes for the way programs use maps: each new
 * version derived from the latest one (`(reduce (fn [m x] (assoc m ...)) {} rows)`).
 *
 * All versions of one lineage share a single JS `Map` (the store), which always holds the
 * contents of exactly one version, the "current" one. Every other version keeps one undo record:
 * the single slot in which it differs from a neighbour that is one step closer to the current
 * version (Baker's "shallow binding", the technique behind rerooted persistent arrays).
 * - Deriving from the current version mutates the store in place and leaves an undo record on the
 *   old version: O(1).
 * - Reading an old version walks its undo chain, or, when the chain is long, reroots: replays the
 *   chain backwards so that the old version becomes current. Older code paths stay correct, they
 *   just pay for their distance from the current version.
 * Nothing here is visible to programs: every version behaves as an immutable value. Iteration
 * goes through `snapshot()`, a copied array, so a table can be iterated while new versions are
 * derived from it (the store changes under a live Map iterator otherwise).
 *
 * The price of shallow binding: an old version points to the newer one, so while an old version
 * stays reachable, so does every version derived after it. Two things keep that bounded:
 * - a version that outlives its program (a `def`, a session's `*1`) is *pinned*: copied into a
 *   store of its own and never given an undo record; deriving from it copies first;
 * - builtins that thread an accumulator (`reduce`) start from a detached copy of the initial
 *   value, so the caller's reference to it does not hold the whole history alive.
 *
 * A version may also read through to a *base*: a host object (a tool result's row) that a program
 * derives maps from, `(assoc row :total 3)`. Copying the row would cost a write per field for
 * every row; instead the version holds only what the program changed, over the row: a key it
 * lacks is read from the base, and a base key the program removed is marked DELETED. The base is
 * never written, and every version derived from one shares it, so undo records and rerooting work
 * on the store alone, as before. A small version over a base does not count its entries until
 * asked (UNCOUNTED): `(update row :amount * 1.2)` then costs no walk over the row's keys, and most
 * such maps are only read.
 *
 * Small versions (a literal `{:id 1 :total 3}`, a row with a field or two changed) skip the store
 * altogether: their entries are a flat array, copied on each derivation (FLAT_LIMIT below).
 *
 * This module must never expose the store or let a caller mutate a version.
 */

import { ESCAPED_STRING } from "./hash-key.js";
import { hostKeys } from "./map-entries.js";
import { ownedTable } from "./owned-table.js";
import { chargeWalk } from "./walk-meter.js";

/** A base key removed from a version that reads through to a base. */
const DELETED: unique symbol = Symbol("deleted");

interface Store<V> {
  map: Map<unknown, V | typeof DELETED>;
  current: TableVersion<V>;
  /** The store of a pinned version, never derived in place (see above); it has it to itself. */
  pinned: boolean;
}

const ABSENT: unique symbol = Symbol("absent");
/** What the store holds for a key: a value, DELETED, or nothing (ABSENT). */
type Slot<V> = V | typeof DELETED | typeof ABSENT;

const hasOwn = Object.prototype.hasOwnProperty;

/** Where tableEither leaves the slot it found (read at once by the caller). */
export const either: { slot: unknown } = { slot: undefined };

/**
 * How a version differs from `next`, its neighbour one step closer to the current version: the
 * store held `slot` under `key` when this version was current.
 */
class UndoRecord<V> {
  constructor(
    public next: TableVersion<V>,
    readonly key: unknown,
    public slot: Slot<V>,
  ) {}
}

/** Beyond this many undo steps a read reroots instead of walking. */
const WALK_LIMIT = 16;

/**
 * Small versions keep their entries (or, over a base, their changes) in a flat array of at most
 * this many [hash, slot] pairs and no store: a map literal or a row with a field or two changed
 * costs one array instead of a JS Map, and deriving one copies a few slots.
 */
export const FLAT_LIMIT = 8;

/**
 * The size of a small version over a base that has not counted the base's keys yet: `size` counts
 * them on first use (the base's keys, and the pairs that add to or hide them).
 */
export const UNCOUNTED = -1;

/** A size `delta` away from `size`, unknown when `size` is (UNCOUNTED). */
function sizeBy(size: number, delta: number): number {
  return size < 0 ? UNCOUNTED : size + delta;
}

/**
 * The own key of a base that a hash key names: the hash itself, or for a string starting with NUL
 * (escaped by hashKey, hash-key.ts) the string; undefined for a composite's hash, which no base
 * holds.
 */
function baseKeyOf(hashKey: string): string | undefined {
  if (hashKey.charCodeAt(0) !== 0) return hashKey;
  return hashKey.startsWith(ESCAPED_STRING) ? hashKey.slice(ESCAPED_STRING.length) : undefined;
}

/** The hash key of a base's own key (the inverse of baseKeyOf). */
function hashOfBaseKey(key: string): string {
  return key.charCodeAt(0) === 0 ? ESCAPED_STRING + key : key;
}

/** Hash keys as a JS Map compares them (SameValueZero): NaN equals NaN. */
export function sameKey(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b));
}

/**
 * Where `hashKey` stands in pairs of [hash, slot] (the index of its hash), or -1. Only NaN is not
 * equal to itself, so any other key is found by `===` alone, without sameKey's type tests on
 * every pair it passes.
 */
export function pairIndex(pairs: readonly unknown[], hashKey: unknown): number {
  if (typeof hashKey !== "number" || !Number.isNaN(hashKey)) {
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === hashKey) return i;
    return -1;
  }
  for (let i = 0; i < pairs.length; i += 2) if (sameKey(pairs[i], hashKey)) return i;
  return -1;
}

/**
 * A copy of a small version's pairs with one more pair at the end, allocated at its final length:
 * `slice` then `push` would grow the copy to room for some twenty slots, and a program that
 * changes a field of every row of a table makes one of these per row.
 */
function pairsWith(pairs: readonly unknown[], hashKey: unknown, slot: unknown): unknown[] {
  const n = pairs.length;
  const copy = new Array<unknown>(n + 2);
  for (let i = 0; i < n; i++) copy[i] = pairs[i];
  copy[n] = hashKey;
  copy[n + 1] = slot;
  return copy;
}

/** The pairs of a small version as a store's Map, DELETED marks included. */
function pairsMap<V>(pairs: readonly unknown[]): Map<unknown, V | typeof DELETED> {
  const map = new Map<unknown, V | typeof DELETED>();
  for (let i = 0; i < pairs.length; i += 2) map.set(pairs[i], pairs[i + 1] as V | typeof DELETED);
  return map;
}

export abstract class TableVersion<V> {
  /**
   * Number of entries in this version (changed only in place, on an owned accumulator), or
   * UNCOUNTED (a small version over a base: see `size`).
   */
  private count: number;
  private store!: Store<V>;
  /** A small version's pairs [hash, slot, hash, slot...] (slots may be DELETED); undefined otherwise. */
  private flat: unknown[] | undefined;
  /** Read through for keys this version lacks (own string keys of a host object); never written. */
  private base: Readonly<Record<string, unknown>> | undefined;
  /**
   * Undo record: how this version differs from its neighbour one step closer to the current
   * version (null when this version is current). One field for the three parts: most versions
   * are small or current and never get one, and every map carries the field.
   */
  private undo: UndoRecord<V> | null = null;

  /**
   * `entries` starts a new lineage that owns that Map from now on; `flat` makes a small version
   * (pairs of hash and slot, owned from now on); with neither, a version derived by
   * `tableSet`/`tableDelete`, which attach it right away. `base` is read through (see above).
   */
  protected constructor(
    size: number,
    entries: Map<unknown, V> | null,
    base?: Readonly<Record<string, unknown>>,
    flat?: unknown[],
  ) {
    this.count = size;
    this.base = base;
    this.flat = flat;
    if (entries !== null) this.store = { map: entries, current: this, pinned: false };
  }

  /** Number of entries in this version. */
  get size(): number {
    const count = this.count;
    return count >= 0 ? count : this.countOverBase();
  }

  /**
   * The size of a small version over a base, counted now and kept: the base's own keys, plus the
   * pairs under keys the base lacks, minus those that hide a base key (DELETED marks).
   */
  private countOverBase(): number {
    const flat = this.flat as unknown[];
    let count = hostKeys(this.base as Readonly<Record<string, unknown>>).length;
    // A host object may have a million keys: listing them is one native step, charged after.
    if (count > 1024) chargeWalk(count);
    for (let i = 0; i < flat.length; i += 2) {
      const inBase = this.baseGet(flat[i]) !== undefined;
      if (flat[i + 1] === DELETED) {
        if (inBase) count--;
      } else if (!inBase) count++;
    }
    this.count = count;
    return count;
  }

  /** A sibling version of the same subclass, of the given size, not yet attached to a store. */
  protected abstract derive(size: number): this;

  /** A sibling reading through to the same base. */
  private successor(size: number): this {
    const derived = this.derive(size);
    derived.base = this.base;
    return derived;
  }

  protected tableGet(hashKey: unknown): V | undefined {
    const flat = this.flat;
    if (flat !== undefined) {
      const index = pairIndex(flat, hashKey);
      if (index < 0) return this.baseGet(hashKey);
      const slot = flat[index + 1];
      return slot === DELETED ? undefined : (slot as V);
    }
    if (this.undo === null) return this.currentGet(hashKey);
    let steps = 0;
    for (let undo: UndoRecord<V> | null = this.undo; undo !== null; undo = undo.next.undo) {
      if (undo.key === hashKey) return this.slotValue(hashKey, undo.slot);
      if (++steps > WALK_LIMIT) {
        this.reroot();
        return this.currentGet(hashKey);
      }
    }
    return this.currentGet(hashKey);
  }

  /**
   * tableGet of `first`, or when that finds nothing, of `second`, in one pass over a small version's
   * pairs: 1 or 2 for the key that answered (its slot then in `either.slot`), 0 for neither.
   * `first` must not be a string (a keyword: no base holds it); `second` is also read from the base.
   */
  protected tableEither(first: unknown, second: string): 0 | 1 | 2 {
    const flat = this.flat;
    if (flat === undefined) {
      let slot = this.tableGet(first);
      if (slot !== undefined) {
        either.slot = slot;
        return 1;
      }
      slot = this.tableGet(second);
      if (slot === undefined) return 0;
      either.slot = slot;
      return 2;
    }
    let atSecond = -1;
    for (let i = 0; i < flat.length; i += 2) {
      const key = flat[i];
      if (key === first) {
        const slot = flat[i + 1];
        if (slot !== DELETED) {
          either.slot = slot;
          return 1;
        }
      } else if (key === second) atSecond = i;
    }
    const slot = atSecond >= 0 ? flat[atSecond + 1] : this.baseGet(second);
    if (slot === undefined || slot === DELETED) return 0;
    either.slot = slot;
    return 2;
  }

  protected tableHas(hashKey: unknown): boolean {
    return this.tableGet(hashKey) !== undefined;
  }

  /** The value under `hashKey` in the store's current contents (stored values are never undefined). */
  private currentGet(hashKey: unknown): V | undefined {
    const slot = this.store.map.get(hashKey);
    if (slot === undefined) return this.baseGet(hashKey);
    return slot === DELETED ? undefined : slot;
  }

  /** What a store slot (or an undo record of one) means for `hashKey`. */
  private slotValue(hashKey: unknown, slot: Slot<V>): V | undefined {
    if (slot === ABSENT) return this.baseGet(hashKey);
    return slot === DELETED ? undefined : slot;
  }

  private baseGet(hashKey: unknown): V | undefined {
    const base = this.base;
    if (base === undefined || typeof hashKey !== "string") return undefined;
    const key = baseKeyOf(hashKey);
    if (key === undefined || !hasOwn.call(base, key)) return undefined;
    const value = base[key];
    return (value === undefined ? null : value) as V;
  }

  /** A version with the same contents in a store of its own (O(size)); a small version is its own. */
  protected tableDetached(): this {
    if (this.flat !== undefined) return this;
    this.reroot();
    const copy = this.successor(this.count);
    copy.store = { map: new Map(this.store.map), current: copy, pinned: false };
    return copy;
  }

  /** A copy in storage of its own, small versions included (tableDetached returns those as they are). */
  protected tableOwnableCopy(): this {
    if (this.flat === undefined) return this.tableDetached();
    const copy = this.successor(this.count);
    copy.flat = this.flat.slice();
    return copy;
  }

  /** Like tableDetached, and the copy is never derived in place: for values that outlive a run. */
  protected tablePinned(): this {
    if (this.flat !== undefined || this.store.pinned) return this;
    const copy = this.tableDetached();
    copy.store.pinned = true;
    return copy;
  }

  /** A small version with these pairs, or a new lineage when they are too many. */
  private withPairs(size: number, pairs: unknown[]): this {
    const derived = this.successor(size);
    derived.flat = pairs;
    if (pairs.length <= 2 * FLAT_LIMIT) return derived;
    // A store's version always knows its size: counted while the pairs are still flat.
    if (size < 0) derived.countOverBase();
    derived.flat = undefined;
    derived.store = { map: pairsMap<V>(pairs), current: derived, pinned: false };
    return derived;
  }

  /** Whether this version is the owned accumulator of a running reduce (values/owned-table.ts). */
  private owned(): boolean {
    return (
      this === ownedTable.current && this.undo === null && (this.flat !== undefined || !this.store.pinned)
    );
  }

  /** Caches of entries are out of date after a change in place. */
  protected changed(): void {}

  /** tableSet on the owned accumulator: the same contents, in this version itself. */
  private setInPlace(hashKey: unknown, value: V): this {
    const flat = this.flat;
    if (flat !== undefined) {
      const index = pairIndex(flat, hashKey);
      if (index >= 0) {
        const slot = flat[index + 1];
        if (slot === value) return this;
        flat[index + 1] = value;
        if (slot === DELETED) this.count = sizeBy(this.count, 1);
        this.changed();
        return this;
      }
      const inBase = this.baseGet(hashKey);
      if (inBase !== undefined && inBase === value) return this;
      if (flat.length < 2 * FLAT_LIMIT) {
        // Grown to its new length at once: push would give a two-pair array room for ten.
        this.flat = pairsWith(flat, hashKey, value);
      } else {
        // A store's version always knows its size: counted before the pairs leave.
        if (this.count < 0) this.countOverBase();
        const map = pairsMap<V>(flat);
        map.set(hashKey, value);
        this.store = { map, current: this, pinned: false };
        this.flat = undefined;
      }
      if (inBase === undefined) this.count = sizeBy(this.count, 1);
      this.changed();
      return this;
    }
    const map = this.store.map;
    if (this.base === undefined) {
      // No base, so no DELETED marks: the store's own size says whether the key is new.
      const before = map.size;
      map.set(hashKey, value);
      if (map.size !== before) this.count++;
      this.changed();
      return this;
    }
    const stored = map.get(hashKey);
    const previous = stored === undefined ? this.baseGet(hashKey) : stored === DELETED ? undefined : stored;
    if (previous !== undefined && previous === value) return this;
    map.set(hashKey, value);
    if (previous === undefined) this.count++;
    this.changed();
    return this;
  }

  /** tableDelete on the owned accumulator. */
  private deleteInPlace(hashKey: unknown): this {
    if (this.tableGet(hashKey) === undefined) return this;
    const inBase = this.baseGet(hashKey) !== undefined;
    const flat = this.flat;
    if (flat !== undefined) {
      const index = pairIndex(flat, hashKey);
      if (index >= 0 && !inBase) flat.splice(index, 2);
      else if (index >= 0) flat[index + 1] = DELETED;
      else if (flat.length < 2 * FLAT_LIMIT) flat.push(hashKey, DELETED);
      else return this.tableDeleteDerived(hashKey);
    } else if (inBase) this.store.map.set(hashKey, DELETED);
    else this.store.map.delete(hashKey);
    this.count = sizeBy(this.count, -1);
    this.changed();
    return this;
  }

  /**
   * tableSet on a version that only its holder can reach (a map a reduce's own update-in made below
   * the accumulator, maps.ts assocNested): in place, as on the owned accumulator.
   */
  protected tableSetUnshared(hashKey: unknown, value: V): this {
    if (this.undo !== null || (this.flat === undefined && this.store.pinned))
      return this.tableSet(hashKey, value);
    return this.setInPlace(hashKey, value);
  }

  /** Whether this version keeps its entries in a small array of its own (copied by every derivation). */
  protected tableOwnsPairs(): boolean {
    return this.flat !== undefined;
  }

  /** The version with `hashKey` set to `value`. */
  protected tableSet(hashKey: unknown, value: V): this {
    if (this.owned()) return this.setInPlace(hashKey, value);
    const flat = this.flat;
    if (flat !== undefined) {
      const index = pairIndex(flat, hashKey);
      if (index >= 0) {
        const slot = flat[index + 1];
        if (slot === value) return this;
        const pairs = flat.slice();
        pairs[index + 1] = value;
        return this.withPairs(slot === DELETED ? sizeBy(this.count, 1) : this.count, pairs);
      }
      const inBase = this.baseGet(hashKey);
      if (inBase !== undefined && inBase === value) return this;
      return this.withPairs(
        inBase !== undefined ? this.count : sizeBy(this.count, 1),
        pairsWith(flat, hashKey, value),
      );
    }
    if (this.store.pinned) return this.tableDetached().tableSet(hashKey, value);
    this.reroot();
    const map = this.store.map;
    const stored = map.get(hashKey);
    const previous = stored === undefined ? this.baseGet(hashKey) : stored === DELETED ? undefined : stored;
    const had = previous !== undefined;
    if (had && previous === value) return this;
    const derived = this.successor(had ? this.count : this.count + 1);
    derived.store = this.store;
    this.undo = new UndoRecord<V>(derived, hashKey, stored === undefined ? ABSENT : stored);
    map.set(hashKey, value);
    this.store.current = derived;
    return derived;
  }

  /** The version without `hashKey`. */
  protected tableDelete(hashKey: unknown): this {
    if (this.owned()) return this.deleteInPlace(hashKey);
    return this.tableDeleteDerived(hashKey);
  }

  private tableDeleteDerived(hashKey: unknown): this {
    const inBase = this.baseGet(hashKey) !== undefined;
    const flat = this.flat;
    if (flat !== undefined) {
      const index = pairIndex(flat, hashKey);
      if (index >= 0) {
        if (flat[index + 1] === DELETED) return this;
        const pairs = flat.slice();
        // A key of the base stays hidden by a mark; any other key simply leaves the pairs.
        if (inBase) pairs[index + 1] = DELETED;
        else pairs.splice(index, 2);
        return this.withPairs(sizeBy(this.count, -1), pairs);
      }
      if (!inBase) return this;
      return this.withPairs(sizeBy(this.count, -1), pairsWith(flat, hashKey, DELETED));
    }
    if (this.store.pinned) return this.tableDetached().tableDelete(hashKey);
    this.reroot();
    const map = this.store.map;
    const stored = map.get(hashKey);
    const present = stored === undefined ? inBase : stored !== DELETED;
    if (!present) return this;
    const derived = this.successor(this.count - 1);
    derived.store = this.store;
    this.undo = new UndoRecord<V>(derived, hashKey, stored === undefined ? ABSENT : stored);
    if (inBase) map.set(hashKey, DELETED);
    else map.delete(hashKey);
    this.store.current = derived;
    return derived;
  }

  /**
   * The hash key (part 0) or the stored slot (part 1) of the entry of a version of size 1,
   * without making (and keeping) a snapshot: merging many one-entry maps reads each once.
   */
  protected tableOnly(part: 0 | 1): unknown {
    const flat = this.flat;
    if (flat !== undefined && flat.length === 2 && this.base === undefined) return flat[part];
    return (this.tableSnapshot()[0] as [unknown, V])[part];
  }

  /** All entries of this version in store order, as a fresh array owned by the caller's cache. */
  protected tableSnapshot(): ReadonlyArray<[unknown, V]> {
    return this.tableEntries((hash, slot) => [hash, slot]);
  }

  /**
   * `make(hash, slot)` of every entry of this version, in store order, as a fresh array: a map's
   * entries or a set's members made straight from the table, with no pair per entry on the way
   * (a Map's iterator makes one, and its result object, for every entry it yields).
   */
  protected tableEntries<T>(make: (hash: unknown, slot: V) => T): T[] {
    const entries = new Array<T>(this.size);
    let index = 0;
    const flat = this.flat;
    if (flat !== undefined) {
      for (let i = 0; i < flat.length; i += 2)
        if (flat[i + 1] !== DELETED) entries[index++] = make(flat[i], flat[i + 1] as V);
    } else {
      this.reroot();
      this.store.map.forEach((slot, hash) => {
        if (slot !== DELETED) entries[index++] = make(hash, slot as V);
      });
    }
    const base = this.base;
    if (base !== undefined) {
      // Which keys the base must not supply (set or deleted by the program).
      const map = flat === undefined ? this.store.map : undefined;
      const overridden = (key: string): boolean => {
        const hash = hashOfBaseKey(key);
        if (map !== undefined) return map.has(hash);
        for (let i = 0; i < (flat as unknown[]).length; i += 2)
          if ((flat as unknown[])[i] === hash) return true;
        return false;
      };
      for (const key of Object.keys(base)) {
        if (overridden(key)) continue;
        const value = base[key];
        entries[index++] = make(key, (value === undefined ? null : value) as V);
      }
    }
    return entries;
  }

  /** Makes this version the current one by replaying undo records from the current version back. */
  private reroot(): void {
    if (this.undo === null) return;
    const path: Array<TableVersion<V>> = [];
    for (let version: TableVersion<V> = this; version.undo !== null; version = version.undo.next)
      path.push(version);
    const map = this.store.map;
    // Walk from the version nearest the current one back to `this`, swapping each undo record:
    // after the step, `version` is current and its old neighbour holds the inverse record.
    for (let index = path.length - 1; index >= 0; index--) {
      const version = path[index] as TableVersion<V>;
      const undo = version.undo as UndoRecord<V>;
      const neighbour = undo.next;
      const key = undo.key;
      const slot = undo.slot;
      const had = map.has(key);
      // The record itself moves to the neighbour, turned around: no allocation while rerooting.
      undo.next = version;
      undo.slot = had ? (map.get(key) as V) : ABSENT;
      neighbour.undo = undo;
      if (slot === ABSENT) map.delete(key);
      else map.set(key, slot);
      version.undo = null;
    }
    this.store.current = this;
  }
}
