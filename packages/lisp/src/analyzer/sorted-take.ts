/**
 * `(take 10 (sort-by :amount > rows))`: the top of a sort, the way models ask for "the ten
 * largest". Written as one call of the internal `take-sort-by` builtin
 * (builtins/sorted-prefix.ts), the sort keeps only the first ten items instead of ordering every
 * row. Only a positive integer literal count qualifies: take then cannot fail, so every error the
 * call can raise is sort-by's, and the call carries sort-by's position for them. The arguments
 * are the same nodes, evaluated in the same order (the count, then sort-by's).
 */
import type { Node } from "./ast.js";

type CallNode = Extract<Node, { kind: "call" }>;

/** The internal builtin's name (builtins/sorted-prefix.ts defines it). */
export const TAKE_SORTED = "take-sort-by";

/** The `take-sort-by` call for `(take n (sort-by ...))` with a literal count, else undefined. */
export function fuseSortedTake(call: CallNode): CallNode | undefined {
  if (call.callee.kind !== "builtin" || call.callee.name !== "take" || call.args.length !== 2)
    return undefined;
  const [count, input] = call.args as [Node, Node];
  if (count.kind !== "const" || typeof count.value !== "number" || !Number.isInteger(count.value))
    return undefined;
  if (count.value < 1) return undefined;
  if (input.kind !== "call" || input.callee.kind !== "builtin" || input.callee.name !== "sort-by")
    return undefined;
  if (input.args.length !== 2 && input.args.length !== 3) return undefined;
  return {
    kind: "call",
    callee: { kind: "builtin", name: TAKE_SORTED, position: input.callee.position },
    args: [count, ...input.args],
    position: input.position,
  };
}
