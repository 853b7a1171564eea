/**
 * Maps created by programs. Keys may be anything (keywords, strings, numbers, vectors...);
 * equal keys (by `=`) are the same key. Host maps (plain objects) stay plain objects until a
 * program derives a new map from one.
 *
 * Iteration order is the reference's: keys in term order (see term-order.ts), so `keys`, `vals`,
 * `seq` and printing are deterministic and agree with each other.
 */
import { hashKey } from "./hash-key.js";
import {
  INSPECT,
  type Inspect,
  type InspectOptions,
  inspectCollection,
  jsonKey,
  jsonValue,
} from "./host-view.js";
import type { Keyword } from "./keyword.js";
import { sortInPlace } from "./small-sort.js";
import { TABLE_KIND } from "./table-kind.js";
import { compareTerms } from "./term-order.js";
import { either, FLAT_LIMIT, pairIndex, TableVersion, UNCOUNTED } from "./versioned-table.js";

const hasOwn = Object.prototype.hasOwnProperty;

/** A slot whose key is not its own hash key (2.0, composite keys, NUL-prefixed strings). */
class KeyedEntry {
  constructor(
    readonly key: unknown,
    readonly value: unknown,
  ) {}
}

export type MapEntry = readonly [key: unknown, value: unknown];

/** Map entries in term order of their keys (a map's keys are distinct). */
const compareEntries = (a: MapEntry, b: MapEntry): number => compareTerms(a[0], b[0]);

function slotEntry(hash: unknown, slot: unknown): MapEntry {
  return slot instanceof KeyedEntry ? [slot.key, slot.value] : [hash, slot];
}

export class LispMap extends TableVersion<unknown> {
  private sorted: ReadonlyArray<MapEntry> | undefined;

  private constructor(
    size: number,
    entries: Map<unknown, unknown> | null,
    base?: Readonly<Record<string, unknown>>,
    flat?: unknown[],
  ) {
    super(size, entries, base, flat);
  }

  protected derive(size: number): this {
    return new LispMap(size, null) as this;
  }

  protected override changed(): void {
    super.changed();
    this.sorted = undefined;
  }

  /**
   * A map with the same contents that nobody else holds, to be owned by a running reduce
   * (values/owned-table.ts): never this map itself, and never sharing its storage.
   */
  ownableCopy(): LispMap {
    return this.tableOwnableCopy();
  }

  static empty(): LispMap {
    return new LispMap(0, null, undefined, []);
  }

  /** Builds a map from entries; later entries win, as with `into`. */
  static from(entries: Iterable<MapEntry>): LispMap {
    const builder = new MapBuilder();
    for (const [key, value] of entries) builder.set(key, value);
    return builder.build();
  }

  /**
   * Internal: a map with the entries of a host object (its own string keys), read through to the
   * object instead of copied (versioned-table.ts); its size is counted when first asked.
   */
  static over(object: Readonly<Record<string, unknown>>): LispMap {
    return new LispMap(UNCOUNTED, null, object, []);
  }

  /**
   * Internal: `LispMap.over(object).assoc(key, value)` in one step (one map instead of two): a map
   * reading through to the object with one entry set.
   */
  static overWith(object: Readonly<Record<string, unknown>>, key: unknown, value: unknown): LispMap {
    const hash = hashKey(key);
    const stored = value === undefined ? null : value;
    const slot = hash === key ? stored : new KeyedEntry(key, stored);
    // The same value as the object's own: the map over the object, unchanged (as assoc gives).
    // (A key starting with NUL has another hash: such a key takes the general test, assoc's.)
    if (hash === key && typeof key === "string" && hasOwn.call(object, key)) {
      const current = object[key];
      if ((current === undefined ? null : current) === slot) return LispMap.over(object);
    } else if (hash !== key && typeof key === "string") return LispMap.over(object).assoc(key, value);
    return new LispMap(UNCOUNTED, null, object, [hash, slot]);
  }

  /** Internal: adopts a Map filled by MapBuilder. */
  static adopt(slots: Map<unknown, unknown>): LispMap {
    return new LispMap(slots.size, slots);
  }

  /** Internal: adopts the pairs [hash, slot, ...] of a small map filled by MapBuilder. */
  static small(pairs: unknown[]): LispMap {
    return new LispMap(pairs.length / 2, null, undefined, pairs);
  }

  /** The value stored under a key equal to `key`, or undefined (no flexible lookup here). */
  get(key: unknown): unknown {
    const slot = this.tableGet(hashKey(key));
    return slot instanceof KeyedEntry ? slot.value : slot;
  }

