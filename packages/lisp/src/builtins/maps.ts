/**
 * Map functions: reading (get, get-in, keys, vals, entries, select-keys, find), deriving new maps
 * (assoc, dissoc, update, merge, update-vals...) and building them (hash-map, zipmap).
 *
 * Reads use flexible keys; updates write the key that a flexible read finds (see
 * support/map-paths.ts). Inputs are never written: host maps are read in place and every change
 * derives a new program map. Missing data reads as nil; a wrong kind of argument is an error that
 * says what to write instead.
 */
import { fastTierStats } from "../compiler/fast-tier.js";
import { LispError } from "../errors.js";
import { print } from "../format/print.js";
import { mapBytes, vectorBytes } from "../runtime/allocation.js";
import { after, eachResult, type MaybePromise } from "../runtime/async.js";
import { type Callable, toCallable } from "../runtime/call.js";
import { active } from "../runtime/context.js";
import { typeAndValue, typeName } from "../runtime/describe.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { seqOf } from "../runtime/sequences.js";
import { readerOf } from "../values/field-reader.js";
import { Keyword } from "../values/keyword.js";
import { functionInfo, isLispFunction } from "../values/lisp-function.js";
import { LispMap, MapBuilder } from "../values/lisp-map.js";
import {
  type AnyMap,
  builderPut,
  isMap,
  mapAssoc,
  mapDissoc,
  mapEntries,
  mapPut,
  mapSize,
  toLispMap,
  writeKey,
} from "../values/map-access.js";
import { type PlainObject, rowFieldsWith } from "../values/plain-object.js";
import { FLAT_LIMIT } from "../values/versioned-table.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { mergeArgument, mergeWith } from "./merge-with.js";
import {
  badIndex,
  callUpdate,
  getFlexible,
  getIn,
  indexOf,
  MAP_ENTRY_BYTES,
  outOfBounds,
  updateFound,
  updatePath,
  updateSlot,
  VECTOR_SLOT_BYTES,
  vectorWith,
} from "./support/map-paths.js";
import { assocBelowOwned } from "./support/nested-in-place.js";

// Generated code reads and writes update's key through these too (compiler/codegen-runtime.ts).
export { updateFound, updateSlot };

const isNil = (value: unknown): value is null | undefined => value === null || value === undefined;

function describe(value: unknown): string {
  return typeAndValue(value, 40);
}

function typeError(message: string): LispError {
  return new LispError("type_error", message);
}

/** A map or nil argument; nil means "no map" and is handled by each caller. */
function requireMapOrNil(value: unknown, who: string, advice = ""): AnyMap | null {
  if (isNil(value)) return null;
  if (isMap(value)) return value;
  throw typeError(`${who} expects a map, got ${describe(value)}${advice}`);
}

/** Charges a new map of `entries` entries, and the loop that fills it. */
function chargeMap(entries: number): void {
  active.work(entries);
  active.allocate(mapBytes(entries));
}

/** Charges a new vector of `slots` slots, and the loop that fills it. */
function chargeFilledVector(slots: number): void {
  active.work(slots);
  active.allocate(vectorBytes(slots));
}

// ---------------------------------------------------------------- reading

/** `(get :k m)`, `(get-in [:a] m)`: the two arguments are swapped. */
function swappedArguments(who: string, first: unknown, second: unknown): LispError | undefined {
  if (!isMap(second)) return undefined;
  if (!(first instanceof Keyword) && typeof first !== "string" && !Array.isArray(first)) return undefined;
  return typeError(
    `${who} expects the collection first: write (${who} m ${print(first, { maxChars: 30 })}), not (${who} ${print(first, { maxChars: 30 })} m); the arguments appear to be swapped`,
  );
}

function notAssociative(who: string, value: unknown, key: unknown): LispError {
  const swapped = swappedArguments(who, value, key);
  if (swapped !== undefined) return swapped;
  const hint =
    typeof value === "string"
      ? "; for a character of a string use (nth s i) or (subs s i (inc i))"
      : typeName(value) === "set"
        ? "; to test a set use (contains? s x) or (s x)"
        : "";
  return typeError(`${who} expects a map, a vector or nil first, got ${describe(value)}${hint}`);
}

