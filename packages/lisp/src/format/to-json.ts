/**
 * Program values as plain JSON-safe data for the host: keywords become their names, sets become
 * arrays (in member order), maps become objects (keys as text), floats become numbers. Values JSON
 * cannot hold say so plainly: NaN and infinities become null, integers beyond 2^53 become their
 * decimal string (a number would silently lose digits), functions become their printed form.
 *
 * The conversion is iterative (any depth) and bounded: a value with shared structure expands into
 * a tree, so past `maxNodes` nodes it stops with a clear error instead of building one that does
 * not fit in memory. It never cuts data silently.
 */
import { LispError } from "../errors.js";
import { CustomValue } from "../values/custom-value.js";
import { Keyword } from "../values/keyword.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { mapEntries } from "../values/map-access.js";
import { WholeFloat } from "../values/numbers.js";
import { defineOwn, isPlainObject, type PlainObject } from "../values/plain-object.js";
import { HOST_WALK_NODES, hostWalk } from "../values/walk-meter.js";
import { print } from "./print.js";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ToJsonOptions {
  /**
   * Most nodes (values of any kind, counted along every path) the result may have; default
   * 10,000,000. Past it `toJson` throws a LispError with reason "memory_exceeded".
   */
  readonly maxNodes?: number;
}

function keyText(key: unknown): string {
  if (typeof key === "string") return key;
  if (key instanceof Keyword) return key.name;
  return print(key);
}

/** A scalar's JSON form, or `PENDING` for a collection (converted by the walk). */
const PENDING: unique symbol = Symbol("collection");

function scalarJson(value: unknown): JsonValue | typeof PENDING {
  switch (typeof value) {
    case "undefined":
      return null;
    case "boolean":
    case "string":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      return value.toString();
    case "function":
      return print(value);
    default: {
      if (value === null) return null;
      if (value instanceof Keyword) return value.name;
      if (value instanceof WholeFloat) return Number.isFinite(value.value) ? value.value : null;
      if (Array.isArray(value) || value instanceof LispSet || value instanceof LispMap) return PENDING;
      if (isPlainObject(value)) return PENDING;
      if (value instanceof CustomValue) return value.toJSON() as JsonValue;
      return print(value);
    }
  }
}

/** A collection being converted: its source items (a map's entries), the output it fills. */
interface Frame {
  readonly source: object;
  readonly items: readonly unknown[];
  readonly isMap: boolean;
  readonly out: JsonValue[] | PlainObject;
  next: number;
  /** Whether `source` is in the set of deep open collections (see DEPTH_WATCHED). */
  readonly watched: boolean;
}

function tooLarge(maxNodes: number): LispError {
  return new LispError(
    "memory_exceeded",
    `toJson: the value has more than ${maxNodes} nodes (shared structure counts once per path: a map whose fields are the same map, nested n times, has 2^n leaves); pass a larger maxNodes to convert it anyway`,
  );
}

function childrenOf(value: object): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof LispSet) return value.members();
  const entries = mapEntries(value as LispMap | PlainObject);
  const out = new Array<unknown>(entries.length);
  for (let i = 0; i < entries.length; i++) out[i] = (entries[i] as readonly [unknown, unknown])[1];
  return out;
}

function isCollection(value: unknown): value is object {
  return Array.isArray(value) || value instanceof LispSet || value instanceof LispMap || isPlainObject(value);
}

/**
 * Nodes of the tree `root` expands to, counting each path (a node shared by two paths counts
 * twice), in time linear in the distinct nodes; stops counting past `limit`. A value that contains
 * itself (host data can) expands without end: past the limit at once.
 */
function expandedNodes(root: object, limit: number): number {
  const sizes = new Map<object, number>();
  const open = new Set<object>([root]);
  const stack: Array<{ node: object; children: readonly unknown[]; next: number; total: number }> = [
    { node: root, children: childrenOf(root), next: 0, total: 1 },
  ];
  let result = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as (typeof stack)[number];
    if (top.next < top.children.length) {
      const child = top.children[top.next];
      if (!isCollection(child)) {
        top.total++;
        top.next++;
        continue;
      }
      if (open.has(child)) return limit + 1;
      const known = sizes.get(child);
      if (known === undefined) {
        open.add(child);
        stack.push({ node: child, children: childrenOf(child), next: 0, total: 1 });
        continue;
      }
      top.total = Math.min(top.total + known, limit + 1);
      top.next++;
      continue;
    }
    stack.pop();
    open.delete(top.node);
    sizes.set(top.node, top.total);
    result = top.total;
    const parent = stack[stack.length - 1];
    if (parent !== undefined) {
      parent.total = Math.min(parent.total + top.total, limit + 1);
      parent.next++;
    }
  }
  return result;
}

export function toJson(value: unknown, options: ToJsonOptions = {}): JsonValue {
  const maxNodes = options.maxNodes ?? HOST_WALK_NODES;
  return hostWalk(() => convert(value, maxNodes), HOST_WALK_NODES + maxNodes, [value]);
}

const MEASURE_AT = 1_000_000;

/**
 * Past this depth the walk remembers which collections are open: a host value that contains
 * itself (its JSON would be infinite) is found the second time it opens, not after a million
 * nodes. Real data is rarely this deep, so shallow values pay nothing for it.
 */
const DEPTH_WATCHED = 256;

function containsItself(): LispError {
  return new LispError(
    "memory_exceeded",
    "toJson: the value contains itself, so its JSON would never end; convert the parts you need",
  );
}

function convert(root: unknown, maxNodes: number): JsonValue {
  const first = scalarJson(root);
  if (first !== PENDING) return first;
  let nodes = 1;
  // Past a million nodes the whole expansion is measured once, in time linear in the distinct
  // nodes: a value with shared structure that expands past maxNodes then fails at once, instead
  // of after building millions of objects. Smaller values pay nothing for it.
  const measureAt = Math.min(MEASURE_AT, maxNodes);
  let measured = false;
  const stack: Frame[] = [];
  const deepOpen = new Set<object>();
  const open = (value: object): JsonValue => {
    if (!measured && nodes > measureAt) {
      measured = true;
      if (expandedNodes(root as object, maxNodes) > maxNodes) throw tooLarge(maxNodes);
    }
    const isMap = !Array.isArray(value) && !(value instanceof LispSet);
    const items: readonly unknown[] = Array.isArray(value)
      ? value
      : value instanceof LispSet
        ? value.members()
        : mapEntries(value as LispMap | PlainObject);
    nodes += items.length;
    if (nodes > maxNodes) throw tooLarge(maxNodes);
    const out: JsonValue[] | PlainObject = isMap ? {} : [];
    if (items.length > 0) {
      const watched = stack.length >= DEPTH_WATCHED;
      if (watched) {
        if (deepOpen.has(value)) throw containsItself();
        deepOpen.add(value);
      }
      stack.push({ source: value, items, isMap, out, next: 0, watched });
    }
    return out as JsonValue;
  };
  const result = open(root as object);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next >= frame.items.length) {
      stack.pop();
      if (frame.watched) deepOpen.delete(frame.source);
      continue;
    }
    const index = frame.next++;
    if (frame.isMap) {
      const entry = frame.items[index] as readonly [unknown, unknown];
      const item = entry[1];
      const scalar = scalarJson(item);
      defineOwn(
        frame.out as PlainObject,
        keyText(entry[0]),
        scalar === PENDING ? open(item as object) : scalar,
      );
    } else {
      const item = frame.items[index];
      const scalar = scalarJson(item);
      (frame.out as JsonValue[]).push(scalar === PENDING ? open(item as object) : scalar);
    }
  }
  return result;
}
