/**
 * How many nodes a host value has as a tree: what every walk after it pays (the conversion for a
 * program, the JSON a model reads, the step's `JSON.stringify` by the host). A value with shared
 * structure is small as a graph and enormous as a tree: `let v = 1; for (...40 times) v = {a: v,
 * b: v}` is 41 objects and 2^40 leaves, and walking it as a tree blocks the thread for good. So
 * the boundary measures it first, in time linear in its distinct parts (each shared part is
 * measured once, and counted once per path that reaches it), and refuses it past a budget, as
 * @ptc/lisp bounds the same walks inside a run (docs/sandbox.md, "Values with shared structure").
 *
 * Counted as the walks count them: one node per value, plus one per slot of an array (holes too:
 * a sparse array of a million slots is walked slot by slot), per own enumerable field of an
 * object, per key and value of a Map, per item of a Set. A value met again inside itself (a
 * cycle) counts once: the walks stop there with an error or a null. An object with `toJSON` is
 * counted by its own fields (its `toJSON` is not called here: the walks call it once). What cannot
 * be read (a throwing getter, a revoked proxy) counts as one node: the walks report it.
 *
 * Iterative, so nesting deeper than the stack is measured too.
 */

/** Nodes a tool's result may have as a tree: the budget @ptc/lisp's `toJson` gives a host walk. */
export const MAX_TREE_NODES = 10_000_000;

interface Frame {
  readonly node: object;
  readonly children: readonly unknown[];
  next: number;
  total: number;
}

/** Whether `value` has more than `limit` nodes as a tree (shared parts counted once per path). */
export function exceedsTreeNodes(value: unknown, limit: number = MAX_TREE_NODES): boolean {
  return treeNodes(value, limit) > limit;
}

/** The nodes of `value` as a tree, or a number past `limit` as soon as it is sure to pass it. */
export function treeNodes(root: unknown, limit: number): number {
  const past = limit + 1;
  const measured = new WeakMap<object, number>();
  const open = new Set<object>();
  const stack: Frame[] = [];

  /** The size of a leaf or of a part measured already; undefined when a frame was opened for it. */
  const enter = (value: unknown): number | undefined => {
    if (typeof value !== "object" || value === null) return 1;
    const known = measured.get(value);
    if (known !== undefined) return known;
    if (open.has(value)) return 1;
    const children = childrenOf(value, limit);
    if (children === "unreadable") return 1;
    if (children === "too-many" || children.length >= limit) return past;
    open.add(value);
    stack.push({ node: value, children, next: 0, total: 1 + children.length });
    return undefined;
  };

  const first = enter(root);
  if (first !== undefined) return first;
  while (true) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.total > limit) return past;
    if (frame.next < frame.children.length) {
      // The slot itself is counted in `total` already; a child that is a collection adds its own.
      const size = enter(frame.children[frame.next++]);
      if (size !== undefined) frame.total += size - 1;
      continue;
    }
    stack.pop();
    open.delete(frame.node);
    measured.set(frame.node, frame.total);
    const parent = stack[stack.length - 1];
    if (parent === undefined) return frame.total;
    parent.total += frame.total - 1;
  }
}

/**
 * What the walks visit inside `value`. An array of `limit` slots or more is not copied: its length
 * alone says it is past the budget.
 */
function childrenOf(value: object, limit: number): readonly unknown[] | "unreadable" | "too-many" {
  try {
    if (Array.isArray(value)) {
      return value.length >= limit ? "too-many" : Array.prototype.slice.call(value);
    }
    if (value instanceof Map) return [...value.keys(), ...value.values()];
    if (value instanceof Set) return [...value];
    return Object.values(value);
  } catch {
    return "unreadable";
  }
}
