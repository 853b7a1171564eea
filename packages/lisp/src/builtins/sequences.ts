/**
 * Sequences: access (first, nth, rest...), slicing (take, drop, partition...), construction (conj,
 * into, concat, range...), and whole-collection operations (count, sort, reverse, distinct...).
 *
 * Every sequence a function returns is a vector (PTC-Lisp has no lazy or list types). Strings are
 * sequences of graphemes, nil is an empty sequence, maps are sequences of [key value] entries in
 * key order where the reference allows it; functions that depend on position (first, nth, last,
 * reverse, sort...) refuse sets, and those that are positional only refuse maps too, with advice.
 *
 * Inputs are never mutated: a function returns either its input unchanged or a fresh array.
 * Memory is charged for what a persistent implementation would allocate: a fresh vector in full,
 * the added slots for conj/into/cons, nothing for a tail (rest, next, drop), as in the reference.
 */
import { typeError } from "../errors.js";
import { active } from "../runtime/context.js";
import { typeName } from "../runtime/describe.js";
import { graphemeCount, graphemes } from "../runtime/graphemes.js";
import { itemsOf, seqOf } from "../runtime/sequences.js";
import { equals } from "../values/equality.js";
import { hashKey } from "../values/hash-key.js";
import { LispMap, MapBuilder } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { type AnyMap, isMap, mapEntries, mapSize, toLispMap } from "../values/map-access.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import {
  chargeVector,
  described,
  EMPTY,
  graphemeAt,
  integerArg,
  lastGrapheme,
  notCollectionError,
  orderedItems,
  shown,
  unorderedOrNotCollection,
  unorderedSetError,
  vectorBytes,
} from "./support/seq-common.js";
import { range } from "./support/seq-range.js";
import { comparatorOf, sortedCopy } from "./support/seq-sort.js";

function nil(value: unknown): unknown {
  return value === undefined ? null : value;
}

function isCollection(value: unknown): boolean {
  return Array.isArray(value) || typeof value === "string" || value instanceof LispSet || isMap(value);
}

/** Items of a string, charged as the fresh vector they are. */
function stringItems(text: string): string[] {
  const items = graphemes(text);
  chargeVector(items.length);
  return items;
}

/**
 * Items for positional slicing (take, drop, take-last, drop-last): vectors, nil, strings and maps
 * (as entries, in key order); sets are refused as unordered.
 */
function positionalItems(value: unknown, who: string): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return EMPTY;
  if (typeof value === "string") return stringItems(value);
  if (value instanceof LispSet) throw unorderedSetError(who);
  if (isMap(value)) return mapEntries(value) as unknown as readonly unknown[];
  throw notCollectionError(who, value);
}

/** A count argument: `(take n coll)`, with a hint when the two arguments were swapped. */
function countArg(n: unknown, coll: unknown, who: string): number {
  if (isCollection(n) && (typeof coll === "number" || typeof coll === "bigint")) {
    throw typeError(
      `${who} expects the count first: (${who} n coll), got (${who} ${typeName(n)} ${typeName(coll)})`,
    );
  }
  return integerArg(n, who, "count", `(${who} n coll)`);
}

