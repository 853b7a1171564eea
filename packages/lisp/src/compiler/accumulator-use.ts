/**
 * Whether a fn form only ever derives a new collection from its first parameter (with `conj`,
 * `assoc`, `update`, `merge-with` and the like, in a tail position) or returns it: then the
 * collection it is given cannot escape anywhere but back to its caller, and `reduce` may let the
 * derivation change it in place (runtime/owned-vector.ts, values/owned-table.ts).
 * `(fn [acc x] (if (ok? x) (conj acc (f x)) acc))` and
 * `(fn [acc o] (update acc (:k o) (fnil + 0) (:n o)))` qualify; anything that stores, compares,
 * captures or reads the accumulator otherwise does not.
 */
import type { Binding, ForClause, Node, Pattern } from "../analyzer/ast.js";

const cache = new WeakMap<Node, boolean>();

/** Builtins that derive a collection from one argument (at this index) without keeping it. */
const DERIVING: ReadonlyMap<string, number> = new Map([
  ["conj", 0],
  ["assoc", 0],
  ["assoc-in", 0],
  ["update", 0],
  ["update-in", 0],
  ["dissoc", 0],
  ["merge", 0],
  ["into", 0],
  ["merge-with", 1],
]);

export function ownedAccumulator(fn: Extract<Node, { kind: "fn" }>): boolean {
  let known = cache.get(fn);
  if (known === undefined) {
    const first = fn.params[0];
    known =
      first !== undefined &&
      first.kind === "bind" &&
      first.slot === fn.target.rawSlots[0] &&
      onlyHandedBack(fn.body, first.slot);
    cache.set(fn, known);
  }
  return known;
}

/**
 * `slot` is used in `node` (a tail position) only as the value returned, or as the collection a
 * deriving builtin (DERIVING) derives the returned value from.
 */
function onlyHandedBack(node: Node, slot: number): boolean {
  switch (node.kind) {
    case "local":
      return true;
    case "call": {
      const name = node.callee.kind === "builtin" ? node.callee.name : undefined;
      const index = name === undefined ? undefined : DERIVING.get(name);
      // merge-with calls its function once per entry merged: with more than one, a failure
      // after the first would leave a change made in place behind. One literal entry only.
      if (name === "merge-with" && !(node.args.length === 3 && isOneEntryLiteral(node.args[2] as Node)))
        return !mentions(node, slot);
      // update-in with an empty path (or one only known at run time, which may be empty) calls
      // its function with the whole collection: the accumulator itself would reach that function,
      // which could keep it or put it inside itself while it is changed in place.
      if (name === "update-in" && !isNonEmptyVectorLiteral(node.args[1])) return !mentions(node, slot);
      const target = index === undefined ? undefined : node.args[index];
      if (target?.kind === "local" && target.slot === slot)
        return node.args.every((arg, i) => i === index || !mentions(arg, slot));
      return !mentions(node, slot);
    }
    case "if":
      return (
        !mentions(node.test, slot) &&
        onlyHandedBack(node.consequent, slot) &&
        onlyHandedBack(node.alternative, slot)
      );
    case "do":
      return (
        node.body.slice(0, -1).every((item) => !mentions(item, slot)) &&
        (node.body.length === 0 || onlyHandedBack(node.body[node.body.length - 1] as Node, slot))
      );
    case "let":
      return (
        node.bindings.every((binding) => !bindingMentions(binding, slot)) && onlyHandedBack(node.body, slot)
      );
    case "case":
      return (
        !mentions(node.value, slot) &&
        node.clauses.every((clause) => onlyHandedBack(clause, slot)) &&
        (node.fallback === undefined || onlyHandedBack(node.fallback, slot))
      );
    case "recur":
      // A recur passes the accumulator to the next pass of the same function: not handed back.
      return false;
    default:
      return !mentions(node, slot);
  }
}

function isNonEmptyVectorLiteral(node: Node | undefined): boolean {
  return node?.kind === "vector" && node.items.length > 0;
}

function isOneEntryLiteral(node: Node): boolean {
  return node.kind === "map" && node.entries.length === 1;
}

function bindingMentions(binding: Binding, slot: number): boolean {
  return mentions(binding.init, slot) || patternMentions(binding.pattern, slot);
}

function patternMentions(pattern: Pattern, slot: number): boolean {
  switch (pattern.kind) {
    case "bind":
    case "ignore":
      return false;
    case "seq":
      return (
        pattern.items.some((item) => patternMentions(item, slot)) ||
        (pattern.rest !== undefined && patternMentions(pattern.rest, slot))
      );
    case "map":
      return (
        pattern.entries.some(
          (entry) =>
            patternMentions(entry.pattern, slot) ||
            (entry.fallback !== undefined && mentions(entry.fallback, slot)),
        ) ||
        (pattern.whole !== undefined && patternMentions(pattern.whole, slot))
      );
  }
}