  /** As `get`, for a caller that already holds the hash key (keywords, plain strings). */
  getHashed(hash: unknown): unknown {
    const slot = this.tableGet(hash);
    return slot instanceof KeyedEntry ? slot.value : slot;
  }

  /**
   * Internal: the value under keyword `first`, else under the string `second` (its own hash key),
   * in one lookup: which answered (1, 2; 0 for neither), the value then in `either.slot`.
   */
  findEither(first: Keyword, second: string): 0 | 1 | 2 {
    const found = this.tableEither(first, second);
    if (found !== 0 && either.slot instanceof KeyedEntry) either.slot = either.slot.value;
    return found;
  }

  has(key: unknown): boolean {
    return this.tableHas(hashKey(key));
  }

  hasHashed(hash: unknown): boolean {
    return this.tableHas(hash);
  }

  assoc(key: unknown, value: unknown): LispMap {
    const hash = hashKey(key);
    const stored = value === undefined ? null : value;
    return this.tableSet(hash, hash === key ? stored : new KeyedEntry(key, stored));
  }

  /**
   * Internal: assoc on a map that nobody else can reach (builtins/maps.ts, assocNested): changes
   * this map in place when it can, as assoc on a reduce's owned accumulator does.
   */
  assocUnshared(key: unknown, value: unknown): LispMap {
    const hash = hashKey(key);
    const stored = value === undefined ? null : value;
    return this.tableSetUnshared(hash, hash === key ? stored : new KeyedEntry(key, stored));
  }

  /** Internal: whether this map's entries are a small array of its own, never shared with another map. */
  ownsPairs(): boolean {
    return this.tableOwnsPairs();
  }

  dissoc(key: unknown): LispMap {
    return this.tableDelete(hashKey(key));
  }

  /** An equal map in a store of its own: deriving from it never touches this map's lineage. */
  detached(): LispMap {
    return this.tableDetached();
  }

  /** An equal map that is never derived in place (for values that outlive a run). */
  pinned(): LispMap {
    return this.tablePinned();
  }

  /** The key of a map of exactly one entry (without an array for the entry). */
  onlyKey(): unknown {
    const slot = this.tableOnly(1);
    return slot instanceof KeyedEntry ? slot.key : this.tableOnly(0);
  }

  /** The value of a map of exactly one entry. */
  onlyValue(): unknown {
    const slot = this.tableOnly(1);
    return slot instanceof KeyedEntry ? slot.value : slot;
  }

  /** A map of one entry. */
  static single(key: unknown, value: unknown): LispMap {
    const hash = hashKey(key);
    const stored = value === undefined ? null : value;
    return LispMap.small([hash, hash === key ? stored : new KeyedEntry(key, stored)]);
  }

  /** Entries in key order. The array is shared: never mutate it. */
  entries(): ReadonlyArray<MapEntry> {
    if (this.sorted === undefined) {
      const entries = this.tableEntries(slotEntry);
      if (entries.length > 1) sortInPlace(entries, compareEntries);
      this.sorted = entries;
    }
    return this.sorted;
  }

  get [TABLE_KIND](): "map" {
    return "map";
  }

  /** For `JSON.stringify`: an object of the entries, keys as text (see host-view.ts). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of this.entries()) {
      Object.defineProperty(out, jsonKey(key), {
        value: jsonValue(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  /** For `console.log` and `util.inspect`: `LispMap(2) { :a => 1, "b" => [ 2 ] }`. */
  [INSPECT](depth: number, options: InspectOptions, inspect?: Inspect): string {
    return inspectCollection("LispMap", this.size, this.entries(), depth, options, inspect);
  }
}

/** For tests: how many maps of groups took their pass's table (adopted) or were built anew. */
export const groupMapStats = { adopted: 0, built: 0 };

/** A group of a grouping pass: its key and the hash key (hashKey) it is stored under. */
export interface KeyedGroup {
  readonly key: unknown;
  readonly hash: unknown;
}

/**
 * Internal: the map of groups a grouping pass collected, `groups` in first-seen order and `slots`
 * holding each under its `hash`; `groupValue` gives each group's value (called once per group,
 * in order). The same map (and charges) as a MapBuilder given the keys in that order, but past
 * FLAT_LIMIT groups `slots` itself becomes the map's table, each entry rewritten in place: no
 * second Map is grown entry by entry. `slots` belongs to the map afterwards. A hash that is not
 * hashKey's (the caller erred) gives way to the builder.
 */
