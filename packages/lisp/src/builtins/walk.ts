/**
 * Tree walking: walk, prewalk, postwalk (clojure.walk, referred by default) and tree-seq.
 *
 * Vectors stay vectors, sets stay sets and maps stay maps (walked as [key value] entries); any
 * other value is a leaf. Callbacks may return promises: the walk then continues asynchronously,
 * visiting nodes in the same order, one at a time.
 */
import { LispError } from "../errors.js";
import { mapBytes, setBytes, VECTOR_BYTES, VECTOR_SLOT_BYTES } from "../runtime/allocation.js";
import { after, eachResult, type MaybePromise } from "../runtime/async.js";
import type { Callable } from "../runtime/call.js";
import { active } from "../runtime/context.js";
import { CHECK_EVERY, CHECK_MASK } from "../runtime/interruptible.js";
import { itemsOf } from "../runtime/sequences.js";
import { MapBuilder } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { isMap, mapEntries } from "../values/map-access.js";
import { checkVectorLength } from "../values/vector-limit.js";
import { type BuiltinDefinition, builtin } from "./definition.js";
import { callbackOf, describeValue, truthy, vectorBytes } from "./support/hof-common.js";

type Step = (value: unknown) => unknown;

/** (f item) for each item, in order, into a new array. */
function mapEach(f: Step, items: readonly unknown[]): MaybePromise<unknown[]> {
  const out = new Array<unknown>(items.length);
  const done = eachResult(
    0,
    items.length,
    (i) => f(items[i]),
    (i, result) => {
      out[i] = result ?? null;
      return true;
    },
  );
  return after(done, () => out);
}

function entriesToMap(who: string, results: readonly unknown[]): unknown {
  const builder = new MapBuilder();
  for (let i = 0; i < results.length; i++) {
    const result = results[i];
    if ((i & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    if (!Array.isArray(result) || result.length !== 2) {
      throw new LispError(
        "type_error",
        `${who}: when walking a map, the function must return a [key value] vector for each entry, got ${describeValue(result)}`,
      );
    }
    builder.set(result[0], result[1]);
  }
  active.allocate(mapBytes(results.length));
  return builder.build();
}

/** One level of a walk: inner on each child of form, the rebuilt form handed to outer. */
function walkLevel(who: string, inner: Step, outer: Step, form: unknown): unknown {
  if (Array.isArray(form)) {
    active.work(form.length);
    return after(mapEach(inner, form), (items) => {
      active.allocate(vectorBytes(items.length));
      return outer(items);
    });
  }
  if (form instanceof LispSet) {
    const members = form.members();
    active.work(members.length);
    return after(mapEach(inner, members), (items) => {
      active.allocate(setBytes(items.length));
      return outer(LispSet.from(items));
    });
  }
  if (form !== null && form !== undefined && typeof form === "object" && isMap(form)) {
    const entries = mapEntries(form) as unknown as readonly unknown[];
    active.work(entries.length);
    return after(mapEach(inner, entries), (results) => outer(entriesToMap(who, results)));
  }
  return outer(form);
}

const keep: Step = (value) => value;

function walk(innerArg: unknown, outerArg: unknown, form: unknown): unknown {
  const inner = callbackOf(innerArg, 1, "walk", "inner function");
  const outer = callbackOf(outerArg, 1, "walk", "outer function");
  return walkLevel("walk", inner, outer, form);
}

function prewalkWith(f: Callable, form: unknown): unknown {
  return after(f(form), (walked) =>
    walkLevel("prewalk", (child) => prewalkWith(f, child), keep, walked ?? null),
  );
}

function postwalkWith(f: Callable, form: unknown): unknown {
  return after(
    walkLevel("postwalk", (child) => postwalkWith(f, child), keep, form),
    (walked) => f(walked),
  );
}

function prewalk(fnArg: unknown, form: unknown): unknown {
  return prewalkWith(callbackOf(fnArg, 1, "prewalk"), form);
}

function postwalk(fnArg: unknown, form: unknown): unknown {
  return postwalkWith(callbackOf(fnArg, 1, "postwalk"), form);
}

/** Depth-first, parents before children: each node, then the nodes under its children. */
function treeSeq(branchArg: unknown, childrenArg: unknown, root: unknown): MaybePromise<unknown[]> {
  const isBranch = callbackOf(branchArg, 1, "tree-seq", "branch? function");
  const childrenOf = callbackOf(childrenArg, 1, "tree-seq", "children function");
  const out: unknown[] = [];
  const visit = (node: unknown): MaybePromise<void> => {
    checkVectorLength(out.length + 1);
    out.push(node);
    active.work(1);
    // Each node is charged as it is added: a tree that shares its branches (a vector of the same
    // vector, nested) has 2^depth nodes, and a charge at the end came only after the whole walk,
    // which ran out of time (or past V8's largest array, aborting the process) long before. The
    // vector cap, checked before the push, keeps it short of that array whatever the budget.
    active.allocate(VECTOR_SLOT_BYTES);
    return after(isBranch(node), (branch) => {
      if (!truthy(branch)) return undefined;
      return after(childrenOf(node), (children) => {
        const kids = itemsOf(children);
        if (kids === undefined) {
          throw new LispError(
            "type_error",
            `tree-seq: the children function must return a collection (or nil), got ${describeValue(children)}`,
          );
        }
        return eachResult(
          0,
          kids.length,
          (i) => visit(kids[i]),
          () => true,
        );
      });
    });
  };
  return after(visit(root ?? null), () => {
    active.allocate(VECTOR_BYTES);
    return out;
  });
}

const CATEGORY = "Tree walking";

export const walkBuiltins: BuiltinDefinition[] = [
  builtin(
    "walk",
    [3, 3],
    ["[inner outer form]"],
    "Applies inner to each element of form (map entries as [k v]), rebuilds the same kind of collection and returns (outer result).",
    CATEGORY,
    walk,
    [
      ["(walk inc #(apply + %) [1 2 3])", "9"],
      ["(walk identity identity #{1 2})", "#{1 2}"],
    ],
  ),
  builtin(
    "prewalk",
    [2, 2],
    ["[f form]"],
    "Rebuilds form top-down: f is applied to each node before its children are walked.",
    CATEGORY,
    prewalk,
    [["(prewalk #(if (= % :x) :y %) {:a :x :b [:x :z]})", "{:a :y :b [:y :z]}"]],
  ),
  builtin(
    "postwalk",
    [2, 2],
    ["[f form]"],
    "Rebuilds form bottom-up: f is applied to each node after its children.",
    CATEGORY,
    postwalk,
    [["(postwalk #(if (= % 1) 100 %) {:a 1 :b [1 2]})", "{:a 100 :b [100 2]}"]],
  ),
  builtin(
    "tree-seq",
    [3, 3],
    ["[branch? children root]"],
    "Vector of the nodes of a tree, depth first, parents before children; branch? and children may be keywords.",
    CATEGORY,
    treeSeq,
    [
      ["(tree-seq :kids :kids {:id 1 :kids [{:id 2}]})", "[{:id 1 :kids [{:id 2}]} {:id 2}]"],
      ["(map :id (tree-seq :kids :kids {:id 1 :kids [{:id 2} {:id 3}]}))", "[1 2 3]"],
    ],
  ),
];
