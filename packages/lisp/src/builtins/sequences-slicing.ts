/**
 * Sequence slicing: the items after the first n (nthrest, nthnext), the first or last n (take,
 * drop, take-last, drop-last, split-at) and fixed-size chunks (partition, partition-all). Counts
 * come first, as in the reference, and a swapped call gets a hint; see sequences.ts for the rules
 * all sequence builtins share.
 */
import { typeError } from "../errors.js";
import { active } from "../runtime/context.js";
import { typeName } from "../runtime/describe.js";
import { seqOf } from "../runtime/sequences.js";
import { LispSet } from "../values/lisp-set.js";
import { isMap, mapEntries } from "../values/map-access.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import {
  chargeVector,
  described,
  EMPTY,
  integerArg,
  notCollectionError,
  unorderedSetError,
  vectorBytes,
} from "./support/seq-common.js";
import { isCollection, slice, stringItems } from "./support/seq-items.js";

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

export function take(n: unknown, coll: unknown): unknown[] {
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
  return slice(items, count, items.length);
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
  return count <= 0 ? (items as unknown[]) : slice(items, count, items.length);
}

function nthnext(coll: unknown, n: unknown): unknown[] | null {
  const count = integerArg(n, "nthnext", "count", "(nthnext coll n)");
  const items = seqOf(coll, "nthnext");
  const tail = count <= 0 ? (items as unknown[]) : slice(items, count, items.length);
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
  for (let i = 0; i < full; i++) {
    out[i] = items.slice(i * step, i * step + size);
    // The charge above is one clock read: overlapping chunks copy size items each, so each chunk
    // is charged its size (a thousand chunks of a thousand items are a million copies).
    active.work(size);
  }
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

const CATEGORY = "Sequences";

export const sequenceSlicingBuiltins: BuiltinDefinition[] = [
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
];
