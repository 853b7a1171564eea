/**
 * sorted-map and sorted-set: an extension of the reference, which has neither.
 *
 * Every map and set of the language already iterates, prints and compares in term order
 * (values/term-order.ts), and every builtin that derives one from another (assoc, dissoc, conj,
 * disj, into, merge...) keeps that order, because it is the order of all maps and sets. So a
 * sorted collection needs no type of its own: these return ordinary maps and sets, and
 * `(into (sorted-map) m)` or `(assoc sm k v)` stay sorted for free. What that costs, and how term
 * order relates to Clojure's `compare`, is in docs/differences.md: `sorted?` cannot tell these
 * apart from other maps and sets (it stays false), and there is no custom order, hence no
 * sorted-map-by or sorted-set-by.
 */
import { LispError } from "../errors.js";
import { mapBytes, setBytes } from "../runtime/allocation.js";
import { active } from "../runtime/context.js";
import { type LispMap, MapBuilder } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { builderPut } from "../values/map-access.js";
import { type BuiltinDefinition, builtin } from "./definition.js";

function sortedMap(...keyvals: unknown[]): LispMap {
  if (keyvals.length % 2 !== 0) {
    // `(sorted-map m)`, meaning "sort this map", is the likely slip: say how to write that too.
    throw new LispError(
      "arity_error",
      `sorted-map requires an even number of arguments (key-value pairs), got ${keyvals.length}; ` +
        "write (sorted-map k1 v1 k2 v2 ...), or (into (sorted-map) m) to sort an existing map",
    );
  }
  const entries = keyvals.length / 2;
  active.work(entries);
  active.allocate(mapBytes(entries));
  const builder = new MapBuilder();
  // builderPut, not builder.set: the same write rule as every other map (see map-access.ts).
  for (let i = 0; i < keyvals.length; i += 2) builderPut(builder, keyvals[i], keyvals[i + 1]);
  return builder.build();
}

function sortedSet(...members: unknown[]): LispSet {
  active.work(members.length);
  active.allocate(setBytes(members.length));
  return LispSet.from(members);
}

export const sortedCollectionsBuiltins: BuiltinDefinition[] = [
  builtin(
    "sorted-map",
    [0, Infinity],
    ["[& kvs]"],
    "A map of the key-value pairs, keys in ascending order; an ordinary map, since every map keeps its keys sorted.",
    "Maps",
    sortedMap,
    [
      ["(sorted-map :b 2 :a 1)", "{:a 1 :b 2}"],
      ['(keys (into (sorted-map) {"b" 1 "a" 2}))', '["a" "b"]'],
    ],
  ),
  builtin(
    "sorted-set",
    [0, Infinity],
    ["[& items]"],
    "A set of the arguments, members in ascending order; an ordinary set, since every set keeps its members sorted.",
    "Sets",
    sortedSet,
    [
      ["(sorted-set 3 1 2 1)", "#{1 2 3}"],
      ["(vec (conj (sorted-set 3 1) 2))", "[1 2 3]"],
    ],
  ),
];