function slice(items: readonly unknown[], start: number, end: number): unknown[] {
  const out = items.slice(start, end);
  chargeVector(out.length);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Access

function first(coll: unknown): unknown {
  if (Array.isArray(coll)) return coll.length === 0 ? null : nil(coll[0]);
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return graphemeAt(coll, 0);
  throw unorderedOrNotCollection("first", coll);
}

function second(coll: unknown): unknown {
  if (Array.isArray(coll)) return coll.length < 2 ? null : nil(coll[1]);
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return graphemeAt(coll, 1);
  throw unorderedOrNotCollection("second", coll);
}

function last(coll: unknown): unknown {
  if (Array.isArray(coll)) return coll.length === 0 ? null : nil(coll[coll.length - 1]);
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return lastGrapheme(coll);
  throw unorderedOrNotCollection("last", coll);
}

function nth(coll: unknown, index: unknown, notFound: unknown = null): unknown {
  if (typeof index !== "number" || !Number.isInteger(index)) {
    if (isCollection(index) && !isCollection(coll)) {
      throw typeError(
        `nth expects the collection first: (nth coll index), got (nth ${typeName(coll)} ${typeName(index)})`,
      );
    }
    if (typeof index !== "bigint") integerArg(index, "nth", "index", "(nth coll index)");
    // A bigint index is out of range of any collection.
    if (Array.isArray(coll) || typeof coll === "string" || coll === null || coll === undefined)
      return notFound;
    throw unorderedOrNotCollection("nth", coll);
  }
  if (Array.isArray(coll)) return index >= 0 && index < coll.length ? nil(coll[index]) : notFound;
  if (coll === null || coll === undefined) return notFound;
  if (typeof coll === "string") {
    const found = graphemeAt(coll, index);
    return found === null ? notFound : found;
  }
  throw unorderedOrNotCollection("nth", coll);
}

function rest(coll: unknown): unknown[] {
  const items = orderedItems(coll, "rest");
  return items.slice(1);
}

function next(coll: unknown): unknown[] | null {
  const items = orderedItems(coll, "next");
  return items.length <= 1 ? null : items.slice(1);
}

function butlast(coll: unknown): unknown[] {
  const items = orderedItems(coll, "butlast");
  return slice(items, 0, Math.max(0, items.length - 1));
}

// ---------------------------------------------------------------------------------------------
// Slicing

function take(n: unknown, coll: unknown): unknown[] {
  const count = countArg(n, coll, "take");
  const items = positionalItems(coll, "take");
  // A negative count takes nothing (the reference leaks Elixir's "take from the end" here).
  if (count <= 0) return [];
  return count >= items.length && Array.isArray(coll) ? coll : slice(items, 0, count);
}

function drop(n: unknown, coll: unknown): unknown[] {
  const count = countArg(n, coll, "drop");
  const items = positionalItems(coll, "drop");
  // A negative count drops nothing (the reference leaks Elixir's "drop from the end" here).
  if (count <= 0) return items as unknown[];
  return items.slice(count);
}

function takeLast(n: unknown, coll: unknown): unknown[] {
  const count = countArg(n, coll, "take-last");
  const items = positionalItems(coll, "take-last");
  if (count <= 0) return [];
  return slice(items, Math.max(0, items.length - count), items.length);
}

function dropLast(...args: unknown[]): unknown[] {
  const coll = args.length === 1 ? args[0] : args[1];
  const count = args.length === 1 ? 1 : countArg(args[0], coll, "drop-last");
  const items = positionalItems(coll, "drop-last");
  if (count <= 0) return items as unknown[];
  return slice(items, 0, Math.max(0, items.length - count));
}

function nthrest(coll: unknown, n: unknown): unknown[] {
  const count = integerArg(n, "nthrest", "count", "(nthrest coll n)");
  const items = seqOf(coll, "nthrest");
  return count <= 0 ? (items as unknown[]) : items.slice(count);
}

function nthnext(coll: unknown, n: unknown): unknown[] | null {
  const count = integerArg(n, "nthnext", "count", "(nthnext coll n)");
  const items = seqOf(coll, "nthnext");
  const tail = count <= 0 ? (items as unknown[]) : items.slice(count);
  return tail.length === 0 ? null : tail;
}

function splitAt(n: unknown, coll: unknown): unknown[] {
  const count = Math.max(0, countArg(n, coll, "split-at"));
  const items = seqOf(coll, "split-at");
  const left = slice(items, 0, count);
  chargeVector(2);
  return [left, items.slice(count)];
}

function positiveArg(value: unknown, who: string, role: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  throw typeError(`${who}: ${role} must be a positive integer, got ${described(value)}`);
}

/**
 * Chunks of `size` items starting every `step` items. Full chunks come first; then, unless
 * `leftover` is "discard", the first incomplete chunk (if any items remain), filled up from
 * `leftover`, as the reference chunks.
 */
function chunks(
  items: readonly unknown[],
  size: number,
  step: number,
  leftover: readonly unknown[] | "discard",
): unknown[][] {
  const length = items.length;
  const full = length >= size ? Math.floor((length - size) / step) + 1 : 0;
  const tailStart = full * step;
  const hasTail = leftover !== "discard" && tailStart < length;
  active.allocate(vectorBytes(full + (hasTail ? 1 : 0)) + full * vectorBytes(size));
  active.work(full * size);
  const out: unknown[][] = new Array(full);
  for (let i = 0; i < full; i++) out[i] = items.slice(i * step, i * step + size);
  if (hasTail) {
    const tail = items.slice(tailStart);
    for (let i = 0; i < leftover.length && tail.length < size; i++) tail.push(leftover[i]);
    chargeVector(tail.length);
    out.push(tail);
  }
  return out;
}

function partition(...args: unknown[]): unknown[][] {
  const size = positiveArg(args[0], "partition", "n");
  const step = args.length >= 3 ? positiveArg(args[1], "partition", "step") : size;
  const pad = args.length === 4 ? seqOf(args[2], "partition") : "discard";
  const items = seqOf(args[args.length - 1], "partition");
  return chunks(items, size, step, pad);
}

function partitionAll(...args: unknown[]): unknown[][] {
  const size = positiveArg(args[0], "partition-all", "n");
  const step = args.length === 3 ? positiveArg(args[1], "partition-all", "step") : size;
  const items = seqOf(args[args.length - 1], "partition-all");
  return chunks(items, size, step, EMPTY);
}

// ---------------------------------------------------------------------------------------------
// Construction

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
    chargeVector(a.length + b.length);
    const out = new Array<unknown>(a.length + b.length);
    for (let i = 0; i < a.length; i++) out[i] = a[i];
    for (let i = 0; i < b.length; i++) out[a.length + i] = b[i];
    return out;
  }
  const parts = colls.map(concatItems);
  let total = 0;
  for (const part of parts) total += part.length;
  chargeVector(total);
  const out = new Array<unknown>(total);
  let at = 0;
  for (const part of parts) for (let i = 0; i < part.length; i++) out[at++] = part[i];
  return out;
}

