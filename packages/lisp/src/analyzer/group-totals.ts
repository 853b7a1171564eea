/**
 * `(map (fn [[k rows]] ...) (group-by :k coll))` (also `mapv`) and `(update-vals (group-by :k coll)
 * (fn [rows] ...))`, where the fn reads its group only as `(sum-by :field rows)` and `(count rows)`:
 * the group-by becomes the internal `group-by totals`, which keeps per group its size and sums in
 * one pass and builds no vector per group, and each read becomes a read of those totals
 * (builtins/group-totals.ts, which also says how results, errors and charges stay group-by's and
 * sum-by's). Everything else about the call (the map, the fn, its other parameters, the order of
 * the groups) is left as written; a shape not proven here is not rewritten.
 */
import type { Position } from "../reader/form.js";
import { Keyword } from "../values/keyword.js";
import type { Node, Pattern } from "./ast.js";

export const GROUP_TOTALS = "group-by totals";
export const GROUP_TOTAL = "group-by total";
export const GROUP_COUNT = "group-by count";

type CallNode = Extract<Node, { kind: "call" }>;
type FnNode = Extract<Node, { kind: "fn" }>;

function isBuiltinCall(node: Node, name: string, arity: number): node is CallNode {
  return (
    node.kind === "call" &&
    node.callee.kind === "builtin" &&
    node.callee.name === name &&
    node.args.length === arity
  );
}

/** The rewritten call, or undefined when `call` is not the shape. */
export function fuseGroupTotals(call: CallNode): CallNode | undefined {
  if (call.callee.kind !== "builtin") return undefined;
  const name = call.callee.name;
  let fnIndex: number;
  if ((name === "map" || name === "mapv") && call.args.length === 2) fnIndex = 0;
  else if (name === "update-vals" && call.args.length === 2) fnIndex = 1;
  else return undefined;
  const fn = call.args[fnIndex] as Node;
  const grouping = call.args[1 - fnIndex] as Node;
  if (fn.kind !== "fn" || !isBuiltinCall(grouping, "group-by", 2)) return undefined;
  const key = grouping.args[0] as Node;
  if (key.kind !== "const" || !(key.value instanceof Keyword)) return undefined;
  const rows = rowsSlot(fn, name === "update-vals");
  if (rows === undefined) return undefined;
  const fields: Keyword[] = [];
  const reads = { count: 0 };
  const body = rewrite(fn.body, rows, fields, reads);
  if (body === undefined || reads.count === 0) return undefined;
  // A default of a parameter's pattern (`{:keys [a] :or {a (count rows)}}`) is not rewritten: such a
  // fn is left alone.
  if (fn.params.some((pattern) => patternReads(pattern, rows))) return undefined;
  const position = grouping.position;
  const totals: CallNode = {
    kind: "call",
    callee: builtinNode(GROUP_TOTALS, position),
    args: [key, grouping.args[1] as Node, { kind: "const", value: fields, position }],
    position,
  };
  const args = [...call.args];
  args[fnIndex] = { ...fn, body };
  args[1 - fnIndex] = totals;
  return { ...call, args };
}

function builtinNode(name: string, position: Position): Node {
  return { kind: "builtin", name, position };
}

/** The slot of the group parameter: `[[k rows]]` for map, `[rows]` for update-vals. */
function rowsSlot(fn: FnNode, whole: boolean): number | undefined {
  if (fn.params.length !== 1 || fn.rest !== undefined || fn.restAsMap || fn.selfSlot !== undefined)
    return undefined;
  const param = fn.params[0] as Pattern;
  if (whole) return param.kind === "bind" ? param.slot : undefined;
  if (param.kind !== "seq" || param.rest !== undefined || param.items.length !== 2) return undefined;
  const second = param.items[1] as Pattern;
  return second.kind === "bind" ? second.slot : undefined;
}

/** Keys of a node that hold no subtree of the fn's frame to look into. */
const OPAQUE_KEYS = new Set(["position", "target", "table", "captures", "kind"]);

