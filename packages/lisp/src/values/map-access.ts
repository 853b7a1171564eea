/**
 * One map protocol over both map representations: program maps (LispMap) and host maps (plain
 * objects). Everything that reads or derives maps goes through here, so no caller needs to know
 * which one it holds, and host objects are never written.
 *
 * Flexible lookup: tool results and context arrive with string keys while programs
 * write keywords, so a lookup tries, in order, the exact key, its keyword/string twin, then the
 * same two with hyphens turned into underscores (`:user-id` finds "user_id"; not the reverse).
 */
import { generatedCodePermitted } from "../code-generation.js";
import { readerOf } from "./field-reader.js";
import { Keyword } from "./keyword.js";
import { LispMap, type MapBuilder } from "./lisp-map.js";
import { hostKeys } from "./map-entries.js";
import { isPlainObject, ownGet, ownHas, type PlainObject } from "./plain-object.js";
import { TEXT_SLICE } from "./text-limit.js";
import { either } from "./versioned-table.js";
import { chargeTextWork } from "./walk-meter.js";

export type AnyMap = LispMap | PlainObject;

export function isMap(value: unknown): value is AnyMap {
  return value instanceof LispMap || isPlainObject(value);
}

export function mapSize(map: AnyMap): number {
  return map instanceof LispMap ? map.size : hostKeys(map).length;
}

export { mapEntries } from "./map-entries.js";

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
  if (!name.includes("-")) return undefined;
  if (name.length <= TEXT_SLICE) return name.replaceAll("-", "_");
  // A name the program built long: V8 takes seconds to replace millions of hyphens in one call,
  // so a slice at a time, reading the clock between slices.
  const parts: string[] = [];
  for (let start = 0; start < name.length; start += TEXT_SLICE) {
    chargeTextWork(TEXT_SLICE);
    parts.push(name.slice(start, start + TEXT_SLICE).replaceAll("-", "_"));
  }
  return parts.join("");
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
 * The one rule every write to a map follows (assoc, update, merge, conj, into, zipmap...): writing
 * `key` replaces the entry a flexible read of `key` finds, under the key that entry already has.
 * So `(merge tool-result {:tier "ent"})` on {"tier" "free"} gives {"tier" "ent"}, never a map
 * holding both "tier" and :tier (where a read sees one value and the host another). A key present
 * exactly always wins; a key with no twin is written as it is.
 *
 * `has` tells whether the container holds a key exactly; it is a plain function of the container
 * so that maps and builders share the rule without allocating.
 */
export function writeKeyIn<C>(
  container: C,
  has: (container: C, key: unknown) => boolean,
  key: unknown,
): unknown {
  if (key instanceof Keyword) {
    if (has(container, key)) return key;
    const name = key.name;
    if (has(container, name)) return name;
    const alternate = underscored(name);
    if (alternate === undefined) return key;
    const alternateKeyword = Keyword.existing(alternate);
    if (alternateKeyword !== undefined && has(container, alternateKeyword)) return alternateKeyword;
    return has(container, alternate) ? alternate : key;
  }
  if (typeof key === "string") {
    if (has(container, key)) return key;
    const keyword = Keyword.existing(key);
    if (keyword !== undefined && has(container, keyword)) return keyword;
    const alternate = underscored(key);
    if (alternate === undefined) return key;
    if (has(container, alternate)) return alternate;
    const alternateKeyword = Keyword.existing(alternate);
    return alternateKeyword !== undefined && has(container, alternateKeyword) ? alternateKeyword : key;
  }
  return key;
}

/** The key that writing `key` into `map` writes (see writeKeyIn). */
export function writeKey(map: AnyMap, key: unknown): unknown {
  return writeKeyIn(map, mapHasExact, key);
}

const builderHas = (builder: MapBuilder, key: unknown): boolean => builder.has(key);

/** The key that writing `key` into a map being built writes (see writeKeyIn). */
export function builderWriteKey(builder: MapBuilder, key: unknown): unknown {
  if (key instanceof Keyword && !builder.hasStringKeys && !key.hyphenated) return key;
  return writeKeyIn(builder, builderHas, key);
}