function isEntry(value: unknown): value is readonly [unknown, unknown] {
  return Array.isArray(value) && value.length === 2;
}

function entryError(who: string, value: unknown): Error {
  return typeError(`${who}: a map entry must be a [key value] vector, got ${described(value)}`);
}

/** `(conj m x)` and `(into m xs)` on maps: [k v] entries are added, maps merged, nil ignored. */
function assocEntry(map: LispMap, item: unknown, who: string): LispMap {
  if (isEntry(item)) return map.assoc(item[0], item[1]);
  if (item === null || item === undefined) return map;
  if (isMap(item)) {
    let out = map;
    for (const [key, value] of mapEntries(item)) out = out.assoc(key, value);
    return out;
  }
  throw entryError(who, item);
}

function conj(coll: unknown, ...items: unknown[]): unknown {
  if (items.length === 0) return coll;
  if (Array.isArray(coll)) {
    active.allocate(16 + 8 * items.length);
    const out = new Array<unknown>(coll.length + items.length);
    for (let i = 0; i < coll.length; i++) out[i] = coll[i];
    for (let i = 0; i < items.length; i++) out[coll.length + i] = nil(items[i]);
    return out;
  }
  if (coll === null || coll === undefined) {
    chargeVector(items.length);
    return items.map(nil);
  }
  if (coll instanceof LispSet) {
    active.allocate(24 * items.length);
    let out = coll;
    for (const item of items) out = out.conj(item);
    return out;
  }
  if (isMap(coll)) {
    active.allocate(40 * items.length);
    let out = toLispMap(coll);
    for (const item of items) out = assocEntry(out, item, "conj");
    return out;
  }
  throw typeError(`conj expects a vector, map, set or nil to add to, got ${described(coll)}`);
}

