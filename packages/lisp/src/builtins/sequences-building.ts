/**
 * Building sequences from others: joining (concat, into, conj, cons), flattening, weaving two
 * together (interleave, interpose, zip) and choosing (combinations). conj and into also fill sets
 * and maps, taking [key value] entries; see sequences.ts for the rules all sequence builtins share.
 */
import { typeError } from "../errors.js";
import {
  chargeUnboundedVector,
  MAP_ENTRY_BYTES,
  SET_MEMBER_BYTES,
  VECTOR_SLOT_BYTES,
} from "../runtime/allocation.js";
import { active } from "../runtime/context.js";
import { graphemes } from "../runtime/graphemes.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { ownedVector } from "../runtime/owned-vector.js";
import { itemsOf, seqOf } from "../runtime/sequences.js";
import { type LispMap, MapBuilder } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { builderPut, isMap, mapEntries, mapPut, mapSize, toLispMap } from "../values/map-access.js";
import { checkVectorLength, vectorPolicy, vectorTooLongError } from "../values/vector-limit.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { flatTextKeyMap } from "./support/into-map.js";
import {
  chargeCopy,
  chargeVector,
  described,
  EMPTY,
  notCollectionError,
  shown,
  unorderedSetError,
  vectorBytes,
} from "./support/seq-common.js";
import { nil } from "./support/seq-items.js";

function concatItems(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return EMPTY;
  if (value instanceof LispSet) return value.members();
  if (isMap(value)) return mapEntries(value) as unknown as readonly unknown[];
  if (typeof value === "string") {
    throw typeError(
      `concat expects collections, got string ${shown(value)}; for its characters write (concat (vec s) ...)`,
    );
  }
  throw typeError(`concat expects collections, got ${described(value)}`);
}

function concat(...colls: unknown[]): unknown[] {
  if (colls.length === 2) {
    const a = concatItems(colls[0]);
    const b = concatItems(colls[1]);
    chargeUnboundedVector(a.length + b.length);
    active.work(a.length + b.length);
    const out = new Array<unknown>(a.length + b.length);
    // The charge above reads the clock once; copies of ten million items read it as they go.
    for (let i = 0; i < a.length; i++) {
      out[i] = a[i];
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    for (let i = 0; i < b.length; i++) {
      out[a.length + i] = b[i];
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    return out;
  }
  const parts = colls.map(concatItems);
  let total = 0;
  for (const part of parts) total += part.length;
  chargeUnboundedVector(total);
  active.work(total);
  const out = new Array<unknown>(total);
  let at = 0;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      out[at++] = part[i];
      if ((at & CHECK_MASK) === 0) active.work(CHECK_EVERY);
    }
  }
  return out;
}

function isEntry(value: unknown): value is readonly [unknown, unknown] {
  return Array.isArray(value) && value.length === 2;
}

function entryError(who: string, value: unknown): Error {
  return typeError(`${who}: a map entry must be a [key value] vector, got ${described(value)}`);
}

/**
 * `(conj m x)` and `(into m xs)` on maps: [k v] entries are added, maps merged, nil ignored. Keys
 * are written by the rule every map write follows (values/map-access.ts writeKeyIn).
 */
