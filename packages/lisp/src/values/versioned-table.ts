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
 * A lineage may also read through to a *base*: a host object (a tool result's row) that a program
 * derives maps from, `(assoc row :total 3)`. Copying the row into the store would cost a write
 * per field for every row; instead the store holds only what the program changed, over the row:
 * a key missing from the store is read from the base, and a base key the program removed is
 * marked DELETED in the store. The base is never written, and every version of the lineage shares
 * it, so undo records and rerooting work on the store alone, as before.
 *
 * This module must never expose the store or let a caller mutate a version.
 */

/** A base key removed from a lineage that reads through to a base. */
const DELETED: unique symbol = Symbol("deleted");

interface Store<V> {
  map: Map<unknown, V | typeof DELETED>;
  current: TableVersion<V>;
  /** Read through for keys the map lacks (own string keys of a host object); never written. */
  readonly base: Readonly<Record<string, unknown>> | undefined;
}

const ABSENT: unique symbol = Symbol("absent");
/** What the store holds for a key: a value, DELETED, or nothing (ABSENT). */
type Slot<V> = V | typeof DELETED | typeof ABSENT;

const hasOwn = Object.prototype.hasOwnProperty;

/** Beyond this many undo steps a read reroots instead of walking. */
const WALK_LIMIT = 16;

export abstract class TableVersion<V> {
  /** Number of entries in this version. */
  readonly size: number;
  private store!: Store<V>;
  /** Undo record: how this version differs from `next` (null when this version is current). */
  private next: TableVersion<V> | null = null;
  private undoKey: unknown = undefined;
  private undoSlot: Slot<V> = ABSENT;
  private cachedSnapshot: Array<[unknown, V]> | undefined;
  /** Pinned versions are never derived in place (see above). */
  private isPinned = false;

  /**
   * `entries` starts a new lineage that owns that Map from now on; null builds a version derived
   * by `tableSet`/`tableDelete`, which attach it to their store right away.
   */
  protected constructor(
    size: number,
    entries: Map<unknown, V> | null,
    base?: Readonly<Record<string, unknown>>,
  ) {
    this.size = size;
    if (entries !== null) this.store = { map: entries, current: this, base };
  }

  /** A sibling version of the same subclass, of the given size, not yet attached to a store. */
  protected abstract derive(size: number): this;

  protected tableGet(hashKey: unknown): V | undefined {
    if (this.next === null) return this.currentGet(hashKey);
    let steps = 0;
    for (let version: TableVersion<V> = this; version.next !== null; version = version.next) {
      if (version.undoKey === hashKey) return this.slotValue(hashKey, version.undoSlot);
      if (++steps > WALK_LIMIT) {
        this.reroot();
        return this.currentGet(hashKey);
      }
    }
    return this.currentGet(hashKey);
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
    const base = this.store.base;
    if (base === undefined || typeof hashKey !== "string" || !hasOwn.call(base, hashKey)) return undefined;
    const value = base[hashKey];
    return (value === undefined ? null : value) as V;
  }

  /** A version with the same contents in a store of its own (O(size)). */
  protected tableDetached(): this {
    this.reroot();
    const copy = this.derive(this.size);
    copy.store = { map: new Map(this.store.map), current: copy, base: this.store.base };
    return copy;
  }

  /** Like tableDetached, and the copy is never derived in place: for values that outlive a run. */
  protected tablePinned(): this {
    if (this.isPinned) return this;
    const copy = this.tableDetached();
    copy.isPinned = true;
    return copy;
  }

  /** The version with `hashKey` set to `value`. */
  protected tableSet(hashKey: unknown, value: V): this {
    if (this.isPinned) return this.tableDetached().tableSet(hashKey, value);
    this.reroot();
    const map = this.store.map;
    const stored = map.get(hashKey);
    const previous = stored === undefined ? this.baseGet(hashKey) : stored === DELETED ? undefined : stored;
    const had = previous !== undefined;
    if (had && previous === value) return this;
    const derived = this.derive(had ? this.size : this.size + 1);
    derived.store = this.store;
    this.next = derived;
    this.undoKey = hashKey;
    this.undoSlot = stored === undefined ? ABSENT : stored;
    map.set(hashKey, value);
    this.store.current = derived;
    return derived;
  }

  /** The version without `hashKey`. */
  protected tableDelete(hashKey: unknown): this {
    if (this.isPinned) return this.tableDetached().tableDelete(hashKey);
    this.reroot();
    const map = this.store.map;
    const stored = map.get(hashKey);
    const present = stored === undefined ? this.baseGet(hashKey) !== undefined : stored !== DELETED;
    if (!present) return this;
    const derived = this.derive(this.size - 1);
    derived.store = this.store;
    this.next = derived;
    this.undoKey = hashKey;
    this.undoSlot = stored === undefined ? ABSENT : stored;
    // A key of the base stays hidden by a mark; any other key simply leaves the store.
    if (this.baseGet(hashKey) !== undefined) map.set(hashKey, DELETED);
    else map.delete(hashKey);
    this.store.current = derived;
    return derived;
  }

  /** All entries of this version in store order, as a fresh array owned by the caller's cache. */
  protected tableSnapshot(): ReadonlyArray<[unknown, V]> {
    if (this.cachedSnapshot === undefined) {
      this.reroot();
      // A for-of loop: Array.from over a Map takes V8's generic iterator path, ten times slower.
      const { map, base } = this.store;
      const entries = new Array<[unknown, V]>(this.size);
      let index = 0;
      for (const entry of map) if (entry[1] !== DELETED) entries[index++] = entry as [unknown, V];
      if (base !== undefined) {
        for (const key of Object.keys(base)) {
          if (map.has(key)) continue;
          const value = base[key];
          entries[index++] = [key, (value === undefined ? null : value) as V];
        }
      }
      this.cachedSnapshot = entries;
    }
    return this.cachedSnapshot;
  }

  /** Makes this version the current one by replaying undo records from the current version back. */
  private reroot(): void {
    if (this.next === null) return;
    const path: Array<TableVersion<V>> = [];
    for (let version: TableVersion<V> = this; version.next !== null; version = version.next)
      path.push(version);
    const map = this.store.map;
    // Walk from the version nearest the current one back to `this`, swapping each undo record:
    // after the step, `version` is current and its old neighbour holds the inverse record.
    for (let index = path.length - 1; index >= 0; index--) {
      const version = path[index] as TableVersion<V>;
      const neighbour = version.next as TableVersion<V>;
      const key = version.undoKey;
      const slot = version.undoSlot;
      const had = map.has(key);
      neighbour.next = version;
      neighbour.undoKey = key;
      neighbour.undoSlot = had ? (map.get(key) as V) : ABSENT;
      if (slot === ABSENT) map.delete(key);
      else map.set(key, slot);
      version.next = null;
      version.undoKey = undefined;
      version.undoSlot = ABSENT;
    }
    this.store.current = this;
  }
}
