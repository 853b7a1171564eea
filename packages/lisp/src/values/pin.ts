/**
 * Pinning: making a value safe to keep beyond the program that built it. Program maps and sets
 * share storage with the versions they were derived from (versioned-table.ts); a value kept in a
 * session (a `def`, `*1`) is rebuilt on storage of its own, all the way down, so that it never
 * holds other versions alive and later programs deriving from it never disturb it.
 *
 * Pinning runs after a program has ended (a session remembering `*1`), so it must finish on any
 * value a program can build: it walks iteratively and visits a shared node once. A host array may
 * even contain itself: the walk keeps such an array as it is (only program maps and sets need
 * pinning, and no program value can contain itself).
 */
import { LispMap } from "./lisp-map.js";
import { LispSet } from "./lisp-set.js";

type Container = LispMap | LispSet | unknown[];

function isContainer(value: unknown): value is Container {
  return Array.isArray(value) || value instanceof LispMap || value instanceof LispSet;
}

/** A container being pinned: its children (a map's as key, value, key...) and their pinned forms. */
interface Frame {
  readonly value: Container;
  readonly children: readonly unknown[];
  readonly pinned: unknown[];
  next: number;
  changed: boolean;
}

function childrenOf(value: Container): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof LispSet) return value.members();
  const entries = value.entries();
  const out = new Array<unknown>(2 * entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as readonly [unknown, unknown];
    out[2 * i] = entry[0];
    out[2 * i + 1] = entry[1];
  }
  return out;
}

function rebuilt(frame: Frame): unknown {
  const value = frame.value;
  if (Array.isArray(value)) return frame.changed ? frame.pinned : value;
  if (value instanceof LispSet) return (frame.changed ? LispSet.from(frame.pinned) : value).pinned();
  if (!frame.changed) return value.pinned();
  const entries = new Array<readonly [unknown, unknown]>(frame.pinned.length / 2);
  for (let i = 0; i < entries.length; i++) entries[i] = [frame.pinned[2 * i], frame.pinned[2 * i + 1]];
  return LispMap.from(entries).pinned();
}

/**
 * The value on storage of its own. Iterative (any depth) and linear in the distinct nodes: a node
 * shared by many paths is pinned once, and the result shares it the same way.
 */
export function pin(root: unknown): unknown {
  if (!isContainer(root)) return root;
  const done = new Map<Container, unknown>();
  /** Containers being pinned (on the stack): meeting one again is a cycle. */
  const open = new Set<Container>([root]);
  const start = (value: Container): Frame => {
    const children = childrenOf(value);
    return { value, children, pinned: new Array<unknown>(children.length), next: 0, changed: false };
  };
  const stack: Frame[] = [start(root)];
  let result: unknown = root;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next];
      if (!isContainer(child)) {
        frame.pinned[frame.next++] = child;
        continue;
      }
      if (open.has(child)) {
        frame.pinned[frame.next++] = child;
        continue;
      }
      const known = done.get(child);
      if (known === undefined) {
        open.add(child);
        stack.push(start(child));
        continue;
      }
      frame.pinned[frame.next++] = known;
      if (known !== child) frame.changed = true;
      continue;
    }
    stack.pop();
    open.delete(frame.value);
    result = rebuilt(frame);
    done.set(frame.value, result);
    const parent = stack[stack.length - 1];
    if (parent !== undefined) {
      parent.pinned[parent.next++] = result;
      if (result !== frame.value) parent.changed = true;
    }
  }
  return result;
}

/** An accumulator's starting value, detached from its lineage (see versioned-table.ts). */
export function detachAccumulator(value: unknown): unknown {
  if (value instanceof LispMap || value instanceof LispSet) return value.detached();
  return value;
}
