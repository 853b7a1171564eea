/**
 * Pipelines: `(take 10 (map f (partition 2 xs)))`, `(first (filter p xs))`, `(reduce + 0 (map :amount
 * (filter p rows)))`. Evaluated as written, every stage runs over the whole input and builds a
 * vector for the next: `take` would keep ten items of it, `reduce` reads each item once and drops
 * it. JS would stop after ten, or make one pass with no vector in between. So a consumer (take,
 * first, reduce, count, apply, into... see CONSUMERS) whose collection is a call of a sequence
 * stage (map, filter, remove, keep, map-indexed, partition, partition-all, interleave, distinct, and
 * take inside another consumer),
 * itself fed by stages, `(re-seq re text)` (whose matches are then found as the stages take them)
 * or any other expression, becomes one call of the internal `lazy-pipeline`
 * builtin, which pulls items through the stages one at a time (builtins/lazy-pipeline.ts). So
 * does take or first straight over `(re-seq re text)`: no match is looked for past the last taken.
 *
 * Every argument is still evaluated, once, in the order the program wrote it: the call carries
 * them all, in that order, with a plan of which stage consumes which. Only the stages' work is
 * deferred, and it is done in pure mode: anything the lazy run cannot do exactly (an effect, an
 * error, a `return`) sends the whole pipeline back to the eager builtins, which do what the
 * program says to the letter.
 */
import type { Position } from "../reader/form.js";
import type { Node } from "./ast.js";

/** The internal builtin that runs a fused pipeline. */
export const LAZY_PIPELINE = "lazy-pipeline";

/** One stage (or the consuming call) of a pipeline: its builtin and what each argument is. */
export interface PipelinePlan {
  readonly op: string;
  readonly position: Position;
  /** Index of the stage's builtin among the call's values. */
  readonly fn: number;
  /** Per argument: the index of its value, or the stage whose output it is. */
  readonly args: ReadonlyArray<number | PipelinePlan>;
}

/** Whether a constant is a plan this module made (a program may name the builtin itself). */
export function isPipelinePlan(value: unknown): value is PipelinePlan {
  return typeof value === "object" && value !== null && "op" in value && "args" in value && "fn" in value;
}

/**
 * The consuming calls: argument counts accepted (the collection is the last argument). `take` and
 * `first` pull only the items they need; every other consumer takes the whole stream, collected
 * into one vector (the stages' own vectors are never built), and is then called with it.
 */
const CONSUMERS: ReadonlyMap<string, { readonly arities: readonly number[] }> = new Map([
  ["take", { arities: [2] }],
  ["first", { arities: [1] }],
  ["reduce", { arities: [2, 3] }],
  ["count", { arities: [1] }],
  ["apply", { arities: [2] }],
  ["mapv", { arities: [2] }],
  ["into", { arities: [2] }],
  ["vec", { arities: [1] }],
  ["set", { arities: [1] }],
  ["frequencies", { arities: [1] }],
  ["group-by", { arities: [2] }],
  ["sum-by", { arities: [2] }],
  ["sort", { arities: [1, 2] }],
  ["sort-by", { arities: [2, 3] }],
  ["last", { arities: [1] }],
  ["some", { arities: [2] }],
]);

/**
 * Whether `plan`'s stream may be longer than any vector it reads: the matches of a re-seq (up to
 * one per character of a text, and a text may be 2^28 long) or an interleave (twice its shorter
 * input). Every other stage's stream is no longer than its input. Only a stream that may be
 * longer is checked against the vector cap as it is collected (values/vector-limit.ts), by both
 * engines alike (builtins/lazy-pipeline.ts, compiler/fused-pipelines.ts).
 */
export function unboundedStream(plan: PipelinePlan): boolean {
  if (plan.op === "re-seq" || plan.op === "interleave") return true;
  return plan.args.some((arg) => typeof arg !== "number" && unboundedStream(arg));
}

/** Whether a consumer takes only the first items of its stream (else all of them). */
export function pullsPrefix(op: string): boolean {
  return op === "take" || op === "first";
}