function clauseMentions(clause: ForClause, slot: number): boolean {
  return (
    (clause.init !== undefined && mentions(clause.init, slot)) ||
    (clause.test !== undefined && mentions(clause.test, slot)) ||
    (clause.pattern !== undefined && patternMentions(clause.pattern, slot)) ||
    (clause.bindings ?? []).some((binding) => bindingMentions(binding, slot))
  );
}

/** Whether `node` reads `slot` anywhere (a nested fn reads it through its captures). */
function mentions(node: Node, slot: number): boolean {
  const any = (nodes: readonly Node[]) => nodes.some((item) => mentions(item, slot));
  switch (node.kind) {
    case "local":
      return node.slot === slot;
    case "const":
    case "var":
    case "builtin":
    case "data":
    case "history":
    case "budget":
      return false;
    case "if":
      return any([node.test, node.consequent, node.alternative]);
    case "do":
      return any(node.body);
    case "let":
    case "loop":
      return node.bindings.some((binding) => bindingMentions(binding, slot)) || mentions(node.body, slot);
    case "fn":
      return node.captures.some((capture) => capture.outer === slot);
    case "recur":
      return any(node.args);
    case "call":
      return mentions(node.callee, slot) || any(node.args);
    case "tool":
      return node.args !== undefined && mentions(node.args, slot);
    case "def":
      return mentions(node.value, slot);
    case "and":
    case "or":
    case "vector":
    case "set":
      return any(node.items);
    case "map":
      return node.entries.some(([key, value]) => mentions(key, slot) || mentions(value, slot));
    case "return":
    case "fail":
      return mentions(node.value, slot);
    case "case":
      return (
        mentions(node.value, slot) ||
        any(node.clauses) ||
        (node.fallback !== undefined && mentions(node.fallback, slot))
      );
    case "for":
      return node.clauses.some((clause) => clauseMentions(clause, slot)) || mentions(node.body, slot);
    case "parallel-map":
      return any([node.fn, node.coll]);
    case "parallel-calls":
      return any(node.thunks);
    case "task":
      return any([node.id, node.body]);
    case "step-done":
      return any([node.id, node.summary]);
    case "task-reset":
      return mentions(node.id, slot);
    case "discovery":
      return any(node.args);
  }
}

/**
 * For a fn whose accumulator is owned (ownedAccumulator): the argument lists of the tail
 * `update-in` calls on it, when every derivation of the accumulator in the fn is such a call with
 * a literal vector path of one length of 2 or more (`(update-in acc [(:region o) (:status o)]
 * (fnil + 0) (:quantity o))`); undefined otherwise.
 *
 * Then a map the reduce's own update-in made below the top level (from nil, or by copying a map it
 * found there) sits at one place only, at a depth the update's function never sees (it is given
 * values at the path's full depth, and every path has the same length), and nothing else in the
 * fn reads the accumulator: so generated code may change such a map in place on a later step too
 * (maps.ts, assocNested), as it changes the accumulator itself.
 */
export function nestedUpdateCalls(
  fn: Extract<Node, { kind: "fn" }>,
): ReadonlySet<readonly Node[]> | undefined {
  const first = fn.params[0];
  if (first?.kind !== "bind" || !ownedAccumulator(fn)) return undefined;
  const calls = new Set<readonly Node[]>();
  let length: number | undefined;
  const tails = (node: Node): boolean => {
    switch (node.kind) {
      case "if":
        return tails(node.consequent) && tails(node.alternative);
      case "do":
        return node.body.length === 0 || tails(node.body[node.body.length - 1] as Node);
      case "let":
        return tails(node.body);
      case "case":
        return node.clauses.every(tails) && (node.fallback === undefined || tails(node.fallback));
      case "call": {
        if (!mentions(node, first.slot)) return true;
        const path = node.args[1];
        const target = node.args[0];
        if (node.callee.kind !== "builtin" || node.callee.name !== "update-in") return false;
        if (target?.kind !== "local" || target.slot !== first.slot || path?.kind !== "vector") return false;
        if (path.items.length < 2 || (length !== undefined && path.items.length !== length)) return false;
        length = path.items.length;
        calls.add(node.args);
        return true;
      }
      default:
        return true;
    }
  };
  return tails(fn.body) && calls.size > 0 ? calls : undefined;
}
