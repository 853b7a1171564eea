/**
 * `(into {} entries)` for the common small case: `(into {} (map (fn [[_ k v]] [k v]) (re-seq ...)))`
 * over a log line makes a map of two or three string keys. Up to FLAT_LIMIT entries whose keys are
 * strings without a hyphen (not NUL-led, not long), each key is its own hash key and has no twin
 * to look for (values/map-access.ts writeKeyIn), so the flat pairs a MapBuilder would collect are
 * written straight into an array of their final size, a later duplicate key replacing the earlier
 * value as the builder does. Anything else goes to the builder, by the same rules as `into`.
 *
 * Two callers: the `into` builtin, with a vector of [key value] entries, and generated code
 * (compiler/fused-pipelines.ts), which collects keys and values flat from a mapped fn whose body
 * is a [k v] literal, so that no entry vector is made at all.
 */
import { MAP_ENTRY_BYTES, mapBytes, vectorBytes } from "../../runtime/allocation.js";
import { active } from "../../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../../runtime/interruptible.js";
import { LispMap, MapBuilder } from "../../values/lisp-map.js";
import { builderPut } from "../../values/map-access.js";
import { FLAT_LIMIT } from "../../values/versioned-table.js";

/** Which way maps were made, for tests that prove a path ran; results never depend on it. */
export const intoPathStats = {
  /** Maps from a vector of entries written as flat pairs (flatTextKeyMap). */
  flatTextKeyMaps: 0,
  /** Maps from keys and values generated code collected flat (mapOfFlatPairs). */
  flatPairMaps: 0,
};

/** Longest key written flat: far below the length past which hashing a key is charged. */
const FLAT_KEY_LENGTH = 1024;

/** Whether `key` is a string that is its own hash key and has no twin in another spelling. */
function plainTextKey(key: unknown): key is string {
  return (
    typeof key === "string" && key.length <= FLAT_KEY_LENGTH && key.charCodeAt(0) !== 0 && !key.includes("-")
  );
}

/**
 * The map of a vector of [key value] entries, or undefined when the flat way does not apply (more
 * than FLAT_LIMIT items, an item that is not an entry, a key that is not plain text).
 */
export function flatTextKeyMap(items: readonly unknown[]): LispMap | undefined {
  const n = items.length;
  if (n > FLAT_LIMIT) return undefined;
  const pairs = new Array<unknown>(2 * n);
  let filled = 0;
  next: for (let i = 0; i < n; i++) {
    const item = items[i];
    if (!Array.isArray(item) || item.length !== 2) return undefined;
    const key = item[0];
    if (!plainTextKey(key)) return undefined;
    const value = item[1] === undefined ? null : item[1];
    for (let j = 0; j < filled; j += 2) {
      if (pairs[j] === key) {
        pairs[j + 1] = value;
        continue next;
      }
    }
    pairs[filled] = key;
    pairs[filled + 1] = value;
    filled += 2;
  }
  if (filled < pairs.length) pairs.length = filled;
  intoPathStats.flatTextKeyMaps++;
  return LispMap.small(pairs);
}

/**
 * `(into {} entries)` where the entries came as keys and values in one flat array
 * `[k0 v0 k1 v1 ...]` (values never undefined), charged as `into` charges its entries, and for
 * the {} and the [k v] vectors the program makes on the general evaluator (generated code makes
 * none of them), so that every engine charges the same memory for the same program.
 */
export function mapOfFlatPairs(flat: readonly unknown[]): LispMap {
  intoPathStats.flatPairMaps++;
  const n = flat.length / 2;
  active.allocate(mapBytes(0) + (MAP_ENTRY_BYTES + vectorBytes(2)) * n);
  active.work(n);
  if (n <= FLAT_LIMIT) {
    const pairs = new Array<unknown>(flat.length);
    let filled = 0;
    let plain = true;
    next: for (let i = 0; i < flat.length; i += 2) {
      const key = flat[i];
      if (!plainTextKey(key)) {
        plain = false;
        break;
      }
      for (let j = 0; j < filled; j += 2) {
        if (pairs[j] === key) {
          pairs[j + 1] = flat[i + 1];
          continue next;
        }
      }
      pairs[filled] = key;
      pairs[filled + 1] = flat[i + 1];
      filled += 2;
    }
    if (plain) {
      if (filled < pairs.length) pairs.length = filled;
      return LispMap.small(pairs);
    }
  }
  const builder = new MapBuilder();
  for (let i = 0; i < flat.length; i += 2) {
    builderPut(builder, flat[i], flat[i + 1]);
    if (((i >> 1) & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return builder.build();
}
