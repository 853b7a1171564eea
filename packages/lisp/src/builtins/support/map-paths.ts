/**
 * Reading and writing nested data by key paths, for get/get-in/assoc/assoc-in/update/update-in.
 *
 * Reads are flexible (values/map-access.ts: `:user-id` finds "user_id"). Writes go to the key a
 * flexible read would have found, so `(update m :count inc)` on host data {"count" 1} changes
 * "count" instead of adding a second, keyword key next to it. Nothing is ever written in place:
 * every level on the path is rebuilt as a new map or vector (host maps become program maps).
 */
import { LispError } from "../../errors.js";
import { print } from "../../format/print.js";
import { MAP_ENTRY_BYTES, VECTOR_SLOT_BYTES } from "../../runtime/allocation.js";
import { after, type MaybePromise } from "../../runtime/async.js";
import type { Callable } from "../../runtime/call.js";
import { active } from "../../runtime/context.js";
import { typeAndValue } from "../../runtime/describe.js";
import { Keyword } from "../../values/keyword.js";
import { LispMap } from "../../values/lisp-map.js";
import { type AnyMap, isMap, lookup, mapAssoc, mapGetExact, writeKey } from "../../values/map-access.js";
import { either } from "../../values/versioned-table.js";
import { assocBelowOwned, nestedInPlaceStats } from "./nested-in-place.js";

/** Bytes charged for one new map entry and for each slot of a vector copy (runtime/allocation.ts). */
export { MAP_ENTRY_BYTES, VECTOR_SLOT_BYTES };

/** A vector index: a non-negative integer that fits in a JS number, else undefined. */
export function indexOf(key: unknown): number | undefined {
  return typeof key === "number" && Number.isInteger(key) && key >= 0 ? key : undefined;
}

/** The value under `key` in a map or vector; undefined when there is none. */
export function getFlexible(coll: unknown, key: unknown): unknown {
  if (Array.isArray(coll)) {
    const index = indexOf(key);
    return index === undefined || index >= coll.length ? undefined : coll[index];
  }
  if (coll === null || coll === undefined || !isMap(coll)) return undefined;
  const found = lookup(coll, key);
  // A vector key not present as such reads as a path, as in the reference: (get m [:a :b]).
  if (found === undefined && Array.isArray(key)) return getIn(coll, key);
  return found;
}

/** The value at the end of `path`; undefined when some step is missing. */
export function getIn(root: unknown, path: readonly unknown[]): unknown {
  let current = root;
  for (let i = 0; i < path.length; i++) {
    if (current === null || current === undefined) return undefined;
    current = getFlexible(current, path[i]);
  }
  return current;
}

function describe(value: unknown): string {
  return typeAndValue(value, 40);
}

export function outOfBounds(who: string, index: unknown, length: number): LispError {
  return new LispError(
    "runtime_error",
    `${who}: index ${print(index)} is out of bounds for a vector of length ${length}; valid indices are 0 to ${length - 1}${who.startsWith("assoc") ? `, or ${length} to append` : ""}`,
  );
}

export function badIndex(who: string, key: unknown): LispError {
  return new LispError(
    "type_error",
    `${who}: a vector index must be a non-negative integer, got ${describe(key)}`,
  );
}

/** A copy of `vector` with `value` at `index` (index == length appends). */
export function vectorWith(vector: readonly unknown[], index: number, value: unknown): unknown[] {
  // The copy is our representation's cost (see RunContext.copy); the new slot is the program's.
  active.copy(vector.length);
  active.allocate(VECTOR_SLOT_BYTES);
  const copy = vector.slice();
  copy[index] = value === undefined ? null : value;
  return copy;
}

/** The value updateSlot found (nil when there was none). */
let found: unknown = null;

/**
 * The key an update of `key` writes in `map` (writeKey's rule), leaving the value stored under it
 * for updateFound: one lookup per spelling tried, where writeKey and a read would look twice.
 */
export function updateSlot(map: AnyMap, key: unknown): unknown {
  if (key instanceof Keyword) {
    const name = key.name;
    if (map instanceof LispMap) {
      // The keyword, else the string of the same name (its own hash key unless it starts with
      // NUL), in one lookup.
      if (name.charCodeAt(0) !== 0) {
        const which = map.findEither(key, name);
        if (which !== 0) {
          found = either.slot;
          return which === 1 ? key : name;
        }
      } else {
        const exact = map.getHashed(key);
        if (exact !== undefined) {
          found = exact;
          return key;
        }
      }
    } else if (hasOwnKey.call(map, name)) {
      // A host map holds no keywords: the field of that name is the entry.
      const value = (map as Record<string, unknown>)[name];
      found = value === undefined ? null : value;
      return name;
    }
  }
  // Any other key found as it is (a string, a number) is its own slot (writeKey's first rule).
  if (map instanceof LispMap) {
    const exact = map.get(key);
    if (exact !== undefined) {
      found = exact;
      return key;
    }
  }
  const slot = writeKey(map, key);
  const value = mapGetExact(map, slot);
  found = value === undefined ? null : value;
  return slot;
}

