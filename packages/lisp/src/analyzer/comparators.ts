/**
 * `(sort-by key #(compare %2 %1) coll)`: a literal comparator that only calls `compare` on its two
 * arguments, in order or swapped, orders exactly as `:asc` or `:desc` do (sort-by already reads
 * `compare` itself as ascending term order, builtins/higher-order.ts). Written as the keyword, the
 * sort compares keys directly instead of calling a function per comparison. The fn form has no
 * effect and is never seen by the program otherwise, so nothing else changes.
 */
import { Keyword } from "../values/keyword.js";
import type { Node } from "./ast.js";

type CallNode = Extract<Node, { kind: "call" }>;

/** "asc" or "desc" for `(fn [a b] (compare a b))` or `(fn [a b] (compare b a))`, else undefined. */
function compareDirection(node: Node): "asc" | "desc" | undefined {
  if (node.kind !== "fn" || node.rest !== undefined || node.params.length !== 2) return undefined;
  const [first, second] = node.params;
  if (first?.kind !== "bind" || second?.kind !== "bind") return undefined;
  const body = node.body;
  if (body.kind !== "call" || body.callee.kind !== "builtin" || body.callee.name !== "compare")
    return undefined;
  if (body.args.length !== 2) return undefined;
  const [a, b] = body.args;
  if (a?.kind !== "local" || b?.kind !== "local") return undefined;
  if (a.slot === first.slot && b.slot === second.slot) return "asc";
  if (a.slot === second.slot && b.slot === first.slot) return "desc";
  return undefined;
}

/** The call with a literal compare-only comparator of sort-by written as its keyword. */
export function simplifyComparator(call: CallNode): CallNode {
  if (call.callee.kind !== "builtin" || call.callee.name !== "sort-by" || call.args.length !== 3) return call;
  const comparator = call.args[1] as Node;
  const direction = compareDirection(comparator);
  if (direction === undefined) return call;
  const keyword: Node = { kind: "const", value: Keyword.of(direction), position: comparator.position };
  return { ...call, args: [call.args[0] as Node, keyword, call.args[2] as Node] };
}