/** Adds an entry to a map being built, by the same rule (see writeKeyIn). */
export function builderPut(builder: MapBuilder, key: unknown, value: unknown): void {
  // The common cases have no twin to find: keyword keys without hyphens and no string keys yet,
  // and string keys without hyphens (`(into {} (map (fn [[_ k v]] [k v]) (re-seq ...)))`) and
  // no keyword keys yet.
  if (typeof key === "string") {
    if (!builder.hasObjectKeys && !key.includes("-")) builder.set(key, value);
    else builder.set(writeKeyIn(builder, builderHas, key), value);
  } else if (key instanceof Keyword && !builder.hasStringKeys && !key.hyphenated) builder.set(key, value);
  else builder.set(writeKeyIn(builder, builderHas, key), value);
}

/** `map` with `value` written under `key` by the rule of writeKeyIn. */
export function mapPut(map: AnyMap, key: unknown, value: unknown): LispMap {
  return mapAssoc(map, writeKey(map, key), value);
}

/**
 * A program map with all entries of `map`: program maps as they are; a host map as a map that
 * reads through to it (nothing copied: `(assoc row :k v)` on a tool result's row stores one entry,
 * and its keys are counted only when something asks for its size).
 */
export function toLispMap(map: AnyMap): LispMap {
  if (map instanceof LispMap) return map;
  return LispMap.over(map);
}

export function mapAssoc(map: AnyMap, key: unknown, value: unknown): LispMap {
  if (map instanceof LispMap) return map.assoc(key, value);
  // A host row: the map over it with the one entry changed, made at once (not a map over the
  // row, then a second one with the entry).
  return LispMap.overWith(map, key, value);
}

export function mapDissoc(map: AnyMap, key: unknown): AnyMap {
  if (!mapHasExact(map, key)) return map;
  return toLispMap(map).dissoc(key);
}

const hasOwnKey = Object.prototype.hasOwnProperty;
const getPrototypeOf = Object.getPrototypeOf;
const ObjectPrototype = Object.prototype;

/**
 * `(:k item)` for any item: the flexible lookup of `key` in a map, nil for anything else. This is
 * the hottest read of data programs, so keyword keys on plain host objects and program maps take
 * a direct path before the general lookup.
 */
export function getField(item: unknown, key: unknown): unknown {
  if (key instanceof Keyword) {
    // Where code may not be generated, a keyword with a pooled reader (reader-pool.ts) goes to
    // it first, on any item: the reader sends whatever is not a plain row with the field to
    // slowField, which answers as the rest of this function would (nil, a program map's field).
    // Where code may be generated, readerOf below decides (it may make the keyword a reader).
    const pooled = key.pooled;
    if (pooled !== undefined && pooled !== null && !generatedCodePermitted()) return pooled(item, slowField);
  }
  if (typeof item !== "object" || item === null) return null;
  if (key instanceof Keyword) {
    // A program map (often a row with a field or two changed) goes straight to its own path.
    if (item instanceof LispMap) return slowField(item, key);
    const reader = readerOf(key);
    if (reader !== undefined) return reader(item, slowField);
    if (
      (item as { constructor?: unknown }).constructor === Object &&
      getPrototypeOf(item) === ObjectPrototype
    ) {
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
    // The keyword, then, as lookup goes on, the string of the same name (a host row's field under
    // a map derived from the row), which is its own hash key unless it starts with NUL: both in
    // one lookup.
    const name = keyword.name;
    if (name.charCodeAt(0) !== 0) {
      if (item.findEither(keyword, name) !== 0) return either.slot;
      // Without a hyphen there is no other spelling to try (lookup, underscored).
      if (!keyword.hyphenated) return null;
    } else {
      const found = item.getHashed(keyword);
      if (found !== undefined) return found;
    }
  }
  if (!isMap(item)) return null;
  const found = lookup(item, keyword);
  return found === undefined ? null : found;
}