function cons(item: unknown, coll: unknown): unknown[] {
  const items = typeof coll === "string" ? graphemes(coll) : seqOf(coll, "cons");
  chargeVector(typeof coll === "string" ? items.length + 1 : 1);
  const out = new Array<unknown>(items.length + 1);
  out[0] = nil(item);
  for (let i = 0; i < items.length; i++) out[i + 1] = items[i];
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
    active.allocate(16 + 8 * items.length);
    const out = new Array<unknown>(to.length + items.length);
    for (let i = 0; i < to.length; i++) out[i] = to[i];
    for (let i = 0; i < items.length; i++) out[to.length + i] = items[i];
    return out;
  }
  if (to instanceof LispSet) {
    const items = intoItems(from);
    active.allocate(24 * items.length);
    active.work(items.length);
    if (to.size === 0) return LispSet.from(items);
    let out = to;
    for (let i = 0; i < items.length; i++) out = out.conj(items[i]);
    return out;
  }
  if (to !== null && to !== undefined && isMap(to)) {
    if (from === null || from === undefined) return to;
    if (isMap(from)) {
      if (mapSize(from) === 0) return to;
      const entries = mapEntries(from);
      active.allocate(40 * entries.length);
      let out = toLispMap(to);
      for (const [key, value] of entries) out = out.assoc(key, value);
      return out;
    }
    const items = intoItems(from);
    if (items.length === 0) return to;
    active.allocate(40 * items.length);
    active.work(items.length);
    if (mapSize(to) === 0) {
      // A fresh map is filled in place: cheaper than deriving a version per entry.
      const builder = new MapBuilder();
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (!isEntry(item)) throw entryError("into", item);
        builder.set(item[0], item[1]);
      }
      return builder.build();
    }
    let out = toLispMap(to);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (!isEntry(item)) throw entryError("into", item);
      out = out.assoc(item[0], item[1]);
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
  // An explicit stack: data built by a program can nest deeper than the JS call stack.
  const stack: Array<{ items: readonly unknown[]; at: number }> = [{ items: coll, at: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { items: readonly unknown[]; at: number };
    if (top.at >= top.items.length) {
      stack.pop();
      continue;
    }
    const item = top.items[top.at++];
    if (Array.isArray(item)) stack.push({ items: item, at: 0 });
    else out.push(nil(item));
  }
  chargeVector(out.length);
  active.work(out.length);
  return out;
}

function interleave(a: unknown, b: unknown): unknown[] {
  const left = seqOf(a, "interleave");
  const right = seqOf(b, "interleave");
  const n = Math.min(left.length, right.length);
  chargeVector(2 * n);
  const out = new Array<unknown>(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = left[i];
    out[2 * i + 1] = right[i];
  }
  return out;
}

function interpose(separator: unknown, coll: unknown): unknown[] {
  const items = seqOf(coll, "interpose");
  if (items.length === 0) return [];
  const length = 2 * items.length - 1;
  chargeVector(length);
  const out = new Array<unknown>(length);
  const sep = nil(separator);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out[2 * i - 1] = sep;
    out[2 * i] = items[i];
  }
  return out;
}

