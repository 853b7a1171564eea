/**
 * A map's entries in key order, for both map representations (program maps and host objects).
 * Its own module so that term order (which compares maps by their entries) needs neither the
 * LispMap class nor the rest of the map protocol (map-access.ts re-exports it).
 */
import type { LispMap, MapEntry } from "./lisp-map.js";
import type { PlainObject } from "./plain-object.js";
import { isLispMap } from "./table-kind.js";

const sortedHostKeys = new WeakMap<PlainObject, ReadonlyArray<MapEntry>>();

/** Entries in key order (term order: for host maps, string order). Shared: never mutate. */
export function mapEntries(map: LispMap | PlainObject): ReadonlyArray<MapEntry> {
  if (isLispMap(map)) return map.entries();
  const host = map as PlainObject;
  let entries = sortedHostKeys.get(host);
  if (entries === undefined) {
    const keys = Object.keys(host).sort();
    entries = keys.map((key) => [key, host[key] === undefined ? null : host[key]] as const);
    sortedHostKeys.set(host, entries);
  }
  return entries;
}
