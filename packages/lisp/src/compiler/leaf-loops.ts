/**
 * Loops whose body cannot run another loop or any code of the program: numeric and data loops
 * such as `(loop [i 0 acc 0] (if (< i n) (recur (inc i) (+ acc (* i i))) acc))`. Generated code
 * counts such a loop's steps in a local variable and stores the count into the run context only
 * when it checks the limit or leaves the loop (codegen.ts, `loop`): nothing inside the loop can
 * read or add to the context's count meanwhile. A counter kept in memory is a store and a load per
 * step, each waiting for the last; in a register it is one instruction.
 *
 * The body may use constants, locals, data, `if`/`do`/`let`/`and`/`or`/`case`, literal vectors,
 * maps and sets, keyword field reads, `recur` to this loop, and calls of the builtins below, none
 * of which calls a function it is given or loops over the program's code.
 */
import type { Binding, Node } from "../analyzer/ast.js";
import { Keyword } from "../values/keyword.js";

const LEAF_BUILTINS: ReadonlySet<string> = new Set([
  "+",
  "-",
  "*",
  "/",
  "inc",
  "dec",
  "quot",
  "rem",
  "mod",
  "abs",
  "max",
  "min",
  "=",
  "not=",
  "<",
  ">",
  "<=",
  ">=",
  "==",
  "not",
  "compare",
  "zero?",
  "pos?",
  "neg?",
  "even?",
  "odd?",
  "nil?",
  "some?",
  "number?",
  "string?",
  "empty?",
  "count",
  "first",
  "second",
  "last",
  "rest",
  "next",
  "nth",
  "get",
  "get-in",
  "contains?",
  "conj",
  "assoc",
  "dissoc",
  "vector",
  "vec",
  "subvec",
  "peek",
  "pop",
  "str",
  "subs",
  "keyword",
  "name",
]);

export function isLeafLoop(node: Extract<Node, { kind: "loop" }>): boolean {
  return plainBindings(node.bindings) && leaf(node.body, node);
}

function plainBindings(bindings: readonly Binding[]): boolean {
  return bindings.every((binding) => binding.pattern.kind === "bind" || binding.pattern.kind === "ignore");
}

function leaf(node: Node, loop: Extract<Node, { kind: "loop" }>): boolean {
  const all = (nodes: readonly Node[]): boolean => nodes.every((item) => leaf(item, loop));
  switch (node.kind) {
    case "const":
    case "local":
    case "data":
      return true;
    case "if":
      return leaf(node.test, loop) && leaf(node.consequent, loop) && leaf(node.alternative, loop);
    case "do":
      return all(node.body);
    case "let":
      return (
        plainBindings(node.bindings) &&
        all(node.bindings.map((binding) => binding.init)) &&
        leaf(node.body, loop)
      );
    case "and":
    case "or":
    case "vector":
    case "set":
      return all(node.items);
    case "map":
      return node.entries.every(([key, value]) => leaf(key, loop) && leaf(value, loop));
    case "case":
      return (
        leaf(node.value, loop) &&
        all(node.clauses) &&
        (node.fallback === undefined || leaf(node.fallback, loop))
      );
    case "recur":
      return node.target === loop.target && all(node.args);
    case "call": {
      const callee = node.callee;
      const known =
        (callee.kind === "builtin" && LEAF_BUILTINS.has(callee.name)) ||
        (callee.kind === "const" && callee.value instanceof Keyword);
      return known && all(node.args);
    }
    default:
      return false;
  }
}
