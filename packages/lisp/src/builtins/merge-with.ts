/**
 * merge-with, and the forms of it that generated code calls for shapes it knows
 * (compiler/specialized-calls.ts): a literal one-entry map merged per row, and apply over the
 * one-entry maps of a map stage. Each gives merge-with's own result, errors and memory charges.
 */
import { LispError } from "../errors.js";
import { mapBytes } from "../runtime/allocation.js";
import { after, type MaybePromise } from "../runtime/async.js";
import { type Callable, toCallable } from "../runtime/call.js";
import { active } from "../runtime/context.js";
import { typeAndValue } from "../runtime/describe.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { functionInfo, isLispFunction } from "../values/lisp-function.js";
import { LispMap, MapBuilder } from "../values/lisp-map.js";
import {
  type AnyMap,
  builderWriteKey,
  isMap,
  mapEntries,
  mapSize,
  toLispMap,
  writeKey,
} from "../values/map-access.js";
import { twoArgumentForm } from "./arithmetic.js";
import { MAP_ENTRY_BYTES } from "./support/map-paths.js";

/** A map or nil argument of merge or merge-with (nil: no map); anything else is an error. */
export function mergeArgument(value: unknown, index: number, who: string): AnyMap | null {
  if (value === null || value === undefined) return null;
  if (isMap(value)) return value;
  throw new LispError(
    "type_error",
    `${who}: argument ${index} must be a map or nil, got ${typeAndValue(value, 40)}`,
  );
}

/**
 * How often merge-with took its one-entry path, and how many values a merge into a builder
 * combined where its lookup found the key, for tests that prove they ran.
 */
export const mergeWithStats = { oneEntry: 0, foundInPlace: 0 };

/**
 * merge-with: the entries of each later map written into the first; a key already there is
 * combined with f. The common use folds a one-entry map into an accumulator per row, so the loop
 * is direct (one lookup per entry, no callback for a new key) and only turns asynchronous when f
 * answers with a promise (a tool call).
 */
export function mergeWith(f: unknown, ...maps: unknown[]): MaybePromise<AnyMap> {
  const combine = combinerOf(f);
  if (maps.length === 2) {
    // `(merge-with + acc {k v})`, a one-entry map folded into an accumulator per row: what the
    // loop below does for it, without its lists of sources and entries.
    const target = mergeArgument(maps[0], 2, "merge-with");
    const source = mergeArgument(maps[1], 3, "merge-with");
    if (target !== null && source instanceof LispMap && source.size === 1) {
      mergeWithStats.oneEntry++;
      active.work(1);
      active.allocate(MAP_ENTRY_BYTES);
      return mergeEntries(combine, toLispMap(target), [source.onlyKey(), source.onlyValue()], 0);
    }
  }
  const sources: AnyMap[] = [];
  for (let i = 0; i < maps.length; i++) {
    const next = mergeArgument(maps[i], i + 2, "merge-with");
    if (next !== null) sources.push(next);
  }
  if (sources.length === 0) return LispMap.empty();
  // The entries to write, as flat pairs [key, value, key, value...]; a one-entry map (a map per
  // row) is read without a snapshot or an array per entry.
  const pending: unknown[] = [];
  for (let s = 1; s < sources.length; s++) {
    const source = sources[s] as AnyMap;
    if (source instanceof LispMap && source.size === 1) pending.push(source.onlyKey(), source.onlyValue());
    else for (const [key, value] of mapEntries(source)) pending.push(key, value);
  }
  const count = pending.length / 2;
  active.work(count);
  active.allocate(MAP_ENTRY_BYTES * count);
  const first = sources[0] as AnyMap;
  // Many entries into a small first map ((apply merge-with + maps) over rows): fill one mutable
  // builder instead of deriving a persistent version per entry.
  if (count >= 32 && count >= mapSize(first)) {
    const builder = new MapBuilder();
    for (const [key, value] of mapEntries(first)) builder.set(key, value);
    return mergeInto(combine, builder, pending, 0);
  }
  return mergeEntries(combine, toLispMap(first), pending, 0);
}

/** merge-with's f as a two-argument callable: a function that takes two is called as it is. */
function combinerOf(f: unknown): Callable {
  const direct = twoArgumentForm(f);
  if (direct !== undefined) return direct;
  if (isLispFunction(f)) {
    const info = functionInfo(f);
    if (!info.builtin || (info.minArity <= 2 && info.maxArity >= 2)) return f as unknown as Callable;
  }
  return toCallable(f, "merge-with function");
}

