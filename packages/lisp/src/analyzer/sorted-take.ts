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
import { isPipelinePlan, LAZY_PIPELINE, type PipelinePlan } from "./pipelines.js";

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
    const one: Node = { kind: "const", value: 1, position: input.position };
    const taken = takeSorted(one, input);
    return taken === undefined ? undefined : { ...call, args: [taken] };
  }
  if (call.callee.name !== "take" || call.args.length !== 2) return undefined;
  const [count, input] = call.args as [Node, Node];
  if (count.kind !== "const" || typeof count.value !== "number" || !Number.isInteger(count.value))
    return undefined;
  if (count.value < 1) return undefined;
  return takeSorted(count, input);
}

/** `(take-sort-by count ...)` for a sort-by call, or for a pipeline sort-by consumes; else undefined. */
function takeSorted(count: Node, input: Node): CallNode | undefined {
  if (input.kind !== "call" || input.callee.kind !== "builtin") return undefined;
  if (input.callee.name === "sort-by" && (input.args.length === 2 || input.args.length === 3)) {
    return {
      kind: "call",
      callee: { kind: "builtin", name: TAKE_SORTED, position: input.callee.position },
      args: [count, ...input.args],
      position: input.position,
    };
  }
  return input.callee.name === LAZY_PIPELINE ? sortedPipeline(count, input) : undefined;
}

/**
 * `(take 10 (sort-by :amount > (filter p rows)))`: the sort-by is already the consumer of a lazy
 * pipeline (analyzer/pipelines.ts), which collects the filtered rows and calls sort-by with them.
 * The same pipeline with take-sort-by as its consumer: the count's value comes first among the
 * values (it is evaluated first, as take's first argument is), then take-sort-by itself, then
 * the pipeline's values as they were.
 */
function sortedPipeline(count: Node, input: CallNode): CallNode | undefined {
  const planNode = input.args[0];
  if (planNode?.kind !== "const" || !isPipelinePlan(planNode.value)) return undefined;
  const plan = planNode.value;
  if (plan.op !== "sort-by" || (plan.args.length !== 2 && plan.args.length !== 3)) return undefined;
  const taking: PipelinePlan = {
    op: TAKE_SORTED,
    position: plan.position,
    fn: 1,
    args: [0, ...shift(plan, 2).args],
  };
  const callee: Node = { kind: "builtin", name: TAKE_SORTED, position: input.position };
  return { ...input, args: [{ ...planNode, value: taking }, count, callee, ...input.args.slice(1)] };
}

/** The plan with every value index moved up by `by`. */
function shift(plan: PipelinePlan, by: number): PipelinePlan {
  return {
    ...plan,
    fn: plan.fn + by,
    args: plan.args.map((arg) => (typeof arg === "number" ? arg + by : shift(arg, by))),
  };
}
