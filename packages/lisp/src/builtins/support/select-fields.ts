/**
 * `(select-keys row [:id :region :amount])` over a tool result's row (a plain object), for
 * generated code (compiler/specialized-calls.ts). The projection is not written out in each
 * program's generated code: a program run once runs its own code in V8's interpreter, where a
 * dozen bytecodes a field cost more than one call into a function that earlier programs already
 * had V8 optimize. Every list of keywords written this way has one shared KeySet; once it has
 * projected enough rows it gets a projector of its own, compiled from a fixed source text (the
 * names are captured values, never part of the text), whose field reads V8 specializes to the
 * rows' shape, as a hot keyword's field reader does (values/field-reader.ts). Until then a shared
 * function reads the fields. The same map, charges and errors as select-keys (builtins/maps.ts,
 * selectKeywords, which anything but a plain row with every field goes to).
 */
import { generatedCodePermitted } from "../../code-generation.js";
import { mapBytes } from "../../runtime/allocation.js";
import { active } from "../../runtime/context.js";
import type { Keyword } from "../../values/keyword.js";
import { LispMap } from "../../values/lisp-map.js";
import { plainObjectTest } from "../../values/plain-object.js";
import { selectKeywords } from "../maps.js";

const getPrototypeOf = Object.getPrototypeOf;
const ObjectPrototype = Object.prototype;

/** Reads a plain row's fields: the pairs [keyword, value, ...], or undefined when one is missing. */
type Projector = (row: unknown) => unknown[] | undefined;

/** Projections made from plain rows, and projectors compiled (tests prove the paths ran). */
export const selectFieldsStats = { plainRows: 0, projectors: 0 };

/** The most keywords a KeySet takes (the shared reader below spells out this many). */
export const SELECT_FIELDS_LIMIT = 4;

/** Rows a key set projects before it gets a projector of its own (compiling one costs tens of microseconds). */
const HOT_ROWS = 2000;

/** One list of distinct, direct keywords (keyword.ts), shared by every program that writes it. */
export class KeySet {
  rows = 0;
  /** The key set's own projector once hot; null when it could not have one. */
  projector: Projector | undefined | null = undefined;
  constructor(readonly keywords: readonly Keyword[]) {}
}

/** Key sets by their keywords' names; the oldest is dropped past the bound (it keeps working). */
const keySets = new Map<string, KeySet>();
const MAX_KEY_SETS = 1024;

/** The shared KeySet of distinct, direct keywords (at most SELECT_FIELDS_LIMIT), for generated code's constants. */
export function keySetOf(keywords: readonly Keyword[]): KeySet {
  // NUL never starts a keyword name that reaches here (direct names are plain text), so it separates.
  const id = keywords.map((keyword) => keyword.name).join("\u0000");
  let keySet = keySets.get(id);
  if (keySet === undefined || keySet.keywords.some((keyword, i) => keyword !== keywords[i])) {
    keySet = new KeySet(Object.freeze(keywords.slice()));
    if (keySets.size >= MAX_KEY_SETS) keySets.delete(keySets.keys().next().value as string);
    keySets.set(id, keySet);
  }
  return keySet;
}

/**
 * The shared reader: the pairs of the keywords' fields of a plain row as one array literal of its
 * final length (pushing onto `[]` would reserve sixteen slots), or undefined when a field is
 * missing. A plain object holds a direct keyword's field under its name and nowhere else, so
 * `row[name]` is the whole lookup.
 */
function sharedPairs(row: Record<string, unknown>, keywords: readonly Keyword[]): unknown[] | undefined {
  const k0 = keywords[0] as Keyword;
  const v0 = row[k0.name];
  if (v0 === undefined) return undefined;
  if (keywords.length === 1) return [k0, v0];
  const k1 = keywords[1] as Keyword;
  const v1 = row[k1.name];
  if (v1 === undefined) return undefined;
  if (keywords.length === 2) return [k0, v0, k1, v1];
  const k2 = keywords[2] as Keyword;
  const v2 = row[k2.name];
  if (v2 === undefined) return undefined;
  if (keywords.length === 3) return [k0, v0, k1, v1, k2, v2];
  const k3 = keywords[3] as Keyword;
  const v3 = row[k3.name];
  if (v3 === undefined) return undefined;
  return [k0, v0, k1, v1, k2, v2, k3, v3];
}

let serial = 0;

/** A projector for `count` keywords: its text depends on nothing but the count. */
function projectorSource(count: number): string {
  const indexes = Array.from({ length: count }, (_, i) => i);
  return `"use strict";
return function project(row) {
  if (${plainObjectTest("row")}) {
${indexes.map((i) => `    const v${i} = row[n${i}];`).join("\n")}
    if (${indexes.map((i) => `v${i} !== undefined`).join(" && ")}) return [${indexes.map((i) => `k${i}, v${i}`).join(", ")}];
  }
  return undefined;
};
// projector ${++serial}`;
}

function compileProjector(keywords: readonly Keyword[]): Projector | null {
  try {
    const parameters = keywords.flatMap((_, i) => [`n${i}`, `k${i}`]);
    const values = keywords.flatMap((keyword) => [keyword.name, keyword]);
    // A serial number makes each text unique: V8 caches compiled `new Function` texts, and
    // projectors sharing one compiled function would share its field reads again.
    const projector = new Function(...parameters, projectorSource(keywords.length))(...values) as Projector;
    selectFieldsStats.projectors++;
    return projector;
  } catch {
    return null;
  }
}

/** The pairs of a plain row's fields, or undefined (not a plain row, or a field missing). */
function plainPairs(row: unknown, keySet: KeySet): unknown[] | undefined {
  const projector = keySet.projector;
  if (projector !== undefined && projector !== null) return projector(row);
  if (
    typeof row !== "object" ||
    row === null ||
    (row as { constructor?: unknown }).constructor !== Object ||
    getPrototypeOf(row) !== ObjectPrototype
  )
    return undefined;
  if (++keySet.rows >= HOT_ROWS && projector === undefined && generatedCodePermitted())
    keySet.projector = compileProjector(keySet.keywords);
  return sharedPairs(row as Record<string, unknown>, keySet.keywords);
}

/** `(select-keys row keywords)` for a KeySet's keywords. */
export function selectFields(row: unknown, keySet: KeySet): LispMap {
  const pairs = plainPairs(row, keySet);
  if (pairs === undefined) return selectKeywords(row, keySet.keywords);
  selectFieldsStats.plainRows++;
  const n = keySet.keywords.length;
  // select-keys' charges: the keys looked at, and the map built (its entries, its bytes).
  active.work(n + n);
  active.allocate(mapBytes(n));
  return LispMap.small(pairs);
}
