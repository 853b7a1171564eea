/**
 * Which nodes are pure: no tool calls, no output, no definitions, no parallel work, no journal.
 * Pure subtrees may be compiled to JS source (codegen.ts); everything else, and any pure code
 * that turns out at run time to call an impure function, runs on the general closure evaluator.
 */
import type { Node, Pattern } from "../analyzer/ast.js";

/** Builtins with effects; their names never appear in pure code. */
const EFFECT_BUILTINS = new Set(["println", "tool-callable"]);

/**
 * Purity of the nodes of the program being compiled. A Map emptied after each compilation
 * (`forgetPurity`), not a WeakMap: a module-wide WeakMap filled with every node of every program
 * kept growing (and rehashing) until the collector cleared it, and lookups in it were a tenth of
 * a fresh ten-line program's time.
 */
let cache = new Map<Node, boolean>();

/** Drops what is known of the last program's nodes (run.ts calls it once a program is compiled). */
export function forgetPurity(): void {
  if (cache.size > 0) cache = new Map();
}

function patternPure(pattern: Pattern): boolean {
  switch (pattern.kind) {
    case "bind":
    case "ignore":
      return true;
    case "seq":
      return pattern.items.every(patternPure) && (pattern.rest === undefined || patternPure(pattern.rest));
    case "map":
      return (
        pattern.entries.every(
          (entry) => patternPure(entry.pattern) && (entry.fallback === undefined || isPure(entry.fallback)),
        ) &&
        (pattern.whole === undefined || patternPure(pattern.whole))
      );
  }
}

/** The node kinds that have no subtrees: their purity is known from the node alone. */
type LeafKind = "const" | "local" | "var" | "data" | "history" | "budget" | "builtin";
type Branch = Exclude<Node, { kind: LeafKind }>;

/** The purity of a leaf, or undefined when `node` has subtrees (and `compute` must walk them). */
function leafPurity(node: Node): boolean | undefined {
  switch (node.kind) {
    case "const":
    case "local":
    case "var":
    case "data":
    case "history":
    case "budget":
      return true;
    case "builtin":
      return !EFFECT_BUILTINS.has(node.name);
    default:
      return undefined;
  }
}

function compute(node: Branch): boolean {
  switch (node.kind) {
    case "if":
      return isPure(node.test) && isPure(node.consequent) && isPure(node.alternative);
    case "do":
    case "vector":
    case "set":
      return (node.kind === "do" ? node.body : node.items).every(isPure);
    case "and":
    case "or":
      return node.items.every(isPure);
    case "let":
    case "loop":
      return (
        node.bindings.every((binding) => patternPure(binding.pattern) && isPure(binding.init)) &&
        isPure(node.body)
      );
    case "fn":
      return (
        node.params.every(patternPure) &&
        (node.rest === undefined || patternPure(node.rest)) &&
        isPure(node.body)
      );
    case "recur":
      return node.args.every(isPure);
    case "call":
      return isPure(node.callee) && node.args.every(isPure);
    case "map":
      return node.entries.every(([key, value]) => isPure(key) && isPure(value));
    case "return":
    case "fail":
      return isPure(node.value);
    case "case":
      return (
        isPure(node.value) &&
        node.clauses.every(isPure) &&
        (node.fallback === undefined || isPure(node.fallback))
      );
    case "for":
      return (
        isPure(node.body) &&
        node.clauses.every((clause) => {
          if (clause.kind === "bind")
            return patternPure(clause.pattern as Pattern) && isPure(clause.init as Node);
          if (clause.kind === "let")
            return (clause.bindings ?? []).every((b) => patternPure(b.pattern) && isPure(b.init));
          return isPure(clause.test as Node);
        })
      );
    case "tool":
    case "def":
    case "parallel-map":
    case "parallel-calls":
    case "task":
    case "step-done":
    case "task-reset":
    case "discovery":
      return false;
  }
}

export function isPure(node: Node): boolean {
  // Leaves are most of a program's nodes, and answer at once: they never go through the cache,
  // whose entries (an identity hash per node, a growing table) cost more than the answer.
  const leaf = leafPurity(node);
  if (leaf !== undefined) return leaf;
  let pure = cache.get(node);
  if (pure === undefined) {
    pure = compute(node as Branch);
    cache.set(node, pure);
  }
  return pure;
}

/** Nodes too small to be worth compiling to JS on their own. */
export function isTrivial(node: Node): boolean {
  return (
    node.kind === "const" ||
    node.kind === "local" ||
    node.kind === "var" ||
    node.kind === "builtin" ||
    node.kind === "data" ||
    node.kind === "history"
  );
}

/**
 * Whether `node` ends in a `recur` of an enclosing loop or fn (in a tail position: a branch of an
 * `if`, the last form of a `do` or a `let` body, a `case` clause). Such a subtree cannot be a unit
 * of generated code on its own: the loop it jumps to is outside it.
 */
export function recursOutward(node: Node): boolean {
  switch (node.kind) {
    case "recur":
      return true;
    case "if":
      return recursOutward(node.consequent) || recursOutward(node.alternative);
    case "do":
      return node.body.length > 0 && recursOutward(node.body[node.body.length - 1] as Node);
    case "let":
      return recursOutward(node.body);
    case "case":
      return (
        node.clauses.some(recursOutward) || (node.fallback !== undefined && recursOutward(node.fallback))
      );
    default:
      return false;
  }
}