function get(coll: unknown, key: unknown, fallback?: unknown): unknown {
  // Fast path: an exact key in a program map (a join through an index map does this per row).
  if (coll instanceof LispMap) {
    const exact = key instanceof Keyword ? coll.getHashed(key) : coll.get(key);
    if (exact !== undefined) return exact;
  }
  if (isNil(coll)) return fallback === undefined ? null : fallback;
  if (!Array.isArray(coll) && !isMap(coll)) throw notAssociative("get", coll, key);
  const found = getFlexible(coll, key);
  return found === undefined ? (fallback === undefined ? null : fallback) : found;
}

function getInPath(coll: unknown, path: unknown, fallback?: unknown): unknown {
  if (!isNil(coll) && !isMap(coll) && !Array.isArray(coll)) throw notAssociative("get-in", coll, path);
  if (Array.isArray(coll) && isMap(path)) throw swappedArguments("get-in", coll, path) as LispError;
  const found = getIn(coll, seqOf(path, "get-in"));
  return isNil(found) ? (fallback === undefined ? null : fallback) : found;
}

/** One column of a map's entries (0: keys, 1: values), in the map's order. */
function entryColumn(who: string, index: 0 | 1) {
  return (map: unknown): unknown[] | null => {
    const m = requireMapOrNil(map, who);
    if (m === null) return null;
    const entries = mapEntries(m);
    chargeFilledVector(entries.length);
    const out = new Array<unknown>(entries.length);
    for (let i = 0; i < entries.length; i++) out[i] = (entries[i] as readonly unknown[])[index];
    return out;
  };
}

const keys = entryColumn("keys", 0);
const vals = entryColumn("vals", 1);

function entries(map: unknown): unknown[] | null {
  const m = requireMapOrNil(map, "entries");
  if (m === null) return null;
  const list = mapEntries(m);
  chargeFilledVector(list.length);
  // Entries are shared, immutable [key value] pairs: the vector can hold them as they are.
  return list.slice();
}

function entryPart(who: string, index: 0 | 1) {
  return (entry: unknown): unknown => {
    if (Array.isArray(entry) && entry.length === 2) return entry[index];
    throw typeError(
      `${who} expects a map entry (a [key value] vector such as an item of (seq m)), got ${describe(entry)}`,
    );
  };
}

/** Calls of select-keys that took the keyword-list route (selectKeywords) from the builtin itself. */
export const selectKeysStats = { keywordLists: 0 };

/**
 * Whether `list` is at most FLAT_LIMIT distinct keywords without hyphens: the key lists
 * selectKeywords takes (such keys are stored as written, so the pairs found make the map).
 */
function plainKeywordList(list: readonly unknown[]): list is readonly Keyword[] {
  if (list.length > FLAT_LIMIT) return false;
  for (let i = 0; i < list.length; i++) {
    const key = list[i];
    if (!(key instanceof Keyword) || key.hyphenated) return false;
    for (let j = 0; j < i; j++) if (list[j] === key) return false;
  }
  return true;
}

