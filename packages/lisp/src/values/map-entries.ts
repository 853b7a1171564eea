/**
 * A map's entries in key order, for both map representations (program maps and host objects).
 * Its own module so that term order (which compares maps by their entries) needs neither the
 * LispMap class nor the rest of the map protocol (map-access.ts re-exports it).
 *
 * A host object's entries are cached: sorting its keys again for every comparison would make
 * `(sort-by identity rows)` or `=` in a loop pay a sort per visit. But host data is the host's: it
 * may change between runs, and a tool may hand back an object it changed since the program last
 * read it. So the cache holds for one *epoch* only, and the epoch ends whenever host code may have
 * run: when a run starts and when a tool call returns (`hostDataMayHaveChanged`).
 */
import type { LispMap, MapEntry } from "./lisp-map.js";
import type { PlainObject } from "./plain-object.js";
import { isLispMap } from "./table-kind.js";

interface CachedEntries {
  readonly epoch: number;
  readonly entries: ReadonlyArray<MapEntry>;
}

const sortedHostEntries = new WeakMap<PlainObject, CachedEntries>();
let epoch = 0;

/** Ends the cache's epoch: host objects read from now on are read afresh. */
export function hostDataMayHaveChanged(): void {
  epoch++;
}

/** Entries in key order (term order: for host maps, string order). Shared: never mutate. */
export function mapEntries(map: LispMap | PlainObject): ReadonlyArray<MapEntry> {
  if (isLispMap(map)) return map.entries();
  const host = map as PlainObject;
  const cached = sortedHostEntries.get(host);
  if (cached !== undefined && cached.epoch === epoch) return cached.entries;
  const keys = Object.keys(host).sort();
  const entries = keys.map((key) => [key, host[key] === undefined ? null : host[key]] as const);
  sortedHostEntries.set(host, { epoch, entries });
  return entries;
}
