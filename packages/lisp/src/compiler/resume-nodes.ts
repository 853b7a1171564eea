/**
 * Nodes the adaptive tier generates code for when a loop or a `for` turns out to be hot on the
 * general evaluator. They are the original node with its first inputs read from the frame, so the
 * generated code takes over exactly where the general evaluator stands, and the general evaluator
 * can take over again from the same frame. Generated code writes to the frame in one place only:
 * a resumed loop's state, into its raw slots, between two chunks of jumps (RESUME_CHUNK), where the
 * general evaluator's `recur` would have left the same values.
 */
import type { ForClause, Node } from "../analyzer/ast.js";

type LoopNode = Extract<Node, { kind: "loop" }>;

/**
 * The inits a resumed loop started from, by resumed loop. A raw slot holds the loop's first value
 * or what a `recur` passed, computed by the general evaluator with the same meanings, so whatever
 * integral.ts proves of a binding from its written init and its recurs holds for the slot too:
 * `(loop [i 0 acc 0] ...)` keeps its integer arithmetic (one check per operation, not three) when
 * it moves to generated code where it stands.
 */
const startedFrom = new WeakMap<LoopNode, readonly Node[]>();

/** Whether `node` is a loop made by resumedLoopNode. */
export function isResumedLoop(node: Node): node is LoopNode {
  return node.kind === "loop" && startedFrom.has(node);
}

/**
 * Jumps a resumed loop's generated code makes before it hands back (codegen.ts): it writes its
 * state to the raw slots, as the general evaluator's `recur` does, and answers RESUME_AGAIN; its
 * entry (codegen-units.ts) then calls it again from there. A loop that runs once per program
 * would otherwise depend on V8 compiling it while it runs (on-stack replacement), which a loaded
 * machine delays, and whose code a program's first calls often make V8 throw away; a function
 * entered every thousand jumps gets optimized code of its own that the next program's run of the
 * same loop enters at once.
 */
export const RESUME_CHUNK = 1024;

/** What a resumed loop's generated code answers when it has made RESUME_CHUNK jumps. */
export const RESUME_AGAIN: unique symbol = Symbol("resume again");

/** The inits `loop` was written with, when it is a resumed loop; else its own inits. */
export function writtenInits(loop: LoopNode): readonly Node[] {
  return startedFrom.get(loop) ?? loop.bindings.map((binding) => binding.init);
}

/**
 * The loop, continued from its current state: each binding's init reads the raw slot where the
 * last `recur` left its value (for a plain name that is the name's own slot).
 */
export function resumedLoopNode(loop: LoopNode): Node {
  const resumed: LoopNode = {
    ...loop,
    bindings: loop.bindings.map((binding, index) => ({
      pattern: binding.pattern,
      init: {
        kind: "local",
        slot: loop.target.rawSlots[index] as number,
        name: "loop-state",
        position: loop.position,
      },
    })),
  };
  startedFrom.set(resumed, writtenInits(loop));
  return resumed;
}

/**
 * The `for`, with its first collection already evaluated: the first binding clause reads it from
 * `itemsSlot`, a slot past the end of the frame that the caller fills in a copy of the frame.
 */
export function largeForNode(node: Extract<Node, { kind: "for" }>, itemsSlot: number): Node {
  const [first, ...rest] = node.clauses as [ForClause, ...ForClause[]];
  const items: Node = { kind: "local", slot: itemsSlot, name: "for-items", position: first.position };
  return { ...node, clauses: [{ ...first, init: items }, ...rest] };
}

/**
 * The call `(map f coll)`, `(reduce f init coll)`... with the arguments marked in `read` already
 * evaluated: they are read from slots past the end of the frame, from `firstSlot` on, in order;
 * the others stay as written.
 */
export function largeCallNode(
  node: Extract<Node, { kind: "call" }>,
  firstSlot: number,
  read: readonly boolean[],
): Node {
  let slot = firstSlot;
  const args = node.args.map(
    (arg, index): Node =>
      read[index] ? { kind: "local", slot: slot++, name: "argument", position: arg.position } : arg,
  );
  return { ...node, args };
}

/**
 * `node`, a call whose last argument is a call over a collection (compile.ts, callsOverALoop),
 * with that collection read from local `slot` instead: it was evaluated already.
 */
export function innerCollectionAt(node: Extract<Node, { kind: "call" }>, slot: number): Node {
  const inner = node.args[node.args.length - 1] as Extract<Node, { kind: "call" }>;
  const collection = inner.args[inner.args.length - 1] as Node;
  const read: Node = { kind: "local", slot, name: "argument", position: collection.position };
  return {
    ...node,
    args: [...node.args.slice(0, -1), { ...inner, args: [...inner.args.slice(0, -1), read] }],
  };
}