function selectKeys(map: unknown, wanted: unknown): LispMap {
  // `(select-keys row [:id :region])` as programs write it, on the general evaluator (generated
  // code calls selectKeywords directly): no builder, the same map and charges.
  if (Array.isArray(wanted) && plainKeywordList(wanted)) {
    selectKeysStats.keywordLists++;
    return selectKeywords(map, wanted);
  }
  const m = requireMapOrNil(map, "select-keys");
  const list = seqOf(wanted, "select-keys");
  active.work(list.length);
  const builder = new MapBuilder();
  if (m !== null) {
    for (let i = 0; i < list.length; i++) {
      const key = list[i];
      const found = getFlexible(m, key);
      if (found !== undefined) builderPut(builder, key, found);
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
  }
  chargeMap(builder.size);
  return builder.build();
}

/**
 * What selectKeywords reads where a keyword's reader found nothing: the same as without the
 * reader (on a plain object the field under its name, which the reader has just found absent).
 */
function readWithoutReader(item: unknown, keyword: Keyword): unknown {
  return (item as { constructor?: unknown }).constructor === Object
    ? (item as Record<string, unknown>)[keyword.name]
    : getFlexible(item, keyword);
}

/**
 * `(select-keys m [:id :region])` with the keys written as a vector of distinct keywords without
 * hyphens (generated code calls this, compiler/specialized-calls.ts): such keys are written as
 * they are, so the entries found are the small map's table, built without a builder. The same
 * result, charges and errors as select-keys.
 */
export function selectKeywords(map: unknown, keywords: readonly Keyword[]): LispMap {
  const m = requireMapOrNil(map, "select-keys");
  active.work(keywords.length);
  const pairs: unknown[] = [];
  if (m !== null) {
    const plain = (m as { constructor?: unknown }).constructor === Object;
    for (let i = 0; i < keywords.length; i++) {
      const keyword = keywords[i] as Keyword;
      // A hot keyword's own reader (field-reader.ts): one access site per keyword, where a shared
      // `m[keyword.name]` sees every key of every program's select-keys and V8 serves it by its
      // slowest keyed lookup (about 45% of the instructions of a warm projection over rows).
      // A plain object holds such a keyword's field under its name, and nowhere else.
      const direct = plain && keyword.direct;
      const reader = direct ? readerOf(keyword) : undefined;
      const found =
        reader !== undefined
          ? reader(m, readWithoutReader)
          : direct
            ? (m as Record<string, unknown>)[keyword.name]
            : getFlexible(m, keyword);
      if (found !== undefined) pairs.push(keyword, found);
    }
  }
  chargeMap(pairs.length / 2);
  return LispMap.small(pairs);
}

/** The map selectKeywords makes from the pairs it found, with its charges (generated code reads the fields). */
export function selectedPairs(pairs: unknown[], keys: number): LispMap {
  active.work(keys);
  chargeMap(pairs.length / 2);
  return LispMap.small(pairs);
}

function find(pred: unknown, coll: unknown): MaybePromise<unknown> {
  const items = seqOf(coll, "find");
  const test = toCallable(pred, "find predicate");
  let found: unknown = null;
  const done = eachResult(
    0,
    items.length,
    (i) => test(items[i]),
    (i, result) => {
      if (result === null || result === undefined || result === false) return true;
      found = items[i];
      return false;
    },
  );
  return done === undefined ? found : after(done, () => found);
}

// ---------------------------------------------------------------- deriving

function assocVector(
  vector: readonly unknown[],
  key: unknown,
  value: unknown,
  more: readonly unknown[],
): unknown[] {
  active.copy(vector.length);
  active.allocate(VECTOR_SLOT_BYTES * (1 + more.length / 2));
  const copy = vector.slice();
  setIndex(copy, key, value);
  for (let i = 0; i < more.length; i += 2) setIndex(copy, more[i], more[i + 1]);
  return copy;
}

/** Writes into a vector this function has just copied (index == length appends). */
function setIndex(copy: unknown[], key: unknown, value: unknown): void {
  const index = indexOf(key);
  if (index === undefined) throw badIndex("assoc", key);
  if (index > copy.length) throw outOfBounds("assoc", key, copy.length);
  copy[index] = value === undefined ? null : value;
}

function assoc(coll: unknown, key: unknown, value: unknown, ...more: unknown[]): unknown {
  if (more.length % 2 !== 0) {
    throw new LispError(
      "arity_error",
      `assoc expects a collection followed by key-value pairs, got ${more.length + 3} arguments (a key is missing its value)`,
    );
  }
  if (Array.isArray(coll)) return assocVector(coll, key, value, more);
  let map: AnyMap;
  if (isNil(coll)) map = LispMap.empty();
  else if (isMap(coll)) map = coll;
  else throw typeError(`assoc expects a map, a vector or nil first, got ${describe(coll)}`);
  active.allocate(MAP_ENTRY_BYTES * (1 + more.length / 2));
  if (more.length === 0 && !(map instanceof LispMap)) {
    // One field of a tool's row: the row copied with it changed, when the row has it (copiedRow).
    const slot = writeKey(map, key);
    const fields = rowFieldsWith(map, slot);
    return fields > 0 ? copiedRow(map, slot as string, value, fields) : mapAssoc(map, slot, value);
  }
  map = mapPut(map, key, value);
  for (let i = 0; i < more.length; i += 2) map = mapPut(map, more[i], more[i + 1]);
  return map;
}

function dissoc(coll: unknown, ...remove: unknown[]): unknown {
  const map = requireMapOrNil(coll, "dissoc", "; to drop items of a vector use remove or subvec");
  if (map === null) return null;
  let result: AnyMap = map;
  for (const key of remove) {
    result = mapDissoc(result, writeKey(result, key));
  }
  if (result !== map) active.allocate(MAP_ENTRY_BYTES);
  return result;
}

/**
 * The function of update/update-in as a JS function of (old, ...extra). A known function that
 * cannot take that many arguments fails up front with advice, because the usual mistake is to
 * pass a default value as an extra argument: (update m :n inc 0).
 */
export function updater(who: string, f: unknown, extra: number): Callable {
  const count = 1 + extra;
  if (isLispFunction(f)) {
    const info = functionInfo(f);
    if (count < info.minArity || count > info.maxArity) {
      const expected =
        info.maxArity === info.minArity
          ? `${info.minArity}`
          : info.maxArity === Number.POSITIVE_INFINITY
            ? `${info.minArity} or more`
            : `${info.minArity} to ${info.maxArity}`;
      const advice =
        count > info.maxArity
          ? ` ${who} passes the old value plus its ${extra} extra argument(s) to the function. For a default value use (fnil f default) or (or old default) inside the function.`
          : "";
      throw new LispError(
        "arity_error",
        `${who}: the function takes ${expected} argument(s) but would be called with ${count}.${advice}`,
      );
    }
  }
  // A builtin that takes that many arguments is called as it is: toCallable's wrapper would check
  // the count again on every call and gather the arguments into an array.
  if (isLispFunction(f) && count >= functionInfo(f).minArity && count <= functionInfo(f).maxArity)
    return f as Callable;
  return toCallable(f, `${who} function`);
}

function update(coll: unknown, key: unknown, f: unknown, ...extra: unknown[]): MaybePromise<unknown> {
  const fn = updater("update", f, extra.length);
  if (Array.isArray(coll)) {
    const index = indexOf(key);
    if (index === undefined) throw badIndex("update", key);
    if (index >= coll.length) throw outOfBounds("update", key, coll.length);
    const value = callUpdate(fn, coll[index], extra);
    if (value instanceof Promise) return after(value, (resolved) => vectorWith(coll, index, resolved));
    return vectorWith(coll, index, value);
  }
  let map: AnyMap;
  if (isNil(coll)) map = LispMap.empty();
  else if (isMap(coll)) map = coll;
  else throw typeError(`update expects a map or a vector first, got ${describe(coll)}`);
  // The key written and the value under it in one lookup per spelling (writeKey's rule).
  const slot = updateSlot(map, key);
  const value = callUpdate(fn, updateFound(), extra);
  if (value instanceof Promise) return after(value, (resolved) => assocCharged(map, slot, resolved));
  return assocCharged(map, slot, value);
}

/**
 * The map `update` (and `update-in` with a one-key path) reads and writes: a map as it is, nil as
 * an empty map; undefined for anything else, which only the builtin itself handles (generated
 * code, compiler/specialized-calls.ts).
 */
export function updateTarget(coll: unknown): AnyMap | undefined {
  if (isNil(coll)) return LispMap.empty();
  return isMap(coll) ? coll : undefined;
}

/**
 * Counters that prove the plain-row paths ran (tests only; results never depend on them): rows
 * copied with one field changed, by the builtins here or by generated code, and copies a fused
 * pipeline's next stage changed in place.
 */
export const rowUpdateStats = { copies: 0, inPlace: 0 };

/**
 * A host row with its field `key` changed, as a plain object again: what JavaScript's
 * `{ ...row, [key]: value }` gives, where a program map over the row would make every later read
 * of the result take the program-map path. Only for a row of `fields` fields that rowFieldsWith
 * accepts (the field already there, so the key order is the row's); the caller has charged the
 * entry, and the copy is charged here as a vector's copy is (time and the copy allowance).
 */
export function copiedRow(row: PlainObject, key: string, value: unknown, fields: number): PlainObject {
  rowUpdateStats.copies++;
  active.copy(fields);
  const copy = { ...row };
  copy[key] = value === undefined ? null : value;
  return copy;
}

/** `map` with `value` under `key` (a key found by writeKey), charged as update charges it. */
export function assocCharged(map: AnyMap, key: unknown, value: unknown): AnyMap {
  active.allocate(MAP_ENTRY_BYTES);
  const fields = map instanceof LispMap ? 0 : rowFieldsWith(map, key);
  return fields > 0 ? copiedRow(map as PlainObject, key as string, value, fields) : mapAssoc(map, key, value);
}

/**
 * assocCharged for the map a fused pipeline's `map` stage updates, when the stage below made
 * `fresh` and handed it on to nobody else (compiler/fresh-stages.ts): that map, if it is `map`,
 * is changed in place instead of derived from. Charged as assocCharged, so limits are the same.
 */
export function assocFresh(map: AnyMap, key: unknown, value: unknown, fresh: unknown): AnyMap {
  active.allocate(MAP_ENTRY_BYTES);
  if (map === fresh) {
    if (map instanceof LispMap) {
      if (map.ownsPairs()) {
        fastTierStats.freshInPlace++;
        return map.assocUnshared(key, value);
      }
    } else if (typeof key === "string" && key !== "__proto__" && hasOwnField.call(map, key)) {
      // A plain object handed on as fresh is a copy copiedRow made (the only plain map an update
      // derives), every field of it its own writable data: the field it has is set in place.
      fastTierStats.freshInPlace++;
      rowUpdateStats.inPlace++;
      map[key] = value === undefined ? null : value;
      return map;
    }
  }
  const fields = map instanceof LispMap ? 0 : rowFieldsWith(map, key);
  return fields > 0 ? copiedRow(map as PlainObject, key as string, value, fields) : mapAssoc(map, key, value);
}

const hasOwnField = Object.prototype.hasOwnProperty;

/**
 * assocCharged for the map at depth 1 or more of an update-in path whose top is the owned
 * accumulator of a running reduce (compiler/accumulator-use.ts, nestedUpdateCalls): a map this
 * reduce's update-in made there earlier (listed in `made`) is changed in place, as the accumulator
 * itself is; any other map is derived from as usual, and the new map, which only this path holds,
 * is listed when its entries are its own. When `top` is no longer owned, plain assocCharged.
 */
export function assocNested(
  map: AnyMap,
  key: unknown,
  value: unknown,
  made: Set<unknown>,
  top: unknown,
): LispMap {
  return assocBelowOwned(map, key, value, made, top, fastTierStats);
}

const NO_ARGUMENTS: readonly unknown[] = [];

function assocIn(coll: unknown, path: unknown, value: unknown): MaybePromise<unknown> {
  const steps = seqOf(path, "assoc-in");
  if (steps.length === 0) return value;
  return updatePath("assoc-in", coll, steps, null, value, NO_ARGUMENTS, true);
}

/**
 * update-in for a call whose maps below an owned accumulator may change in place (generated code,
 * compiler/nested-updates.ts): the builtin, with `made` (support/nested-in-place.ts) given to the walk.
 */
export function updateInBelowOwned(
  made: Set<unknown>,
  coll: unknown,
  path: unknown,
  f: unknown,
  ...extra: unknown[]
): MaybePromise<unknown> {
  const fn = updater("update-in", f, extra.length);
  const steps = seqOf(path, "update-in");
  if (steps.length === 0) return callUpdate(fn, coll, extra);
  return updatePath("update-in", coll, steps, fn, null, extra, false, made);
}

function updateIn(coll: unknown, path: unknown, f: unknown, ...extra: unknown[]): MaybePromise<unknown> {
  const fn = updater("update-in", f, extra.length);
  const steps = seqOf(path, "update-in");
  if (steps.length === 0) return callUpdate(fn, coll, extra);
  if (steps.length === 1 && isMap(coll)) {
    // One key into a map: updatePath's one step, written as update writes it (assocCharged: a
    // tool's row comes back a plain row, so later reads of it stay on the plain-row paths).
    const slot = updateSlot(coll, steps[0]);
    const value = callUpdate(fn, updateFound(), extra);
    if (value instanceof Promise) return after(value, (resolved) => assocCharged(coll, slot, resolved));
    return assocCharged(coll, slot, value);
  }
  return updatePath("update-in", coll, steps, fn, null, extra, false);
}

function merge(...maps: unknown[]): AnyMap {
  let result: AnyMap | null = null;
  for (let i = 0; i < maps.length; i++) {
    const next = mergeArgument(maps[i], i + 1, "merge");
    if (next === null || mapSize(next) === 0) {
      if (result === null && next !== null) result = next;
      continue;
    }
    if (result === null || mapSize(result) === 0) {
      result = next;
      continue;
    }
    const added = mapEntries(next);
    active.work(added.length);
    // Only the entries added: a host map is read through, not copied (values/versioned-table.ts).
    active.allocate(MAP_ENTRY_BYTES * added.length);
    let merged = toLispMap(result);
    for (let j = 0; j < added.length; j++) {
      const [key, value] = added[j] as readonly [unknown, unknown];
      merged = mapPut(merged, key, value);
      if ((j & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    result = merged;
  }
  return result ?? LispMap.empty();
}

function swappedMapFunction(who: string, map: unknown, f: unknown): void {
  if (isLispFunction(map) && isMap(f)) {
    throw typeError(
      `${who} expects (map, function) but got (function, map). Write (${who} m f); in a pipeline use -> (thread-first), not ->>, with ${who}`,
    );
  }
}

/** update-vals (side 1) and update-keys (side 0): f applied to one side of every entry. */
function updateSide(who: "update-vals" | "update-keys", side: 0 | 1) {
  return (map: unknown, f: unknown): MaybePromise<LispMap | null> => {
    swappedMapFunction(who, map, f);
    const m = requireMapOrNil(map, who);
    const fn = toCallable(f, `${who} function`);
    if (m === null) return null;
    const list = mapEntries(m);
    chargeMap(list.length);
    const builder = new MapBuilder();
    const done = eachResult(
      0,
      list.length,
      (i) => fn((list[i] as readonly unknown[])[side]),
      (i, result) => {
        const entry = list[i] as readonly unknown[];
        if (side === 1) builder.set(entry[0], result);
        else builderPut(builder, result, entry[1]);
        return true;
      },
    );
    return done === undefined ? builder.build() : after(done, () => builder.build());
  };
}

const updateVals = updateSide("update-vals", 1);
const updateKeys = updateSide("update-keys", 0);

// ---------------------------------------------------------------- building

function zipmap(keyColl: unknown, valueColl: unknown): LispMap {
  const ks = seqOf(keyColl, "zipmap");
  const vs = seqOf(valueColl, "zipmap");
  const count = Math.min(ks.length, vs.length);
  chargeMap(count);
  const builder = new MapBuilder();
  for (let i = 0; i < count; i++) {
    builderPut(builder, ks[i], vs[i]);
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return builder.build();
}

function pairsToMap(who: string) {
  return (...args: unknown[]): LispMap => {
    if (args.length % 2 !== 0) {
      throw new LispError(
        "arity_error",
        `${who} requires an even number of arguments (key-value pairs), got ${args.length}`,
      );
    }
    chargeMap(args.length / 2);
    const builder = new MapBuilder();
    for (let i = 0; i < args.length; i += 2) builderPut(builder, args[i], args[i + 1]);
    return builder.build();
  };
}

const CATEGORY = "Maps";

export const mapsBuiltins: BuiltinDefinition[] = [
  builtin(
    "get",
    [2, 3],
    ["[m key]", "[m key not-found]"],
    'Value under key in a map (flexible: :a also finds "a") or at an index of a vector; nil or not-found when missing.',
    CATEGORY,
    get,
    [
      ["(get {:a 1} :a)", "1"],
      ["(get {:a 1} :b 0)", "0"],
      ['(get {"user_id" 7} :user-id)', "7"],
      ["(get [10 20] 1)", "20"],
    ],
  ),
  builtin(
    "get-in",
    [2, 3],
    ["[m path]", "[m path not-found]"],
    "Value at a path of keys and vector indices; nil or not-found when any step is missing.",
    CATEGORY,
    getInPath,
    [
      ['(get-in {:user {:name "Ann"}} [:user :name])', '"Ann"'],
      ["(get-in {:rows [{:id 7}]} [:rows 0 :id])", "7"],
      ["(get-in {} [:a :b] :none)", ":none"],
    ],
  ),
  builtin(
    "assoc",
    [3, Infinity],
    ["[m key val]", "[m key val & kvs]"],
    "The map with key set to val (nil is an empty map), or the vector with the index replaced (index = count appends).",
    CATEGORY,
    assoc,
    [
      ["(assoc {:a 1} :b 2)", "{:a 1 :b 2}"],
      ["(assoc nil :a 1 :b 2)", "{:a 1 :b 2}"],
      ["(assoc [1 2 3] 1 :x)", "[1 :x 3]"],
    ],
  ),
  builtin(
    "assoc-in",
    [3, 3],
    ["[m path val]"],
    "The structure with val set at the path; missing maps on the way are created.",
    CATEGORY,
    assocIn,
    [
      ['(assoc-in {} [:user :name] "Bob")', '{:user {:name "Bob"}}'],
      ["(assoc-in [[1 2] [3 4]] [0 1] 9)", "[[1 9] [3 4]]"],
    ],
  ),
  builtin(
    "update",
    [3, Infinity],
    ["[m key f & args]"],
    "The map (or vector) with the value under key replaced by (f old-value args...).",
    CATEGORY,
    update,
    [
      ["(update {:n 1} :n inc)", "{:n 2}"],
      ["(update {:n 1} :n + 10)", "{:n 11}"],
      ["(update {} :n (fnil inc 0))", "{:n 1}"],
    ],
  ),
  builtin(
    "update-in",
    [3, Infinity],
    ["[m path f & args]"],
    "The structure with the value at the path replaced by (f old-value args...); missing maps are created.",
    CATEGORY,
    updateIn,
    [
      ["(update-in {:a {:b 1}} [:a :b] + 10)", "{:a {:b 11}}"],
      ["(update-in {} [:stats :count] (fnil inc 0))", "{:stats {:count 1}}"],
    ],
  ),
  builtin(
    "dissoc",
    [1, Infinity],
    ["[m & keys]"],
    "The map without the keys (nil stays nil).",
    CATEGORY,
    dissoc,
    [["(dissoc {:a 1 :b 2 :c 3} :a :c)", "{:b 2}"]],
  ),
  builtin(
    "merge",
    [0, Infinity],
    ["[& maps]"],
    "One map with the entries of all maps; later maps win. nil arguments are skipped.",
    CATEGORY,
    merge,
    [
      ["(merge {:a 1 :b 2} {:b 3})", "{:a 1 :b 3}"],
      ["(merge nil {:a 1})", "{:a 1}"],
    ],
  ),
  builtin(
    "merge-with",
    [1, Infinity],
    ["[f & maps]"],
    "Like merge, but a key present in several maps gets (f earlier-value later-value).",
    CATEGORY,
    mergeWith,
    [["(merge-with + {:a 1 :b 2} {:a 10})", "{:a 11 :b 2}"]],
  ),
  builtin(
    "select-keys",
    [2, 2],
    ["[m keys]"],
    "A map of only the given keys that are present (found flexibly, stored under the keys asked for).",
    CATEGORY,
    selectKeys,
    [["(select-keys {:a 1 :b 2 :c 3} [:a :c :z])", "{:a 1 :c 3}"]],
  ),
  builtin(
    "keys",
    [1, 1],
    ["[m]"],
    "The keys of a map as a vector, in sorted key order; nil for nil.",
    CATEGORY,
    keys,
    [
      ["(keys {:b 2 :a 1})", "[:a :b]"],
      ["(keys nil)", "nil"],
    ],
  ),
  builtin(
    "vals",
    [1, 1],
    ["[m]"],
    "The values of a map as a vector, in the order of (keys m); nil for nil.",
    CATEGORY,
    vals,
    [["(vals {:b 2 :a 1})", "[1 2]"]],
  ),
  builtin(
    "entries",
    [1, 1],
    ["[m]"],
    "The [key value] entries of a map as a vector, in key order.",
    CATEGORY,
    entries,
    [["(entries {:b 2 :a 1})", "[[:a 1] [:b 2]]"]],
  ),
  builtin("key", [1, 1], ["[entry]"], "The key of a map entry [k v].", CATEGORY, entryPart("key", 0), [
    ["(key [:a 1])", ":a"],
  ]),
  builtin("val", [1, 1], ["[entry]"], "The value of a map entry [k v].", CATEGORY, entryPart("val", 1), [
    ["(val [:a 1])", "1"],
  ]),
  builtin(
    "update-vals",
    [2, 2],
    ["[m f]"],
    "The map with every value replaced by (f value).",
    CATEGORY,
    updateVals,
    [["(update-vals {:a 1 :b 2} inc)", "{:a 2 :b 3}"]],
  ),
  builtin(
    "update-keys",
    [2, 2],
    ["[m f]"],
    "The map with every key replaced by (f key); when two keys collide, the later one in key order wins.",
    CATEGORY,
    updateKeys,
    [["(update-keys {:a 1 :b 2} name)", '{"a" 1 "b" 2}']],
  ),
  builtin(
    "zipmap",
    [2, 2],
    ["[keys vals]"],
    "A map pairing each key with the value at the same position (stops at the shorter).",
    CATEGORY,
    zipmap,
    [["(zipmap [:a :b :c] [1 2])", "{:a 1 :b 2}"]],
  ),
  builtin(
    "hash-map",
    [0, Infinity],
    ["[& kvs]"],
    "A map of the key-value pairs.",
    CATEGORY,
    pairsToMap("hash-map"),
    [["(hash-map :a 1 :b 2)", "{:a 1 :b 2}"]],
  ),
  builtin(
    "array-map",
    [0, Infinity],
    ["[& kvs]"],
    "Same as hash-map (maps keep keys in sorted order either way).",
    CATEGORY,
    pairsToMap("array-map"),
    [["(array-map :b 2 :a 1)", "{:a 1 :b 2}"]],
  ),
  builtin(
    "find",
    [2, 2],
    ["[pred coll]"],
    "The first item of coll for which (pred item) is truthy, or nil; a map's items are [k v] entries.",
    CATEGORY,
    find,
    [
      ["(find even? [1 3 4 5])", "4"],
      ["(find :admin [{:id 1} {:id 2 :admin true}])", "{:admin true :id 2}"],
      ["(find #{2 4} #{1 2 3})", "2"],
    ],
  ),
];
