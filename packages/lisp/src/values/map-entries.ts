/**
 * A map's entries in key order, for both map representations (program maps and host objects),
 * and a host object's keys. Its own module so that term order (which compares maps by their
 * entries) needs neither the LispMap class nor the rest of the map protocol (map-access.ts
 * re-exports it).
 *
 * A host object's entries are cached: sorting its keys again for every comparison would make
 * `(sort-by identity rows)` or `=` in a loop pay a sort per visit (three times the time to sort
 * 20,000 rows). The keys of a large object are cached too: listing half a million keys takes V8
 * a fifth of a second, and `count`, `merge` and the like ask for them more than once.
 *
 * But host data is the host's: it may change between runs, and a tool may hand back an object it
 * changed since the program last read it. So a cached answer holds for one epoch only
 * (host-epoch.ts: it ends whenever host code may have run). In a later epoch the object is read
 * again, in linear time and metered like any walk (a run's clock is read every 1,024 values): when
 * its keys are the same (in the same order) as when its entries were made, their sorted order is
 * reused, and so are the entries when no value changed either. Listing the keys is one native
 * step, as sorting them the first time is.
 */
import { hostEpoch } from "./host-epoch.js";
import type { LispMap, MapEntry } from "./lisp-map.js";
import type { PlainObject } from "./plain-object.js";
import { isLispMap } from "./table-kind.js";
import { chargeWalk } from "./walk-meter.js";

/** What is known of one host object, and in which epoch each part was read. */
interface HostRecord {
  keysEpoch: number;
  keys: readonly string[];
  entriesEpoch: number;
  entries: ReadonlyArray<MapEntry>;
  /** The keys `entries` were made from, to tell in a later epoch whether they changed. */
  entriesKeys: readonly string[];
}

/** Objects with more keys than this have their key list kept for the epoch. */
const LARGE = 1024;

const records = new WeakMap<PlainObject, HostRecord>();

function listKeys(host: PlainObject, record: HostRecord | undefined): readonly string[] {
  const epoch = hostEpoch();
  if (record !== undefined && record.keysEpoch === epoch) return record.keys;
  const keys = Object.keys(host);
  if (record !== undefined) {
    record.keys = keys;
    record.keysEpoch = epoch;
  } else if (keys.length > LARGE) {
    records.set(host, { keysEpoch: epoch, keys, entriesEpoch: -1, entries: [], entriesKeys: [] });
  }
  return keys;
}

/** A host object's own enumerable keys, in the object's order. Shared: never mutate. */
export function hostKeys(host: PlainObject): readonly string[] {
  return listKeys(host, records.get(host));
}

const fieldOf = (host: PlainObject, key: string): unknown => (host[key] === undefined ? null : host[key]);

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return false;
    if ((i & 1023) === 1023) chargeWalk(1024);
  }
  return true;
}

/** `entries` with the values `host` has now: the same array when none changed. */
function withCurrentValues(host: PlainObject, entries: ReadonlyArray<MapEntry>): ReadonlyArray<MapEntry> {
  let i = 0;
  while (i < entries.length) {
    const entry = entries[i] as MapEntry;
    if (entry[1] !== fieldOf(host, entry[0] as string)) break;
    if ((i & 1023) === 1023) chargeWalk(1024);
    i++;
  }
  if (i === entries.length) return entries;
  // A cached array is shared, never mutated: the changed one is a new array.
  return entriesOf(
    host,
    entries.map(([key]) => key as string),
  );
}

/** [key, value] for each of `keys`, in their order. */
function entriesOf(host: PlainObject, keys: readonly string[]): ReadonlyArray<MapEntry> {
  const entries = new Array<MapEntry>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    entries[i] = [key, fieldOf(host, key)];
    if ((i & 1023) === 1023) chargeWalk(1024);
  }
  return entries;
}

/** Entries in key order (term order: for host maps, string order). Shared: never mutate. */
export function mapEntries(map: LispMap | PlainObject): ReadonlyArray<MapEntry> {
  if (isLispMap(map)) return map.entries();
  const host = map as PlainObject;
  const record = records.get(host);
  const epoch = hostEpoch();
  if (record !== undefined && record.entriesEpoch === epoch) return record.entries;
  const keys = listKeys(host, record);
  const entries =
    record !== undefined && record.entriesEpoch >= 0 && sameKeys(keys, record.entriesKeys)
      ? withCurrentValues(host, record.entries)
      : entriesOf(host, [...keys].sort());
  if (record === undefined) {
    records.set(host, { keysEpoch: epoch, keys, entriesEpoch: epoch, entries, entriesKeys: keys });
  } else {
    record.entriesEpoch = epoch;
    record.entries = entries;
    record.entriesKeys = keys;
  }
  return entries;
}