function zip(a: unknown, b: unknown): unknown[][] {
  const left = seqOf(a, "zip");
  const right = seqOf(b, "zip");
  const n = Math.min(left.length, right.length);
  active.allocate(vectorBytes(n) + n * vectorBytes(2));
  const out = new Array<unknown[]>(n);
  for (let i = 0; i < n; i++) out[i] = [left[i], right[i]];
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
    // Next index set in lexicographic order.
    let i = size - 1;
    while (i >= 0 && (picks[i] as number) === items.length - size + i) i--;
    if (i < 0) break;
    picks[i] = (picks[i] as number) + 1;
    for (let j = i + 1; j < size; j++) picks[j] = (picks[j - 1] as number) + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Emptiness and seq

function empty(coll: unknown): unknown {
  if (Array.isArray(coll)) return [];
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return "";
  if (coll instanceof LispSet) return LispSet.empty();
  if (isMap(coll)) return LispMap.empty();
  throw notCollectionError("empty", coll);
}

function sizeOf(coll: unknown, who: string): number {
  if (Array.isArray(coll)) return coll.length;
  if (coll === null || coll === undefined) return 0;
  if (typeof coll === "string") return coll.length;
  if (coll instanceof LispSet) return coll.size;
  if (isMap(coll)) return mapSize(coll as AnyMap);
  throw notCollectionError(who, coll);
}

function isEmpty(coll: unknown): boolean {
  return sizeOf(coll, "empty?") === 0;
}

function notEmpty(coll: unknown): unknown {
  return sizeOf(coll, "not-empty") === 0 ? null : coll;
}

function seq(coll: unknown): unknown {
  if (Array.isArray(coll)) return coll.length === 0 ? null : coll;
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return coll.length === 0 ? null : stringItems(coll);
  if (coll instanceof LispSet) return coll.size === 0 ? null : coll.members();
  if (isMap(coll)) return mapSize(coll) === 0 ? null : mapEntries(coll);
  throw notCollectionError("seq", coll);
}

function count(coll: unknown): number {
  if (Array.isArray(coll)) return coll.length;
  if (typeof coll === "string") return graphemeCount(coll);
  return sizeOf(coll, "count");
}

// ---------------------------------------------------------------------------------------------
// Vectors as stacks

function vectorArg(value: unknown, who: string): readonly unknown[] | null {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return null;
  if (value instanceof LispSet || isMap(value)) throw unorderedOrNotCollection(who, value);
  throw typeError(`${who} expects a vector, got ${described(value)}`);
}

function peek(coll: unknown): unknown {
  const items = vectorArg(coll, "peek");
  return items === null || items.length === 0 ? null : nil(items[items.length - 1]);
}

function pop(coll: unknown): unknown {
  const items = vectorArg(coll, "pop");
  if (items === null || items.length === 0) return null;
  return slice(items, 0, items.length - 1);
}

function subvec(v: unknown, start: unknown, end?: unknown): unknown[] {
  if (!Array.isArray(v)) throw typeError(`subvec expects a vector, got ${described(v)}`);
  const length = v.length;
  const from = Math.min(
    Math.max(integerArg(start, "subvec", "start index", "(subvec v start end)"), 0),
    length,
  );
  const to =
    end === undefined
      ? length
      : Math.min(Math.max(integerArg(end, "subvec", "end index", "(subvec v start end)"), 0), length);
  if (from >= to) return [];
  return slice(v, from, to);
}

function vector(...items: unknown[]): unknown[] {
  chargeVector(items.length);
  for (let i = 0; i < items.length; i++) if (items[i] === undefined) items[i] = null;
  return items;
}

function vec(coll: unknown): unknown {
  if (Array.isArray(coll)) return coll;
  if (coll === null || coll === undefined) return null;
  if (typeof coll === "string") return stringItems(coll);
  if (coll instanceof LispSet) return coll.members();
  if (isMap(coll)) return mapEntries(coll);
  throw notCollectionError("vec", coll);
}

// ---------------------------------------------------------------------------------------------
// Whole-collection operations

function reverse(coll: unknown): unknown[] {
  const items = orderedItems(coll, "reverse");
  const n = items.length;
  chargeVector(n);
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) out[i] = items[n - 1 - i];
  return out;
}

/** Items in first-seen order with later duplicates (by `=`) removed. */
function uniqueItems(items: readonly unknown[]): unknown[] {
  active.work(items.length);
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const key = hashKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(nil(item));
  }
  chargeVector(out.length);
  return out;
}

function distinct(coll: unknown): unknown[] {
  if (Array.isArray(coll)) return uniqueItems(coll);
  if (coll === null || coll === undefined) return [];
  if (typeof coll === "string") return uniqueItems(graphemes(coll));
  if (coll instanceof LispSet) throw unorderedSetError("distinct");
  // Map entries are distinct already (their keys are).
  if (isMap(coll)) return mapEntries(coll) as unknown as unknown[];
  throw notCollectionError("distinct", coll);
}

