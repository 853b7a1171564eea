/**
 * Sets: building them (set, hash-set), membership (contains?, which also answers for map keys and
 * vector elements), removal (disj) and the set algebra of clojure.set (union, intersection,
 * difference). Members are unique by `=`; a set's order is its members' term order.
 *
 * nil counts as an empty set everywhere a set is read. Results are new sets; inputs never change.
 */
import { typeError } from "../errors.js";
import { SET_MEMBER_BYTES, setBytes } from "../runtime/allocation.js";
import { active } from "../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { equals } from "../values/equality.js";
import { LispSet } from "../values/lisp-set.js";
import { isMap, lookup, mapEntries } from "../values/map-access.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { described } from "./support/seq-common.js";

function chargeSet(members: number): void {
  active.allocate(setBytes(members));
}

function set(coll: unknown): LispSet {
  if (coll instanceof LispSet) return coll;
  if (Array.isArray(coll)) {
    chargeSet(coll.length);
    active.work(coll.length);
    return LispSet.from(coll);
  }
  if (coll === null || coll === undefined) return LispSet.empty();
  if (isMap(coll)) {
    const entries = mapEntries(coll);
    chargeSet(entries.length);
    return LispSet.from(entries);
  }
  if (typeof coll === "string") {
    throw typeError(
      `set does not take a string; for its characters write (set (vec s)), for a one-string set write #{s}`,
    );
  }
  throw typeError(`set expects a collection, got ${described(coll)}`);
}

function hashSet(...members: unknown[]): LispSet {
  chargeSet(members.length);
  return LispSet.from(members);
}

function contains(coll: unknown, key: unknown): boolean {
  if (coll instanceof LispSet) return coll.has(key);
  if (Array.isArray(coll)) {
    // PTC-Lisp checks vector elements (not indices), as the reference does.
    // A scan of the whole vector: charged as it goes (it may hold millions of items).
    if (typeof key === "string") {
      for (let i = 0; i < coll.length; i++) {
        if (coll[i] === key) return true;
        if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
      }
      return false;
    }
    for (let i = 0; i < coll.length; i++) {
      if (equals(coll[i], key)) return true;
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    return false;
  }
  if (coll === null || coll === undefined) return false;
  if (isMap(coll)) return lookup(coll, key) !== undefined;
  if (typeof coll === "string") {
    throw typeError(
      "contains? checks map keys, set members and vector elements, not text; for a substring write (includes? s sub)",
    );
  }
  throw typeError(`contains? expects a map, set or vector, got ${described(coll)}`);
}

function disj(coll: unknown, ...members: unknown[]): unknown {
  if (coll === null || coll === undefined) return null;
  if (!(coll instanceof LispSet)) throw typeError(`disj expects a set, got ${described(coll)}`);
  let out = coll;
  for (const member of members) out = out.disj(member);
  return out;
}

/** A set argument of the set algebra; nil is the empty set. */
function setArg(value: unknown, who: string): LispSet {
  if (value instanceof LispSet) return value;
  if (value === null || value === undefined) return LispSet.empty();
  throw typeError(`${who} expects sets, got ${described(value)}; convert a collection with (set coll)`);
}

function union(...sets: unknown[]): LispSet {
  if (sets.length === 0) return LispSet.empty();
  const all = sets.map((value) => setArg(value, "union"));
  // Start from the largest set: only the others' members need adding.
  let largest = 0;
  for (let i = 1; i < all.length; i++)
    if ((all[i] as LispSet).size > (all[largest] as LispSet).size) largest = i;
  let out = all[largest] as LispSet;
  for (let i = 0; i < all.length; i++) {
    if (i === largest) continue;
    const members = (all[i] as LispSet).members();
    active.allocate(SET_MEMBER_BYTES * members.length);
    active.work(members.length);
    for (let j = 0; j < members.length; j++) {
      out = out.conj(members[j]);
      if ((j & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
  }
  return out;
}

function intersection(first: unknown, ...others: unknown[]): LispSet {
  let out = setArg(first, "intersection");
  const rest = others.map((value) => setArg(value, "intersection"));
  for (const other of rest) {
    const kept: unknown[] = [];
    active.work(out.size);
    const members = out.members();
    for (let i = 0; i < members.length; i++) {
      if (other.has(members[i])) kept.push(members[i]);
      if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
    if (kept.length === out.size) continue;
    chargeSet(kept.length);
    out = LispSet.from(kept);
  }
  return out;
}

function difference(first: unknown, ...others: unknown[]): LispSet {
  let out = setArg(first, "difference");
  const rest = others.map((value) => setArg(value, "difference"));
  for (const other of rest) {
    active.work(Math.min(out.size, other.size));
    if (other.size < out.size) {
      const members = other.members();
      for (let i = 0; i < members.length; i++) {
        out = out.disj(members[i]);
        if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
      }
    } else {
      const members = out.members();
      for (let i = 0; i < members.length; i++) {
        if (other.has(members[i])) out = out.disj(members[i]);
        if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
      }
    }
  }
  return out;
}

const CATEGORY = "Sets";

export const setsBuiltins: BuiltinDefinition[] = [
  builtin(
    "set",
    [1, 1],
    ["[coll]"],
    "A set of the items of a collection (map entries for a map; nil gives #{}).",
    CATEGORY,
    set,
    [["(set [1 2 2 3])", "#{1 2 3}"]],
  ),
  builtin("hash-set", [0, Infinity], ["[& items]"], "A set of the arguments.", CATEGORY, hashSet, [
    ["(hash-set 1 1 2)", "#{1 2}"],
  ]),
  builtin(
    "contains?",
    [2, 2],
    ["[coll key]"],
    'True when a map has the key (flexible: :a finds "a"), a set has the member, or a vector has the element.',
    CATEGORY,
    contains,
    [
      ["(contains? {:a 1} :a)", "true"],
      ["(contains? #{1 2} 3)", "false"],
      ['(contains? ["a" "b"] "b")', "true"],
    ],
  ),
  builtin("disj", [1, Infinity], ["[set & members]"], "The set without the given members.", CATEGORY, disj, [
    ["(disj #{1 2 3} 2)", "#{1 3}"],
  ]),
  builtin(
    "union",
    [0, Infinity],
    ["[& sets]"],
    "Members found in any of the sets (also set/union, clojure.set/union).",
    CATEGORY,
    union,
    [["(union #{1 2} #{2 3})", "#{1 2 3}"]],
  ),
  builtin(
    "intersection",
    [1, Infinity],
    ["[set & sets]"],
    "Members found in every set (also set/intersection).",
    CATEGORY,
    intersection,
    [["(intersection #{1 2 3} #{2 3 4})", "#{2 3}"]],
  ),
  builtin(
    "difference",
    [1, Infinity],
    ["[set & sets]"],
    "Members of the first set found in none of the others (also set/difference).",
    CATEGORY,
    difference,
    [["(difference #{1 2 3} #{2} #{3})", "#{1}"]],
  ),
];
