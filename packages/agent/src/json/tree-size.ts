/**
 * How large a host value is as a tree: what every walk after it pays (the conversion for a
 * program, the JSON a model reads, the step's `JSON.stringify` by the host). A value with shared
 * structure is small as a graph and enormous as a tree: `let v = 1; for (...40 times) v = {a: v,
 * b: v}` is 41 objects and 2^40 leaves, and walking it as a tree blocks the thread for good; 4,096
 * paths to one string of two million characters write eight billion. So the boundary measures it
 * first, in time linear in its distinct parts (each shared part is measured once, and counted once
 * per path that reaches it), and refuses it past a budget, as @ptc/lisp bounds the same walks
 * inside a run (docs/sandbox.md, "Values with shared structure").
 *
 * Nodes are counted as the walks count them: one per value, plus one per slot of an array (holes
 * too: a sparse array of a million slots is walked slot by slot), per own enumerable field of an
 * object, per key and value of a Map, per item of a Set. Characters are those of strings and of
 * object keys. A value met again inside itself (a cycle) counts once: the walks stop there with an
 * error or a null. An object with `toJSON` is counted by its own fields (its `toJSON` is not
 * called here: the walks call it once). What cannot be read (a throwing getter, a revoked proxy)
 * counts as one node: the walks report it.
 *
 * Iterative, so nesting deeper than the stack is measured too.
 */

/** Nodes a tool's result may have as a tree: the budget @ptc/lisp's `toJson` gives a host walk. */
export const MAX_TREE_NODES = 10_000_000;
/** Characters of text a tool's result may hold as a tree: a hundred times a large document. */
export const MAX_TREE_CHARS = 50_000_000;

export interface TreeLimits {
  readonly nodes: number;
  readonly chars: number;
}

export interface TreeSize {
  readonly nodes: number;
  readonly chars: number;
}

const DEFAULT_LIMITS: TreeLimits = { nodes: MAX_TREE_NODES, chars: MAX_TREE_CHARS };

interface Frame {
  readonly node: object;
  readonly children: readonly unknown[];
  next: number;
  nodes: number;
  chars: number;
}

/** Whether `value` is past either limit as a tree (shared parts counted once per path). */
export function exceedsTree(value: unknown, limits: TreeLimits = DEFAULT_LIMITS): boolean {
  const size = treeSize(value, limits);
  return size.nodes > limits.nodes || size.chars > limits.chars;
}

/** The size of `value` as a tree, or a size past a limit as soon as it is sure to pass it. */
export function treeSize(root: unknown, limits: TreeLimits): TreeSize {
  const past: TreeSize = { nodes: limits.nodes + 1, chars: limits.chars + 1 };
  const measured = new WeakMap<object, TreeSize>();
  const open = new Set<object>();
  const stack: Frame[] = [];

  /** The size of a leaf or of a part measured already; undefined when a frame was opened for it. */
  const enter = (value: unknown): TreeSize | "past" | undefined => {
    if (typeof value === "string") return { nodes: 1, chars: value.length };
    if (typeof value !== "object" || value === null) return LEAF;
    const known = measured.get(value);
    if (known !== undefined) return known;
    if (open.has(value)) return LEAF;
    const flat = flatSize(value, limits.nodes);
    if (flat !== undefined) return flat;
    const read = childrenOf(value, limits.nodes);
    if (read === "unreadable") return LEAF;
    if (read === "too-many" || read.children.length >= limits.nodes) return "past";
    open.add(value);
    stack.push({ node: value, children: read.children, next: 0, nodes: 1, chars: read.keyChars });
    return undefined;
  };

  const first = enter(root);
  if (first === "past") return past;
  if (first !== undefined) return first;
  while (true) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.nodes > limits.nodes || frame.chars > limits.chars) return past;
    if (frame.next < frame.children.length) {
      const size = enter(frame.children[frame.next++]);
      if (size === "past") return past;
      if (size !== undefined) {
        frame.nodes += size.nodes;
        frame.chars += size.chars;
      }
      continue;
    }
    stack.pop();
    open.delete(frame.node);
    const size = { nodes: frame.nodes, chars: frame.chars };
    measured.set(frame.node, size);
    const parent = stack[stack.length - 1];
    if (parent === undefined) return size;
    parent.nodes += size.nodes;
    parent.chars += size.chars;
  }
}

const LEAF: TreeSize = { nodes: 1, chars: 0 };

/**
 * The size of an array or plain object that holds no object (a row of a table, a list of ids),
 * counted in one pass without a frame: most of a large tool result is such parts, and measuring
 * them as frames cost two to three times a `JSON.stringify` of the result. Undefined when it holds
 * an object, or a read throws: the frame-by-frame measure then takes it (and reports the throw).
 * Such a part is not remembered: it can only be reached again through a part that is.
 */
function flatSize(value: object, limit: number): TreeSize | undefined {
  try {
    // Inside the try: `instanceof` on a revoked proxy throws.
    if (value instanceof Map || value instanceof Set) return undefined;
    let nodes = 1;
    let chars = 0;
    if (Array.isArray(value)) {
      if (value.length >= limit) return undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === "object" && item !== null) return undefined;
        nodes++;
        if (typeof item === "string") chars += item.length;
      }
      return { nodes, chars };
    }
    for (const key of Object.keys(value)) {
      const field: unknown = (value as Record<string, unknown>)[key];
      if (typeof field === "object" && field !== null) return undefined;
      nodes++;
      chars += key.length;
      if (typeof field === "string") chars += field.length;
    }
    return { nodes, chars };
  } catch {
    return undefined;
  }
}

type Children = { readonly children: readonly unknown[]; readonly keyChars: number };

/**
 * What the walks visit inside `value`, and the characters of its keys. An array of `limit` slots
 * or more is not copied: its length alone says it is past the budget.
 */
function childrenOf(value: object, limit: number): Children | "unreadable" | "too-many" {
  try {
    if (Array.isArray(value)) {
      return value.length >= limit
        ? "too-many"
        : { children: Array.prototype.slice.call(value), keyChars: 0 };
    }
    if (value instanceof Map) return { children: [...value.keys(), ...value.values()], keyChars: 0 };
    if (value instanceof Set) return { children: [...value], keyChars: 0 };
    const keys = Object.keys(value);
    let keyChars = 0;
    for (const key of keys) keyChars += key.length;
    return { children: keys.map((key) => (value as Record<string, unknown>)[key]), keyChars };
  } catch {
    return "unreadable";
  }
}
