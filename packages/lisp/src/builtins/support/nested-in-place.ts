/**
 * Maps below a reduce's owned accumulator that the reduce's own update-in made: they may change in
 * place on later steps, as the accumulator itself does (values/owned-table.ts).
 *
 * compiler/accumulator-use.ts (nestedUpdateCalls) says when: the fn only derives its accumulator
 * with update-in calls of one literal path length. Then a map such a call made at depth 1 or more
 * (from nil, or as a copy of a map it found there) sits at one place only, at a depth the update's
 * function never sees, and nothing else reads it while the reduce runs. Generated code keeps the
 * set of those maps in a local of its loop; the general evaluator keeps it here, tied to the owned
 * accumulator it hangs below, and builtin reduce (aggregation.ts, reduceOwning) clears it when it
 * ends, so no map outlives its reduce here.
 */
import { MAP_ENTRY_BYTES } from "../../runtime/allocation.js";
import { active } from "../../runtime/context.js";
import { LispMap } from "../../values/lisp-map.js";
import { type AnyMap, mapAssoc } from "../../values/map-access.js";
import { ownedTable } from "../../values/owned-table.js";

/** How often the general evaluator changed such a map in place (tests read it). */
export const nestedInPlaceStats = { nestedInPlace: 0 };

/** The general evaluator's maps made below `owner` (the owned accumulator of the running reduce). */
export const ownedNested: { owner: object | undefined; made: Set<unknown> | undefined } = {
  owner: undefined,
  made: undefined,
};

/**
 * The set of maps made below `top` when `top` is the running reduce's owned accumulator (a new
 * set the first time), else undefined: nothing may change in place then.
 */
export function nestedMadeBelow(top: unknown): Set<unknown> | undefined {
  if (top === undefined || top !== ownedTable.current) return undefined;
  if (ownedNested.owner !== top || ownedNested.made === undefined) {
    ownedNested.owner = top;
    ownedNested.made = new Set();
  }
  return ownedNested.made;
}

/**
 * `map` with `value` under `key` (a key found by the write rule), charged as assoc charges it, for a
 * map at depth 1 or more below `top`: a map listed in `made` changes in place while `top` is owned;
 * any other map is derived from, and the new map, which only this path holds, is listed when its
 * entries are its own (a small map's pairs; a large map shares its store with the one it came from).
 * `stats` counts the changes in place, for tests that prove they ran.
 */
export function assocBelowOwned(
  map: AnyMap,
  key: unknown,
  value: unknown,
  made: Set<unknown>,
  top: unknown,
  stats: { nestedInPlace: number },
): LispMap {
  active.allocate(MAP_ENTRY_BYTES);
  if (top !== ownedTable.current) return mapAssoc(map, key, value);
  if (map instanceof LispMap && made.has(map)) {
    stats.nestedInPlace++;
    return map.assocUnshared(key, value);
  }
  const derived = mapAssoc(map, key, value);
  if (derived !== map && derived.ownsPairs()) made.add(derived);
  return derived;
}
