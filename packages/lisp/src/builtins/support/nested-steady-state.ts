/**
 * The steady state of `(update-in acc [k1 k2] f x)` in a reduce that owns its accumulator, for
 * generated code (compiler/nested-updates.ts): the old leaf read, then the new one written, in a
 * call each, where the maps below the accumulator are ones the reduce made (nested-in-place.ts).
 */
import { fastTierStats } from "../../compiler/fast-tier.js";
import { MAP_ENTRY_BYTES } from "../../runtime/allocation.js";
import { active } from "../../runtime/context.js";
import { LispMap } from "../../values/lisp-map.js";
import { mapAssoc } from "../../values/map-access.js";
import { ownedTable } from "../../values/owned-table.js";
import { updateFound, updateSlot } from "./map-paths.js";
import { assocBelowOwned } from "./nested-in-place.js";

/** How often nestedLeaf found the steady state (tests read it). */
export const nestedSteadyStats = { leaves: 0 };

/** Where nestedLeaf found the leaf: the key at the top, the map one level down and its key. */
export const nestedAt: { topSlot: unknown; inner: LispMap | undefined; slot: unknown } = {
  topSlot: undefined,
  inner: undefined,
  slot: undefined,
};

/**
 * For generated code, `(update-in top [first second] ...)` below an owned accumulator in the
 * steady state: `top` is the running reduce's owned accumulator and the map under `first` is one
 * this reduce's update-in made (listed in `made`). Then the value under `second` there (nil when
 * absent), with the keys found by the write rule and that map left in nestedAt for nestedStore;
 * undefined in every other case (stored values are never undefined), where the caller walks the
 * path level by level as before. Only reads: nothing is charged here.
 */
export function nestedLeaf(top: unknown, first: unknown, second: unknown, made: Set<unknown>): unknown {
  if (top !== ownedTable.current || !(top instanceof LispMap)) return undefined;
  const topSlot = updateSlot(top, first);
  const inner = updateFound();
  if (!(inner instanceof LispMap) || !made.has(inner)) return undefined;
  nestedAt.topSlot = topSlot;
  nestedAt.inner = inner;
  nestedAt.slot = updateSlot(inner, second);
  nestedSteadyStats.leaves++;
  return updateFound();
}

/**
 * Writes the new leaf `value` where nestedLeaf found the old one, with the level-by-level walk's
 * charges (an entry at each level) and result: the inner map changes in place, and the
 * accumulator, which already holds that map, is handed back as it is.
 */
export function nestedStore(
  top: LispMap,
  topSlot: unknown,
  inner: LispMap,
  slot: unknown,
  value: unknown,
  made: Set<unknown>,
): LispMap {
  // The generated code has read nestedAt into locals: forget them, so that no map or key of this
  // program stays reachable from module state after it ends.
  nestedAt.topSlot = nestedAt.inner = nestedAt.slot = undefined;
  const written = assocBelowOwned(inner, slot, value, made, top, fastTierStats);
  active.allocate(MAP_ENTRY_BYTES);
  if (written === inner && top === ownedTable.current) return top;
  return mapAssoc(top, topSlot, written);
}
