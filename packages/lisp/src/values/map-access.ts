/**
 * One map protocol over both map representations: program maps (LispMap) and host maps (plain
 * objects). Everything that reads or derives maps goes through here, so no caller needs to know
 * which one it holds, and host objects are never written.
 *
 * Flexible lookup (spec §8.2): tool results and context arrive with string keys while programs
 * write keywords, so a lookup tries, in order, the exact key, its keyword/string twin, then the
 * same two with hyphens turned into underscores (`:user-id` finds "user_id"; not the reverse).
 */
import { readerOf } from "./field-reader.js";
import { Keyword } from "./keyword.js";
import { LispMap, MapBuilder, type MapEntry } from "./lisp-map.js";
import { isPlainObject, ownGet, ownHas, type PlainObject } from "./plain-object.js";

export type AnyMap = LispMap | PlainObject;

export function isMap(value: unknown): value is AnyMap {
  return value instanceof LispMap || isPlainObject(value);
}

export function mapSize(map: AnyMap): number {
  return map instanceof LispMap ? map.size : Object.keys(map).length;
}

const sortedHostKeys = new WeakMap<PlainObject, ReadonlyArray<MapEntry>>();

/** Entries in key order (term order: for host maps, string order). Shared: never mutate. */
export function mapEntries(map: AnyMap): ReadonlyArray<MapEntry> {
  if (map instanceof LispMap) return map.entries();
  let entries = sortedHostKeys.get(map);
  if (entries === undefined) {
    const keys = Object.keys(map).sort();
    entries = keys.map((key) => [key, map[key] === undefined ? null : map[key]] as const);
    sortedHostKeys.set(map, entries);
  }
  return entries;
}

/** Exact-key read: undefined when absent. */
export function mapGetExact(map: AnyMap, key: unknown): unknown {
  if (map instanceof LispMap) return map.get(key);
  return typeof key === "string" ? ownGet(map, key) : undefined;
}

export function mapHasExact(map: AnyMap, key: unknown): boolean {
  if (map instanceof LispMap) return map.has(key);
  return typeof key === "string" && ownHas(map, key);
}

function underscored(name: string): string | undefined {
  return name.includes("-") ? name.replaceAll("-", "_") : undefined;
}

/** The value under the string key `name`, or undefined. */
function getString(map: AnyMap, name: string): unknown {
  return map instanceof LispMap ? map.get(name) : ownGet(map, name);
}

/** The value under the keyword named `name`, or undefined; host maps never hold keywords. */
function getKeyword(map: AnyMap, name: string): unknown {
  if (!(map instanceof LispMap)) return undefined;
  const keyword = Keyword.existing(name);
  return keyword === undefined ? undefined : map.getHashed(keyword);
}

/**
 * Flexible read: the value under `key` or one of its twins (see above), undefined when none
 * exists. A stored nil comes back as null, so callers can tell "present but nil" apart.
 */
export function lookup(map: AnyMap, key: unknown): unknown {
  if (key instanceof Keyword) {
    if (map instanceof LispMap) {
      const exact = map.getHashed(key);
      if (exact !== undefined) return exact;
    }
    const asString = getString(map, key.name);
    if (asString !== undefined) return asString;
    const alternate = underscored(key.name);
    if (alternate === undefined) return undefined;
    const alternateKeyword = getKeyword(map, alternate);
    return alternateKeyword !== undefined ? alternateKeyword : getString(map, alternate);
  }
  if (typeof key === "string") {
    const exact = getString(map, key);
    if (exact !== undefined) return exact;
    const asKeyword = getKeyword(map, key);
    if (asKeyword !== undefined) return asKeyword;
    const alternate = underscored(key);
    if (alternate === undefined) return undefined;
    const alternateString = getString(map, alternate);
    return alternateString !== undefined ? alternateString : getKeyword(map, alternate);
  }
  return mapGetExact(map, key);
}

/**
 * The key under which a flexible lookup of `key` finds its value, or undefined. Updates use it so
 * that `(update m :user-id inc)` on {"user_id" 1} changes "user_id" rather than adding :user-id.
 */
export function resolveKey(map: AnyMap, key: unknown): unknown {
  if (mapHasExact(map, key)) return key;
  const candidates: unknown[] = [];
  if (key instanceof Keyword) {
    candidates.push(key.name);
    const alternate = underscored(key.name);
    if (alternate !== undefined) candidates.push(Keyword.existing(alternate), alternate);
  } else if (typeof key === "string") {
    candidates.push(Keyword.existing(key));
    const alternate = underscored(key);
    if (alternate !== undefined) candidates.push(alternate, Keyword.existing(alternate));
  }
  for (const candidate of candidates) {
    if (candidate !== undefined && mapHasExact(map, candidate)) return candidate;
  }
  return undefined;
}

/** A program map with all entries of `map`; host maps are copied once, program maps returned. */
export function toLispMap(map: AnyMap): LispMap {
  if (map instanceof LispMap) return map;
  const builder = new MapBuilder();
  for (const key of Object.keys(map)) builder.set(key, map[key]);
  return builder.build();
}

export function mapAssoc(map: AnyMap, key: unknown, value: unknown): LispMap {
  return toLispMap(map).assoc(key, value);
}

export function mapDissoc(map: AnyMap, key: unknown): AnyMap {
  if (!mapHasExact(map, key)) return map;
  return toLispMap(map).dissoc(key);
}

const hasOwnKey = Object.prototype.hasOwnProperty;

/**
 * `(:k item)` for any item: the flexible lookup of `key` in a map, nil for anything else. This is
 * the hottest read of data programs, so keyword keys on plain host objects and program maps take
 * a direct path before the general lookup.
 */
export function getField(item: unknown, key: unknown): unknown {
  if (typeof item !== "object" || item === null) return null;
  if (key instanceof Keyword) {
    const reader = readerOf(key);
    if (reader !== undefined) return reader(item, slowField);
    if ((item as { constructor?: unknown }).constructor === Object) {
      const name = key.name;
      const found =
        key.direct || hasOwnKey.call(item, name) ? (item as Record<string, unknown>)[name] : undefined;
      if (found !== undefined) return found;
    } else if (item instanceof LispMap) {
      const found = item.getHashed(key);
      if (found !== undefined) return found;
    }
  }
  if (!isMap(item)) return null;
  const found = lookup(item, key);
  return found === undefined ? null : found;
}

/** getField past the dedicated reader: everything but a plain object that has the field. */
function slowField(item: unknown, keyword: Keyword): unknown {
  if (typeof item !== "object" || item === null) return null;
  if (item instanceof LispMap) {
    const found = item.getHashed(keyword);
    if (found !== undefined) return found;
  }
  if (!isMap(item)) return null;
  const found = lookup(item, keyword);
  return found === undefined ? null : found;
}
