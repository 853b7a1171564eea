/**
 * Which loop bindings always hold integers. Generated arithmetic must tell a float that happens to
 * be whole (0.5 + 0.5 is 1.0) from an integer, which costs three checks per operation; when both
 * operands are known integers (or bigints, past 2^53), one check of the result is enough. Counters
 * and accumulators of `loop`/`recur` are the hot case: `(loop [i 0 acc 0] ... (recur (inc i) ...))`.
 *
 * "Integral" here means: a Lisp integer, as a JS number or a bigint; never a float, never anything
 * else. It is a static property: integer literals are integral, and + - * inc dec of integral
 * operands are integral (overflow promotes to bigint, never to a float). A loop binding is integral
 * when its initial value is and the same argument of every `recur` to that loop is, assuming the
 * bindings that are still candidates (a fixpoint from the optimistic start).
 */
import type { Node, RecurTarget } from "../analyzer/ast.js";
import { writtenInits } from "./resume-nodes.js";

const BINARY = new Set(["+", "-", "*"]);
const UNARY = new Set(["inc", "dec", "count"]);

/** `isLocal` answers for locals bound outside the analysed expression (enclosing loops). */
export function isIntegralNode(
  node: Node,
  integralSlots: ReadonlySet<number>,
  isLocal: (slot: number) => boolean,
): boolean {
  switch (node.kind) {
    case "const":
      return typeof node.value === "number" && Number.isSafeInteger(node.value) && !Object.is(node.value, -0);
    case "local":
      return integralSlots.has(node.slot) || isLocal(node.slot);
    case "call": {
      if (node.callee.kind !== "builtin") return false;
      const name = node.callee.name;
      const arity = node.args.length;
      if (!((BINARY.has(name) && arity === 2) || (UNARY.has(name) && arity === 1))) return false;
      // count's argument is any collection; its result is an integer all the same.
      if (name === "count") return true;
      return node.args.every((arg) => isIntegralNode(arg, integralSlots, isLocal));
    }
    default:
      return false;
  }
}

/** The `recur` forms in tail position of `node` that jump to `target`. */
function tailRecurs(node: Node, target: RecurTarget, out: Extract<Node, { kind: "recur" }>[]): void {
  switch (node.kind) {
    case "recur":
      if (node.target === target) out.push(node);
      return;
    case "if":
      tailRecurs(node.consequent, target, out);
      tailRecurs(node.alternative, target, out);
      return;
    case "do": {
      const last = node.body[node.body.length - 1];
      if (last !== undefined) tailRecurs(last, target, out);
      return;
    }
    case "let":
      tailRecurs(node.body, target, out);
      return;
    case "case":
      for (const clause of node.clauses) tailRecurs(clause, target, out);
      if (node.fallback !== undefined) tailRecurs(node.fallback, target, out);
      return;
    default:
      // A nested loop's or fn's recur jumps to that loop or fn; nothing else holds a tail.
      return;
  }
}

/** The slots of `loop`'s plain bindings that hold integers on every iteration. */
export function integralLoopSlots(
  loop: Extract<Node, { kind: "loop" }>,
  isLocal: (slot: number) => boolean,
): Set<number> {
  const slots = loop.bindings.map((binding) =>
    binding.pattern.kind === "bind" ? binding.pattern.slot : undefined,
  );
  const integral = new Set<number>();
  // A loop resumed where the general evaluator stands starts from what its written inits and its
  // recurs made (resume-nodes.ts); its written inits read the frame as the loop's first run did.
  const inits = writtenInits(loop);
  loop.bindings.forEach((_binding, index) => {
    const slot = slots[index];
    if (slot !== undefined && isIntegralNode(inits[index] as Node, integral, isLocal)) integral.add(slot);
  });
  if (integral.size === 0) return integral;
  const recurs: Extract<Node, { kind: "recur" }>[] = [];
  tailRecurs(loop.body, loop.target, recurs);
  let changed = true;
  while (changed) {
    changed = false;
    for (const recur of recurs) {
      // A recur with the wrong count throws before assigning anything.
      if (recur.args.length !== slots.length) continue;
      recur.args.forEach((arg, index) => {
        const slot = slots[index];
        if (slot !== undefined && integral.has(slot) && !isIntegralNode(arg, integral, isLocal)) {
          integral.delete(slot);
          changed = true;
        }
      });
    }
  }
  return integral;
}