/**
 * `(merge-with f first {key value})` with the one-entry map written in the program as a literal
 * (generated code calls this, compiler/specialized-calls.ts): the same result, charges and
 * errors, without building the literal's map and a list of its entries per call. Inside a reduce
 * that owns its accumulator the entry is written in place, as with the builtin.
 */
export function mergeWithEntry(
  f: unknown,
  first: unknown,
  key: unknown,
  value: unknown,
): MaybePromise<AnyMap> {
  // The literal's map, charged as the literal would have been before the call.
  active.allocate(mapBytes(1));
  const stored = value === undefined ? null : value;
  const combine = combinerOf(f);
  const target = mergeArgument(first, 2, "merge-with");
  if (target === null) return LispMap.single(key, stored);
  active.work(1);
  active.allocate(MAP_ENTRY_BYTES);
  // mergeEntries for one entry, without a list of it.
  const into = toLispMap(target);
  let slot = key;
  let existing = into.get(key);
  if (existing === undefined) {
    slot = writeKey(into, key);
    if (slot !== key) existing = into.get(slot);
    if (existing === undefined) return into.assoc(slot, stored);
  }
  const combined = combine(existing, stored);
  if (combined instanceof Promise) return after(combined, (resolved) => into.assoc(slot, resolved));
  return into.assoc(slot, combined);
}

/**
 * `(apply merge-with f (map (fn [x] {k v}) coll))` fused (generated code, compiler/specialized-
 * calls.ts): `pairs` holds each row's key and value [k1, v1, k2, v2...], computed by the loop that
 * would have built the one-entry maps (and charged them, with the vector). The same result and
 * memory charges as apply over merge-with of those maps, which fold in order, one lookup per
 * row, whether apply calls merge-with once or in chunks of its spread limit.
 */
export function mergeWithPairs(f: unknown, pairs: readonly unknown[]): MaybePromise<AnyMap> {
  const combine = combinerOf(f);
  const n = pairs.length / 2;
  if (n === 0) return LispMap.empty();
  const count = n - 1;
  active.work(count);
  active.allocate(MAP_ENTRY_BYTES * count);
  if (count >= 32) {
    const builder = new MapBuilder();
    builder.set(pairs[0], pairs[1]);
    return mergeInto(combine, builder, pairs, 2);
  }
  return mergeEntries(combine, LispMap.single(pairs[0], pairs[1]), pairs, 2);
}

/** mergeEntries into a builder that nobody else can see yet: the same result, without versions. */
function mergeInto(
  combine: Callable,
  builder: MapBuilder,
  pending: readonly unknown[],
  start: number,
): MaybePromise<LispMap> {
  for (let i = start; i < pending.length; i += 2) {
    const key = pending[i];
    const value = pending[i + 1];
    // The key as written first (one lookup in the common case), then by the write rule; the
    // combined value goes where the lookup found the key.
    let slot = key;
    let existing = builder.find(key);
    if (existing === undefined) {
      slot = builderWriteKey(builder, key);
      if (slot !== key) existing = builder.find(slot);
      if (existing === undefined) {
        builder.set(slot, value);
        continue;
      }
    }
    const combined = combine(existing, value);
    if (combined instanceof Promise) {
      return after(combined, (resolved) => {
        builder.set(slot, resolved);
        return mergeInto(combine, builder, pending, i + 2);
      });
    }
    mergeWithStats.foundInPlace++;
    builder.replaceFound(slot, combined);
    if (((i >> 1) & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return builder.build();
}

/** Writes pending pairs [key, value...] into `into`: a key seen before (by the write rule) is combined. */
function mergeEntries(
  combine: Callable,
  into: LispMap,
  pending: readonly unknown[],
  start: number,
): MaybePromise<LispMap> {
  let result = into;
  for (let i = start; i < pending.length; i += 2) {
    const key = pending[i];
    const value = pending[i + 1];
    // A key seen before (by the write rule: "tier" for :tier) is combined; a new key is stored
    // as it is, without a callback. Stored values are never undefined (nil is null). The key as
    // written is looked up first: one lookup in the common case.
    let slot = key;
    let existing = result.get(key);
    if (existing === undefined) {
      slot = writeKey(result, key);
      if (slot !== key) existing = result.get(slot);
      if (existing === undefined) {
        result = result.assoc(slot, value);
        continue;
      }
    }
    const combined = combine(existing, value);
    if (combined instanceof Promise) {
      const done = result;
      return after(combined, (resolved) => mergeEntries(combine, done.assoc(slot, resolved), pending, i + 2));
    }
    result = result.assoc(slot, combined);
    if (((i >> 1) & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return result;
}