export function mapOfGroups<G extends KeyedGroup>(
  slots: Map<unknown, G>,
  groups: readonly G[],
  groupValue: (group: G) => unknown,
): LispMap {
  const table = slots as Map<unknown, unknown>;
  // hashKey of each key, as the builder would call it (its charges: a long text key), and the
  // proof that the pass's hash is hashKey's.
  // (Only a caller's error makes them differ: the builder then hashes such keys a second time.)
  let same = groups.length > FLAT_LIMIT && table.size === groups.length;
  for (let i = 0; same && i < groups.length; i++) {
    const group = groups[i] as G;
    if (hashKey(group.key) !== group.hash) same = false;
  }
  if (same) {
    for (let i = 0; i < groups.length; i++) {
      const { key, hash } = groups[i] as G;
      const stored = groupValue(groups[i] as G) ?? null;
      table.set(hash, hash === key ? stored : new KeyedEntry(key, stored));
    }
    groupMapStats.adopted++;
    return LispMap.adopt(table);
  }
  groupMapStats.built++;
  const builder = new MapBuilder();
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i] as G;
    builder.set(group.key, groupValue(group));
  }
  return builder.build();
}

/**
 * Fills a fresh map in place; the map is only visible once built. Up to FLAT_LIMIT entries it
 * fills a flat array of pairs (a small map needs no JS Map), past that a Map.
 */
export class MapBuilder {
  private pairs: unknown[] | undefined = [];
  private slots: Map<unknown, unknown> | undefined;
  /** Whether a string key was ever set: until then a keyword key has no string twin here. */
  hasStringKeys = false;
  /** Whether a key that is an object (a keyword, maybe) was ever set: until then a string key has no keyword twin here. */
  hasObjectKeys = false;

  set(key: unknown, value: unknown): void {
    if (typeof key === "string") this.hasStringKeys = true;
    else if (typeof key === "object") this.hasObjectKeys = true;
    const hash = hashKey(key);
    const stored = value === undefined ? null : value;
    const slot = hash === key ? stored : new KeyedEntry(key, stored);
    const pairs = this.pairs;
    if (pairs !== undefined) {
      const index = pairIndex(pairs, hash);
      if (index >= 0) {
        pairs[index + 1] = slot;
        return;
      }
      if (pairs.length < 2 * FLAT_LIMIT) {
        pairs.push(hash, slot);
        return;
      }
      const slots = new Map<unknown, unknown>();
      for (let i = 0; i < pairs.length; i += 2) slots.set(pairs[i], pairs[i + 1]);
      this.slots = slots;
      this.pairs = undefined;
    }
    (this.slots as Map<unknown, unknown>).set(hash, slot);
  }

  /** Where the last `find` looked: the hash of its key, and its index in `pairs` (-1 if absent). */
  private foundHash: unknown = undefined;
  private foundIndex = -1;

  /**
   * Internal: `get`, remembering where the key stands, so that `replaceFound` can write a new
   * value there without a second lookup (a merge loop combining values, builtins/merge-with.ts).
   */
  find(key: unknown): unknown {
    const hash = hashKey(key);
    this.foundHash = hash;
    const pairs = this.pairs;
    let slot: unknown;
    if (pairs === undefined) slot = (this.slots as Map<unknown, unknown>).get(hash);
    else {
      const index = pairIndex(pairs, hash);
      this.foundIndex = index;
      slot = index >= 0 ? pairs[index + 1] : undefined;
    }
    return slot instanceof KeyedEntry ? slot.value : slot;
  }

  /**
   * Internal: `set(key, value)` for the key the last `find` found (nothing set in between): the
   * same entry written, where find left it.
   */
  replaceFound(key: unknown, value: unknown): void {
    if (typeof key === "string") this.hasStringKeys = true;
    else if (typeof key === "object") this.hasObjectKeys = true;
    const hash = this.foundHash;
    const stored = value === undefined ? null : value;
    const slot = hash === key ? stored : new KeyedEntry(key, stored);
    const pairs = this.pairs;
    if (pairs !== undefined) pairs[this.foundIndex + 1] = slot;
    else (this.slots as Map<unknown, unknown>).set(hash, slot);
  }

  private slot(key: unknown): unknown {
    const hash = hashKey(key);
    const pairs = this.pairs;
    if (pairs === undefined) return (this.slots as Map<unknown, unknown>).get(hash);
    const index = pairIndex(pairs, hash);
    return index >= 0 ? pairs[index + 1] : undefined;
  }

  get(key: unknown): unknown {
    const slot = this.slot(key);
    return slot instanceof KeyedEntry ? slot.value : slot;
  }

  has(key: unknown): boolean {
    return this.slot(key) !== undefined;
  }

  get size(): number {
    return this.pairs !== undefined ? this.pairs.length / 2 : (this.slots as Map<unknown, unknown>).size;
  }

  build(): LispMap {
    return this.pairs !== undefined
      ? LispMap.small(this.pairs)
      : LispMap.adopt(this.slots as Map<unknown, unknown>);
  }
}