function isDistinct(...args: unknown[]): boolean {
  if (args.length === 2) return !equals(args[0], args[1]);
  const seen = new Set<unknown>();
  for (const arg of args) {
    const key = hashKey(arg);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function dedupe(coll: unknown): unknown[] {
  const items = seqOf(coll, "dedupe");
  active.work(items.length);
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && equals(items[i], items[i - 1])) continue;
    out.push(nil(items[i]));
  }
  chargeVector(out.length);
  return out;
}

/** Items `sort` accepts: vectors, nil, strings, maps (entries); sets are unordered. */
function sortItems(coll: unknown): readonly unknown[] {
  if (Array.isArray(coll)) return coll;
  if (coll === null || coll === undefined) return EMPTY;
  if (typeof coll === "string") return graphemes(coll);
  if (coll instanceof LispSet) throw unorderedSetError("sort");
  if (isMap(coll)) return mapEntries(coll) as unknown as readonly unknown[];
  throw notCollectionError("sort", coll);
}

function sort(...args: unknown[]): unknown[] {
  if (args.length === 1) {
    const items = sortItems(args[0]);
    chargeVector(items.length);
    active.work(items.length * Math.max(1, Math.log2(items.length + 1)));
    return sortedCopy(items, undefined);
  }
  const [comparator, coll] = args;
  if (isCollection(comparator) && typeof coll === "function") {
    throw typeError("sort expects the comparator first: (sort comparator coll), e.g. (sort > xs)");
  }
  const compare = comparatorOf(comparator, "sort");
  const items = sortItems(coll);
  chargeVector(items.length);
  active.work(items.length * Math.max(1, Math.log2(items.length + 1)));
  return sortedCopy(items, compare);
}

const CATEGORY = "Sequences";