/** Stages and their argument counts; the collection arguments are the last `inputs` ones. */
const STAGES: ReadonlyMap<
  string,
  { readonly arities: readonly number[]; readonly inputs: (n: number) => number }
> = new Map([
  ["map", { arities: [2, 3, 4], inputs: (n: number) => n - 1 }],
  ["filter", { arities: [2], inputs: () => 1 }],
  ["remove", { arities: [2], inputs: () => 1 }],
  ["keep", { arities: [2], inputs: () => 1 }],
  ["map-indexed", { arities: [2], inputs: () => 1 }],
  ["partition", { arities: [2, 3, 4], inputs: () => 1 }],
  ["partition-all", { arities: [2, 3], inputs: () => 1 }],
  ["interleave", { arities: [2], inputs: () => 2 }],
  ["distinct", { arities: [1], inputs: () => 1 }],
  // Inside another consumer: (reduce + 0 (take 100 (map f xs))) stops the stream after 100 items.
  ["take", { arities: [2], inputs: () => 1 }],
  // A source, under another stage or a prefix consumer: (map f (re-seq re text)) and (take 3
  // (re-seq re text)) take each match as it is found, so a long text's matches are not all kept at
  // once, nor looked for past the last one taken (fusePipeline leaves (count (re-seq ...))).
  ["re-seq", { arities: [2], inputs: () => 0 }],
]);

type CallNode = Extract<Node, { kind: "call" }>;

function builtinCall(
  node: Node,
  table: ReadonlyMap<string, { readonly arities: readonly number[] }>,
): boolean {
  if (node.kind !== "call" || node.callee.kind !== "builtin") return false;
  const entry = table.get(node.callee.name);
  return entry?.arities.includes(node.args.length) === true;
}

/**
 * The `take` calls that were made lazy pipelines, by their lazy form: calls are analyzed inside
 * out, so in `(reduce + 0 (take 100 (map f xs)))` the take is a pipeline of its own by the time
 * the reduce is seen; the reduce takes it back as a stage of its pipeline.
 */
const lazyTakes = new WeakMap<Node, CallNode>();

/** The lazy form of a call, or undefined when it is not a consumer fed by a stage. */
export function fusePipeline(call: CallNode): Node | undefined {
  if (!builtinCall(call, CONSUMERS)) return undefined;
  const last = call.args.length - 1;
  const taken = lazyTakes.get(call.args[last] as Node);
  const consumer: CallNode =
    taken === undefined ? call : { ...call, args: [...call.args.slice(0, last), taken] };
  const input = consumer.args[last] as Node;
  if (!builtinCall(input, STAGES)) return undefined;
  // A source straight under a consumer of the whole stream gains nothing: the stream is re-seq's
  // vector. Under take or first it saves finding the matches past the ones taken.
  if (isSource(input as CallNode) && !pullsPrefix((consumer.callee as { name: string }).name))
    return undefined;
  const values: Node[] = [];
  const plan = flatten(consumer, values, true);
  const lazy: Node = {
    kind: "call",
    callee: { kind: "builtin", name: LAZY_PIPELINE, position: call.position },
    args: [{ kind: "const", value: plan, position: call.position }, ...values],
    position: call.position,
  };
  if (plan.op === "take") lazyTakes.set(lazy, consumer);
  return lazy;
}

/** Whether a stage call reads no collection of its own (re-seq): it feeds stages, it is not one. */
function isSource(node: CallNode): boolean {
  return node.callee.kind === "builtin" && node.callee.name === "re-seq";
}

/** The plan of `call`, pushing its builtin and its plain arguments onto `values` in program order. */
function flatten(call: CallNode, values: Node[], consumer: boolean): PipelinePlan {
  const name = (call.callee as { name: string }).name;
  const fn = values.push(call.callee) - 1;
  const inputs = consumer
    ? 1
    : (STAGES.get(name) as { inputs: (n: number) => number }).inputs(call.args.length);
  const firstInput = call.args.length - inputs;
  const args = call.args.map((arg, index) => {
    if (index >= firstInput && arg.kind === "call" && builtinCall(arg, STAGES))
      return flatten(arg as CallNode, values, false);
    return values.push(arg) - 1;
  });
  return { op: name, position: call.position, fn, args };
}
