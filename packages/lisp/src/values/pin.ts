/**
 * Pinning: making a value safe to keep beyond the program that built it. Program maps and sets
 * share storage with the versions they were derived from (versioned-table.ts); a value kept in a
 * session (a `def`, `*1`) is rebuilt on storage of its own, all the way down, so that it never
 * holds other versions alive and later programs deriving from it never disturb it.
 */
import { LispMap } from "./lisp-map.js";
import { LispSet } from "./lisp-set.js";

export function pin(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof LispMap) {
    let changed = false;
    const entries = value.entries().map(([key, item]) => {
      const pinnedKey = pin(key);
      const pinnedItem = pin(item);
      if (pinnedKey !== key || pinnedItem !== item) changed = true;
      return [pinnedKey, pinnedItem] as const;
    });
    return (changed ? LispMap.from(entries) : value).pinned();
  }
  if (value instanceof LispSet) {
    const members = value.members().map(pin);
    return (
      members.some((member, index) => member !== value.members()[index]) ? LispSet.from(members) : value
    ).pinned();
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = pin(value[i]);
      if (item !== value[i]) {
        copy ??= value.slice(0, i);
        copy[i] = item;
      } else if (copy !== undefined) copy[i] = item;
    }
    return copy ?? value;
  }
  return value;
}

/** An accumulator's starting value, detached from its lineage (see versioned-table.ts). */
export function detachAccumulator(value: unknown): unknown {
  if (value instanceof LispMap || value instanceof LispSet) return value.detached();
  return value;
}