export const sequencesBuiltins: BuiltinDefinition[] = [
  builtin(
    "first",
    [1, 1],
    ["[coll]"],
    "The first item of a vector or string, or nil when empty.",
    CATEGORY,
    first,
    [
      ["(first [1 2 3])", "1"],
      ["(first [])", "nil"],
      ['(first "hello")', '"h"'],
    ],
  ),
  builtin("second", [1, 1], ["[coll]"], "The second item, or nil.", CATEGORY, second, [
    ["(second [1 2 3])", "2"],
  ]),
  builtin("last", [1, 1], ["[coll]"], "The last item, or nil when empty.", CATEGORY, last, [
    ["(last [1 2 3])", "3"],
  ]),
  builtin(
    "nth",
    [2, 3],
    ["[coll index]", "[coll index not-found]"],
    "The item at a zero-based index; nil (or not-found) when out of range.",
    CATEGORY,
    nth,
    [
      ["(nth [10 20 30] 1)", "20"],
      ["(nth [10 20 30] 5)", "nil"],
      ["(nth [10 20 30] 5 :none)", ":none"],
    ],
  ),
  builtin(
    "rest",
    [1, 1],
    ["[coll]"],
    "All items but the first (an empty vector when there are none).",
    CATEGORY,
    rest,
    [
      ["(rest [1 2 3])", "[2 3]"],
      ["(rest [])", "[]"],
    ],
  ),
  builtin(
    "next",
    [1, 1],
    ["[coll]"],
    "All items but the first, or nil when there are none.",
    CATEGORY,
    next,
    [
      ["(next [1 2 3])", "[2 3]"],
      ["(next [1])", "nil"],
    ],
  ),
  builtin("butlast", [1, 1], ["[coll]"], "All items but the last.", CATEGORY, butlast, [
    ["(butlast [1 2 3])", "[1 2]"],
  ]),
  builtin(
    "ffirst",
    [1, 1],
    ["[coll]"],
    "(first (first coll)).",
    CATEGORY,
    (coll: unknown) => first(first(coll)),
    [["(ffirst [[1 2] [3]])", "1"]],
  ),
  builtin(
    "fnext",
    [1, 1],
    ["[coll]"],
    "(first (next coll)).",
    CATEGORY,
    (coll: unknown) => first(next(coll)),
    [["(fnext [1 2 3])", "2"]],
  ),
  builtin(
    "nfirst",
    [1, 1],
    ["[coll]"],
    "(next (first coll)).",
    CATEGORY,
    (coll: unknown) => next(first(coll)),
    [["(nfirst [[1 2] [3]])", "[2]"]],
  ),
  builtin("nnext", [1, 1], ["[coll]"], "(next (next coll)).", CATEGORY, (coll: unknown) => next(next(coll)), [
    ["(nnext [1 2 3 4])", "[3 4]"],
  ]),
  builtin(
    "nthrest",
    [2, 2],
    ["[coll n]"],
    "All items after the first n (an empty vector when none remain).",
    CATEGORY,
    nthrest,
    [["(nthrest [1 2 3] 2)", "[3]"]],
  ),
  builtin(
    "nthnext",
    [2, 2],
    ["[coll n]"],
    "All items after the first n, or nil when none remain.",
    CATEGORY,
    nthnext,
    [
      ["(nthnext [1 2 3] 2)", "[3]"],
      ["(nthnext [1 2 3] 5)", "nil"],
    ],
  ),
  builtin(
    "take",
    [2, 2],
    ["[n coll]"],
    "The first n items (all of them if fewer; none if n is not positive).",
    CATEGORY,
    take,
    [
      ["(take 2 [1 2 3 4])", "[1 2]"],
      ['(take 2 "hello")', '["h" "e"]'],
    ],
  ),
  builtin("drop", [2, 2], ["[n coll]"], "All items after the first n.", CATEGORY, drop, [
    ["(drop 2 [1 2 3 4])", "[3 4]"],
  ]),
  builtin("take-last", [2, 2], ["[n coll]"], "The last n items.", CATEGORY, takeLast, [
    ["(take-last 2 [1 2 3 4])", "[3 4]"],
  ]),
  builtin(
    "drop-last",
    [1, 2],
    ["[coll]", "[n coll]"],
    "All items but the last n (default 1).",
    CATEGORY,
    dropLast,
    [
      ["(drop-last [1 2 3 4])", "[1 2 3]"],
      ["(drop-last 2 [1 2 3 4])", "[1 2]"],
    ],
  ),
  builtin("split-at", [2, 2], ["[n coll]"], "[(take n coll) (drop n coll)].", CATEGORY, splitAt, [
    ["(split-at 2 [1 2 3 4 5])", "[[1 2] [3 4 5]]"],
  ]),
  builtin(
    "partition",
    [2, 4],
    ["[n coll]", "[n step coll]", "[n step pad coll]"],
    "Chunks of n items starting every step items; an incomplete last chunk is dropped, or filled from pad.",
    CATEGORY,
    partition,
    [
      ["(partition 2 [1 2 3 4 5])", "[[1 2] [3 4]]"],
      ["(partition 2 1 [1 2 3])", "[[1 2] [2 3]]"],
      ["(partition 3 3 [0] [1 2 3 4 5])", "[[1 2 3] [4 5 0]]"],
    ],
  ),
  builtin(
    "partition-all",
    [2, 3],
    ["[n coll]", "[n step coll]"],
    "Chunks of n items starting every step items, keeping an incomplete last chunk.",
    CATEGORY,
    partitionAll,
    [["(partition-all 2 [1 2 3 4 5])", "[[1 2] [3 4] [5]]"]],
  ),
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
  builtin(
    "empty",
    [1, 1],
    ["[coll]"],
    "An empty collection of the same kind (nil for nil).",
    CATEGORY,
    empty,
    [
      ["(empty [1 2])", "[]"],
      ["(empty {:a 1})", "{}"],
    ],
  ),
  builtin(
    "empty?",
    [1, 1],
    ["[coll]"],
    "True when the collection (or string) has no items, or is nil.",
    CATEGORY,
    isEmpty,
    [
      ["(empty? [])", "true"],
      ['(empty? "a")', "false"],
    ],
  ),
  builtin("not-empty", [1, 1], ["[coll]"], "coll itself, or nil when it is empty.", CATEGORY, notEmpty, [
    ["(not-empty [1])", "[1]"],
    ["(not-empty [])", "nil"],
  ]),
  builtin(
    "seq",
    [1, 1],
    ["[coll]"],
    "The items as a vector (map entries, set members, string graphemes), or nil when empty.",
    CATEGORY,
    seq,
    [
      ["(seq {:a 1 :b 2})", "[[:a 1] [:b 2]]"],
      ["(seq [])", "nil"],
    ],
  ),
  builtin(
    "range",
    [1, 3],
    ["[end]", "[start end]", "[start end step]"],
    "Numbers from start (default 0) up to, not including, end, by step (default 1).",
    CATEGORY,
    range,
    [
      ["(range 4)", "[0 1 2 3]"],
      ["(range 10 0 -3)", "[10 7 4 1]"],
      ["(range 1 2 0.25)", "[1 1.25 1.5 1.75]"],
    ],
  ),
  builtin("peek", [1, 1], ["[v]"], "The last item of a vector, or nil.", CATEGORY, peek, [
    ["(peek [1 2 3])", "3"],
  ]),
  builtin(
    "pop",
    [1, 1],
    ["[v]"],
    "The vector without its last item; nil for an empty vector.",
    CATEGORY,
    pop,
    [["(pop [1 2 3])", "[1 2]"]],
  ),
  builtin(
    "subvec",
    [2, 3],
    ["[v start]", "[v start end]"],
    "Items from index start up to, not including, end (indices clamped to the vector).",
    CATEGORY,
    subvec,
    [["(subvec [0 1 2 3 4] 1 3)", "[1 2]"]],
  ),
  builtin(
    "list",
    [0, Infinity],
    ["[& items]"],
    "A vector of the arguments (PTC-Lisp has no list type).",
    CATEGORY,
    vector,
    [["(list 1 2 3)", "[1 2 3]"]],
  ),
  builtin("vector", [0, Infinity], ["[& items]"], "A vector of the arguments.", CATEGORY, vector, [
    ["(vector 1 2 3)", "[1 2 3]"],
  ]),
  builtin(
    "vec",
    [1, 1],
    ["[coll]"],
    "The items of a collection as a vector (nil stays nil).",
    CATEGORY,
    vec,
    [
      ["(vec #{3 1 2})", "[1 2 3]"],
      ['(vec "ab")', '["a" "b"]'],
    ],
  ),
  builtin(
    "count",
    [1, 1],
    ["[coll]"],
    "Number of items (characters of a string, entries of a map); 0 for nil.",
    CATEGORY,
    count,
    [
      ["(count [1 2 3])", "3"],
      ['(count "héllo")', "5"],
      ["(count nil)", "0"],
    ],
  ),
  builtin("reverse", [1, 1], ["[coll]"], "The items in reverse order.", CATEGORY, reverse, [
    ["(reverse [1 2 3])", "[3 2 1]"],
  ]),
  builtin(
    "distinct",
    [1, 1],
    ["[coll]"],
    "The items without repeats, in first-seen order.",
    CATEGORY,
    distinct,
    [["(distinct [1 2 1 3 2])", "[1 2 3]"]],
  ),
  builtin(
    "distinct?",
    [1, Infinity],
    ["[x & more]"],
    "True when no two arguments are equal.",
    CATEGORY,
    isDistinct,
    [
      ["(distinct? 1 2 3)", "true"],
      ["(distinct? 1 2 1)", "false"],
    ],
  ),
  builtin("dedupe", [1, 1], ["[coll]"], "The items with consecutive repeats collapsed.", CATEGORY, dedupe, [
    ["(dedupe [1 1 2 2 1])", "[1 2 1]"],
  ]),
  builtin(
    "sort",
    [1, 2],
    ["[coll]", "[comparator coll]"],
    "The items in ascending order, or by a comparator: <, >, :asc, :desc or a function of 2 arguments.",
    CATEGORY,
    sort,
    [
      ["(sort [3 1 2])", "[1 2 3]"],
      ["(sort > [3 1 2])", "[3 2 1]"],
      ['(sort ["b" "a"])', '["a" "b"]'],
    ],
  ),
];