/**
 * `node` with every `(sum-by :f rows)` and `(count rows)` replaced by a read of the totals, or
 * undefined when `rows` is used in any other way (or captured by a nested fn). Unchanged parts
 * keep their identity.
 */
function rewrite(node: Node, rows: number, fields: Keyword[], reads: { count: number }): Node | undefined {
  switch (node.kind) {
    case "local":
      return node.slot === rows ? undefined : node;
    case "const":
    case "builtin":
    case "var":
    case "data":
    case "history":
    case "budget":
      return node;
    case "fn":
      // Its own frame: its locals are its slots; it sees `rows` only through a capture.
      return node.captures.some((capture) => capture.outer === rows) ? undefined : node;
    case "call": {
      const read = groupRead(node, rows, fields);
      if (read !== undefined) {
        reads.count++;
        return read;
      }
      break;
    }
  }
  return rewriteChildren(node, rows, fields, reads) as Node | undefined;
}

/** The read replacing `(sum-by :f rows)` or `(count rows)`, if `call` is one. */
function groupRead(call: CallNode, rows: number, fields: Keyword[]): Node | undefined {
  const { position } = call;
  const isRows = (node: Node | undefined) => node?.kind === "local" && node.slot === rows;
  if (isBuiltinCall(call, "count", 1) && isRows(call.args[0])) {
    return { kind: "call", callee: builtinNode(GROUP_COUNT, position), args: call.args, position };
  }
  if (isBuiltinCall(call, "sum-by", 2) && isRows(call.args[1])) {
    const field = call.args[0] as Node;
    if (field.kind !== "const" || !(field.value instanceof Keyword)) return undefined;
    let index = fields.indexOf(field.value);
    if (index < 0) index = fields.push(field.value) - 1;
    return {
      kind: "call",
      callee: builtinNode(GROUP_TOTAL, position),
      args: [call.args[1] as Node, field, { kind: "const", value: index, position }],
      position,
    };
  }
  return undefined;
}

/** A copy of a node, pattern or clause with its subtrees rewritten (the same object if none changed). */
function rewriteChildren(
  value: object,
  rows: number,
  fields: Keyword[],
  reads: { count: number },
): object | undefined {
  let copy: Record<string, unknown> | undefined;
  for (const [name, child] of Object.entries(value)) {
    if (OPAQUE_KEYS.has(name) || child === null || typeof child !== "object") continue;
    const next = rewriteValue(child, rows, fields, reads);
    if (next === undefined) return undefined;
    if (next !== child) {
      copy ??= { ...value };
      copy[name] = next;
    }
  }
  return copy ?? value;
}

function rewriteValue(
  child: object,
  rows: number,
  fields: Keyword[],
  reads: { count: number },
): object | undefined {
  if (Array.isArray(child)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < child.length; i++) {
      const item: unknown = child[i];
      if (item === null || typeof item !== "object") continue;
      const next = rewriteValue(item, rows, fields, reads);
      if (next === undefined) return undefined;
      if (next !== item) {
        copy ??= [...child];
        copy[i] = next;
      }
    }
    return copy ?? child;
  }
  if (Object.getPrototypeOf(child) !== Object.prototype) return child;
  if ("kind" in child && isNodeKind(child)) return rewrite(child as Node, rows, fields, reads);
  return rewriteChildren(child, rows, fields, reads);
}

/** Node kinds as opposed to pattern kinds (`map` is both: a map pattern has `whole`). */
function isNodeKind(value: object): boolean {
  const kind = (value as { kind: unknown }).kind;
  if (kind === "bind" || kind === "ignore" || kind === "seq") return false;
  return !(kind === "map" && "whole" in value);
}

/** Whether a pattern's defaults read `rows`. */
function patternReads(pattern: Pattern, rows: number): boolean {
  return rewriteValue(pattern, rows, [], { count: 0 }) === undefined;
}