/** The value under the key the last updateSlot returned; nil when there was none. */
export function updateFound(): unknown {
  const value = found;
  found = null;
  return value;
}

const hasOwnKey = Object.prototype.hasOwnProperty;

/** The collection with `value` under `slot` (a resolved map key, or a vector index). */
function putSlot(container: unknown, slot: unknown, value: unknown): unknown {
  if (Array.isArray(container)) return vectorWith(container, slot as number, value);
  active.allocate(MAP_ENTRY_BYTES);
  if (container instanceof LispMap) return container.assoc(slot, value);
  return mapAssoc(container as AnyMap, slot, value);
}

/** (fn old ...extra), old nil when absent: the new value of update and update-in. */
export function callUpdate(fn: Callable, old: unknown, extra: readonly unknown[]): unknown {
  const current = old === undefined ? null : old;
  switch (extra.length) {
    case 0:
      return fn(current);
    case 1:
      return fn(current, extra[0]);
    default:
      return fn(current, ...extra);
  }
}

/**
 * Rebuilds `root` with the value at `path` replaced: by `value` (assoc-in, `fn` null) or by
 * (fn old ...extra) (update-in). Missing or nil intermediate
 * values become empty maps; a vector index equal to the length appends when `append` is true
 * (assoc-in) and is out of bounds otherwise (update-in). Recursive over the path (which is short),
 * so the common synchronous case allocates nothing but the rebuilt levels. `made` (the maps a
 * reduce's own update-in made below its owned accumulator `root`, support/nested-in-place.ts)
 * lets the maps below the top that it lists change in place.
 */
export function updatePath(
  who: string,
  root: unknown,
  path: readonly unknown[],
  fn: Callable | null,
  value: unknown,
  extra: readonly unknown[],
  append: boolean,
  made?: Set<unknown>,
): MaybePromise<unknown> {
  return updateStep(
    who,
    root === null || root === undefined ? LispMap.empty() : root,
    path,
    0,
    fn,
    value,
    extra,
    append,
    made,
    root,
  );
}

function updateStep(
  who: string,
  current: unknown,
  path: readonly unknown[],
  depth: number,
  fn: Callable | null,
  value: unknown,
  extra: readonly unknown[],
  append: boolean,
  made: Set<unknown> | undefined,
  top: unknown,
): MaybePromise<unknown> {
  const key = path[depth];
  let slot: unknown;
  let next: unknown;
  if (Array.isArray(current)) {
    const index = indexOf(key);
    if (index === undefined) throw badIndex(who, key);
    if (index > current.length || (index === current.length && !append))
      throw outOfBounds(who, key, current.length);
    slot = index;
    next = current[index];
  } else if (isMap(current)) {
    // The key written and the value under it (nil when absent) in one lookup per spelling.
    slot = updateSlot(current, key);
    next = updateFound();
  } else {
    const where = print(path.slice(0, depth), { maxChars: 60 });
    throw new LispError(
      "runtime_error",
      `${who}: cannot go into ${describe(current)} at ${where} to reach key ${print(key, { maxChars: 30 })}; only maps and vectors can be walked into`,
    );
  }
  const replacement =
    depth === path.length - 1
      ? fn === null
        ? value
        : callUpdate(fn, next, extra)
      : updateStep(
          who,
          next === null || next === undefined ? LispMap.empty() : next,
          path,
          depth + 1,
          fn,
          value,
          extra,
          append,
          made,
          top,
        );
  if (replacement instanceof Promise)
    return after(replacement, (resolved) => putLevel(current, slot, resolved, depth, made, top));
  return putLevel(current, slot, replacement, depth, made, top);
}

/** putSlot, except that below an owned accumulator a map its reduce's update-in made changes in place. */
function putLevel(
  container: unknown,
  slot: unknown,
  value: unknown,
  depth: number,
  made: Set<unknown> | undefined,
  top: unknown,
): unknown {
  if (made === undefined || depth === 0 || Array.isArray(container)) return putSlot(container, slot, value);
  return assocBelowOwned(container as AnyMap, slot, value, made, top, nestedInPlaceStats);
}