function assocEntry(map: LispMap, item: unknown, who: string): LispMap {
  if (isEntry(item)) return mapPut(map, item[0], item[1]);
  if (item === null || item === undefined) return map;
  if (isMap(item)) {
    const entries = mapEntries(item);
    active.work(entries.length);
    let out = map;
    for (let i = 0; i < entries.length; i++) {
      const [key, value] = entries[i] as readonly [unknown, unknown];
      out = mapPut(out, key, value);
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    return out;
  }
  throw entryError(who, item);
}

/**
 * conj. On a vector it copies: vectors are flat arrays. The copy is charged as time and against
 * the copy allowance (RunContext.copy), the added items as memory; `(reduce conj v xs)` takes a
 * path that appends in place (aggregation.ts).
 */
export function conj(coll: unknown, ...items: unknown[]): unknown {
  if (items.length === 0) return coll;
  if (ownedVector.current !== undefined && coll === ownedVector.current) {
    // The accumulator of the running reduce, which nobody else can see: append in place.
    const owned = coll as unknown[];
    active.allocate(vectorBytes(items.length));
    // Grown in place, by as many items a step as the fn conjs: past the vector cap, V8's largest
    // array is near (values/vector-limit.ts).
    checkVectorLength(owned.length + items.length);
    active.work(items.length);
    for (let i = 0; i < items.length; i++) owned.push(nil(items[i]));
    return owned;
  }
  if (Array.isArray(coll)) {
    chargeCopy(coll.length);
    active.allocate(vectorBytes(items.length));
    const out = coll.slice();
    for (let i = 0; i < items.length; i++) out.push(nil(items[i]));
    return out;
  }
  if (coll === null || coll === undefined) {
    chargeVector(items.length);
    return items.map(nil);
  }
  if (coll instanceof LispSet) {
    active.allocate(SET_MEMBER_BYTES * items.length);
    let out = coll;
    for (const item of items) out = out.conj(item);
    return out;
  }
  if (isMap(coll)) {
    active.allocate(MAP_ENTRY_BYTES * items.length);
    let out = toLispMap(coll);
    for (const item of items) out = assocEntry(out, item, "conj");
    return out;
  }
  throw typeError(`conj expects a vector, map, set or nil to add to, got ${described(coll)}`);
}

function cons(item: unknown, coll: unknown): unknown[] {
  const items = typeof coll === "string" ? graphemes(coll) : seqOf(coll, "cons");
  chargeCopy(items.length);
  chargeVector(1);
  const out = new Array<unknown>(items.length + 1);
  out[0] = nil(item);
  for (let i = 0; i < items.length; i++) {
    out[i + 1] = items[i];
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return out;
}

/** Items poured by `into`: any collection; maps as entries, strings as graphemes. */
function intoItems(from: unknown): readonly unknown[] {
  const items = itemsOf(from);
  if (items === undefined) throw notCollectionError("into", from);
  return items;
}

function into(to: unknown, from: unknown): unknown {
  if (Array.isArray(to)) {
    const items = intoItems(from);
    if (items.length === 0) return to;
    chargeCopy(to.length);
    active.allocate(vectorBytes(items.length));
    active.work(items.length);
    const out = to.slice();
    for (let i = 0; i < items.length; i++) {
      out.push(items[i]);
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    return out;
  }
  if (to instanceof LispSet) {
    const items = intoItems(from);
    active.allocate(SET_MEMBER_BYTES * items.length);
    active.work(items.length);
    if (to.size === 0) return LispSet.from(items);
    let out = to;
    for (let i = 0; i < items.length; i++) {
      out = out.conj(items[i]);
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    return out;
  }
  if (to !== null && to !== undefined && isMap(to)) {
    if (from === null || from === undefined) return to;
    if (isMap(from)) {
      if (mapSize(from) === 0) return to;
      const entries = mapEntries(from);
      active.allocate(MAP_ENTRY_BYTES * entries.length);
      active.work(entries.length);
      let out = toLispMap(to);
      for (let i = 0; i < entries.length; i++) {
        const [key, value] = entries[i] as readonly [unknown, unknown];
        out = mapPut(out, key, value);
        if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
      }
      return out;
    }
    const items = intoItems(from);
    if (items.length === 0) return to;
    active.allocate(MAP_ENTRY_BYTES * items.length);
    active.work(items.length);
    if (mapSize(to) === 0) {
      const flat = flatTextKeyMap(items);
      if (flat !== undefined) return flat;
      // A fresh map is filled in place: cheaper than deriving a version per entry.
      const builder = new MapBuilder();
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (!isEntry(item)) throw entryError("into", item);
        builderPut(builder, item[0], item[1]);
        if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
      }
      return builder.build();
    }
    let out = toLispMap(to);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (!isEntry(item)) throw entryError("into", item);
      out = mapPut(out, item[0], item[1]);
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    return out;
  }
  throw typeError(
    `into expects a vector, map or set to pour into, got ${described(to)}; write (into [] coll), (into {} pairs) or (into #{} coll)`,
  );
}

function flatten(coll: unknown): unknown[] {
  if (coll === null || coll === undefined) return [];
  if (!Array.isArray(coll)) {
    if (coll instanceof LispSet) throw unorderedSetError("flatten");
    throw typeError(`flatten expects a vector, got ${described(coll)}`);
  }
  const out: unknown[] = [];
  // An explicit stack: data built by a program can nest deeper than the JS call stack. The walk is
  // charged as it goes: a vector whose two items are the same vector, nested 40 deep, flattens
  // to 2^40 items, which must stop at the run's limits rather than fill the host's memory.
  const stack: Array<{ items: readonly unknown[]; at: number }> = [{ items: coll, at: 0 }];
  active.work(coll.length);
  let charged = 0;
  // The cap on a vector's length (values/vector-limit.ts), checked as each item is pushed.
  const cap = vectorPolicy.maxLength;
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { items: readonly unknown[]; at: number };
    if (top.at >= top.items.length) {
      stack.pop();
      continue;
    }
    const item = top.items[top.at++];
    if (Array.isArray(item)) {
      active.work(item.length + 1);
      stack.push({ items: item, at: 0 });
    } else {
      if (out.length >= cap) throw vectorTooLongError(out.length + 1);
      out.push(nil(item));
      if (out.length - charged >= CHECK_EVERY) {
        // Time too: a flat vector of millions of items is one charge above.
        active.work(out.length - charged);
        active.allocate(VECTOR_SLOT_BYTES * (out.length - charged));
        charged = out.length;
      }
    }
  }
  active.allocate(vectorBytes(out.length - charged));
  return out;
}

function interleave(a: unknown, b: unknown): unknown[] {
  const left = seqOf(a, "interleave");
  const right = seqOf(b, "interleave");
  const n = Math.min(left.length, right.length);
  chargeUnboundedVector(2 * n);
  active.work(2 * n);
  const out = new Array<unknown>(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = left[i];
    out[2 * i + 1] = right[i];
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return out;
}

function interpose(separator: unknown, coll: unknown): unknown[] {
  const items = seqOf(coll, "interpose");
  if (items.length === 0) return [];
  const length = 2 * items.length - 1;
  chargeUnboundedVector(length);
  active.work(length);
  const out = new Array<unknown>(length);
  const sep = nil(separator);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out[2 * i - 1] = sep;
    out[2 * i] = items[i];
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return out;
}

function zip(a: unknown, b: unknown): unknown[][] {
  const left = seqOf(a, "zip");
  const right = seqOf(b, "zip");
  const n = Math.min(left.length, right.length);
  active.allocate(vectorBytes(n) + n * vectorBytes(2));
  active.work(n);
  const out = new Array<unknown[]>(n);
  for (let i = 0; i < n; i++) {
    out[i] = [left[i], right[i]];
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return out;
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

function combinations(coll: unknown, size: unknown): unknown[][] {
  const items = seqOf(coll, "combinations");
  // A negative or non-integer size has no combinations, as in the reference.
  if (typeof size !== "number" || !Number.isInteger(size) || size < 0) return [];
  if (size > items.length) return [];
  const total = binomial(items.length, size);
  active.allocate(vectorBytes(total) + total * vectorBytes(size));
  active.work(total * Math.max(1, size));
  const out: unknown[][] = new Array(total);
  const picks = Array.from({ length: size }, (_, i) => i);
  for (let c = 0; c < total; c++) {
    const combination = new Array<unknown>(size);
    for (let i = 0; i < size; i++) combination[i] = items[picks[i] as number];
    out[c] = combination;
    // The charge above is one clock read: millions of combinations need their own.
    if ((c & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY * size);
    // Next index set in lexicographic order.
    let i = size - 1;
    while (i >= 0 && (picks[i] as number) === items.length - size + i) i--;
    if (i < 0) break;
    picks[i] = (picks[i] as number) + 1;
    for (let j = i + 1; j < size; j++) picks[j] = (picks[j - 1] as number) + 1;
  }
  return out;
}

const CATEGORY = "Sequences";

export const sequenceBuildingBuiltins: BuiltinDefinition[] = [
  builtin(
    "concat",
    [0, Infinity],
    ["[& colls]"],
    "One vector of the items of each collection in turn (nil adds nothing).",
    CATEGORY,
    concat,
    [["(concat [1 2] [3] nil [4])", "[1 2 3 4]"]],
  ),
  builtin(
    "into",
    [2, 2],
    ["[to from]"],
    "Adds every item of from to the vector, set or map to; a map takes [key value] pairs or another map.",
    CATEGORY,
    into,
    [
      ["(into [1] [2 3])", "[1 2 3]"],
      ["(into {} [[:a 1] [:b 2]])", "{:a 1 :b 2}"],
      ["(into #{} [1 2 2])", "#{1 2}"],
    ],
  ),
  builtin(
    "conj",
    [1, Infinity],
    ["[coll x & xs]"],
    "Adds items: at the end of a vector, as members of a set, as [key value] entries of a map; nil becomes a vector.",
    CATEGORY,
    conj,
    [
      ["(conj [1 2] 3)", "[1 2 3]"],
      ["(conj #{1} 2)", "#{1 2}"],
      ["(conj {:a 1} [:b 2])", "{:a 1 :b 2}"],
      ["(conj nil 1)", "[1]"],
    ],
  ),
  builtin("cons", [2, 2], ["[x coll]"], "A vector of x followed by the items of coll.", CATEGORY, cons, [
    ["(cons 0 [1 2])", "[0 1 2]"],
  ]),
  builtin(
    "flatten",
    [1, 1],
    ["[coll]"],
    "The non-vector items of nested vectors, in order, as one flat vector.",
    CATEGORY,
    flatten,
    [["(flatten [1 [2 [3 4]] 5])", "[1 2 3 4 5]"]],
  ),
  builtin(
    "interleave",
    [2, 2],
    ["[c1 c2]"],
    "The first item of each, then the second of each... up to the shorter one.",
    CATEGORY,
    interleave,
    [["(interleave [1 2 3] [:a :b])", "[1 :a 2 :b]"]],
  ),
  builtin("interpose", [2, 2], ["[sep coll]"], "The items with sep between each two.", CATEGORY, interpose, [
    ['(interpose ", " ["a" "b" "c"])', '["a" ", " "b" ", " "c"]'],
  ]),
  builtin(
    "zip",
    [2, 2],
    ["[c1 c2]"],
    "[item1 item2] pairs of the two collections, up to the shorter one.",
    CATEGORY,
    zip,
    [["(zip [1 2] [:a :b :c])", "[[1 :a] [2 :b]]"]],
  ),
  builtin(
    "combinations",
    [2, 2],
    ["[coll n]"],
    "Every way to choose n items of coll, in order.",
    CATEGORY,
    combinations,
    [["(combinations [1 2 3] 2)", "[[1 2] [1 3] [2 3]]"]],
  ),
];
