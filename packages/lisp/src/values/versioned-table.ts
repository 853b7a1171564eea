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
 * This module must never expose the store or let a caller mutate a version.
 */

interface Store<V> {
  map: Map<unknown, V>;
  current: TableVersion<V>;
}

const ABSENT: unique symbol = Symbol("absent");
type Slot<V> = V | typeof ABSENT;

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
  protected constructor(size: number, entries: Map<unknown, V> | null) {
    this.size = size;
    if (entries !== null) this.store = { map: entries, current: this };
  }

  /** A sibling version of the same subclass, of the given size, not yet attached to a store. */
  protected abstract derive(size: number): this;

  protected tableGet(hashKey: unknown): V | undefined {
    if (this.next === null) return this.store.map.get(hashKey);
    let steps = 0;
    for (let version: TableVersion<V> = this; version.next !== null; version = version.next) {
      if (version.undoKey === hashKey) {
        const slot = version.undoSlot;
        return slot === ABSENT ? undefined : slot;
      }
      if (++steps > WALK_LIMIT) {
        this.reroot();
        return this.store.map.get(hashKey);
      }
    }
    return this.store.map.get(hashKey);
  }

  protected tableHas(hashKey: unknown): boolean {
    if (this.next === null) return this.store.map.has(hashKey);
    let steps = 0;
    for (let version: TableVersion<V> = this; version.next !== null; version = version.next) {
      if (version.undoKey === hashKey) return version.undoSlot !== ABSENT;
      if (++steps > WALK_LIMIT) {
        this.reroot();
        return this.store.map.has(hashKey);
      }
    }
    return this.store.map.has(hashKey);
  }

  /** A version with the same contents in a store of its own (O(size)). */
  protected tableDetached(): this {
    this.reroot();
    const copy = this.derive(this.size);
    copy.store = { map: new Map(this.store.map), current: copy };
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
    // Stored values are never undefined (nil is null), so one lookup tells presence too.
    const found = map.get(hashKey);
    const had = found !== undefined;
    const previous = had ? (found as V) : ABSENT;
    if (had && previous === value) return this;
    const derived = this.derive(had ? this.size : this.size + 1);
    derived.store = this.store;
    this.next = derived;
    this.undoKey = hashKey;
    this.undoSlot = previous;
    map.set(hashKey, value);
    this.store.current = derived;
    return derived;
  }

  /** The version without `hashKey`. */
  protected tableDelete(hashKey: unknown): this {
    if (this.isPinned) return this.tableDetached().tableDelete(hashKey);
    this.reroot();
    const map = this.store.map;
    if (!map.has(hashKey)) return this;
    const derived = this.derive(this.size - 1);
    derived.store = this.store;
    this.next = derived;
    this.undoKey = hashKey;
    this.undoSlot = map.get(hashKey) as V;
    map.delete(hashKey);
    this.store.current = derived;
    return derived;
  }

  /** All entries of this version in store order, as a fresh array owned by the caller's cache. */
  protected tableSnapshot(): ReadonlyArray<[unknown, V]> {
    if (this.cachedSnapshot === undefined) {
      this.reroot();
      // A for-of loop: Array.from over a Map takes V8's generic iterator path, ten times slower.
      const map = this.store.map;
      const entries = new Array<[unknown, V]>(map.size);
      let index = 0;
      for (const entry of map) entries[index++] = entry;
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
