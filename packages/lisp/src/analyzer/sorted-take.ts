/**
 * `(take 10 (sort-by :amount > rows))`: the top of a sort, the way models ask for "the ten
 * largest". Written as one call of the internal `take-sort-by` builtin
 * (builtins/sorted-prefix.ts), the sort keeps only the first ten items instead of ordering every
 * row. Only a positive integer literal count qualifies: take then cannot fail, so every error the
 * call can raise is sort-by's, and the call carries sort-by's position for them. The arguments
 * are the same nodes, evaluated in the same order (the count, then sort-by's). `(first (sort-by
 * ...))`, the smallest item, is the same with a count of one.
 */
import type { Node } from "./ast.js";

type CallNode = Extract<Node, { kind: "call" }>;

/** The internal builtin's name (builtins/sorted-prefix.ts defines it). */
export const TAKE_SORTED = "take-sort-by";

/**
 * The `take-sort-by` call for `(take n (sort-by ...))` with a literal count, `(first (sort-by
 * ...))` as `(first (take-sort-by 1 ...))`, else undefined.
 */
export function fuseSortedTake(call: CallNode): CallNode | undefined {
  if (call.callee.kind !== "builtin") return undefined;
  if (call.callee.name === "first" && call.args.length === 1) {
    const input = call.args[0] as Node;
    if (!isSortBy(input)) return undefined;
    const one: Node = { kind: "const", value: 1, position: input.position };
    return { ...call, args: [takeSorted(one, input)] };
  }
  if (call.callee.name !== "take" || call.args.length !== 2) return undefined;
  const [count, input] = call.args as [Node, Node];
  if (count.kind !== "const" || typeof count.value !== "number" || !Number.isInteger(count.value))
    return undefined;
  if (count.value < 1 || !isSortBy(input)) return undefined;
  return takeSorted(count, input);
}

function isSortBy(node: Node): node is CallNode {
  return (
    node.kind === "call" &&
    node.callee.kind === "builtin" &&
    node.callee.name === "sort-by" &&
    (node.args.length === 2 || node.args.length === 3)
  );
}

function takeSorted(count: Node, sortBy: CallNode): CallNode {
  return {
    kind: "call",
    callee: { kind: "builtin", name: TAKE_SORTED, position: sortBy.callee.position },
    args: [count, ...sortBy.args],
    position: sortBy.position,
  };
}
