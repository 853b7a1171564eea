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
import { isPipelinePlan, LAZY_PIPELINE } from "./pipelines.js";

export const GROUP_TOTALS = "group-by totals";
export const GROUP_TOTAL = "group-by total";

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
  const specs: GroupSpec[] = [];
  const reads: Reads = { count: 0, strict: false };
  const body = rewrite(fn.body, rows, specs, reads);
  // Up to 30 specs: a group's float flags are the bits of one integer.
  if (body === undefined || reads.count === 0 || specs.length > 30) return undefined;
  // A default of a parameter's pattern (`{:keys [a] :or {a (count rows)}}`) is not rewritten: such a
  // fn is left alone.
  if (fn.params.some((pattern) => patternReads(pattern, rows))) return undefined;
  const position = grouping.position;
  const totals: CallNode = {
    kind: "call",
    callee: builtinNode(GROUP_TOTALS, position),
    args: [key, grouping.args[1] as Node, { kind: "const", value: specs, position }],
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

/** The reads made so far; `strict` forbids any use of the group (a pattern's defaults, never rewritten). */
interface Reads {
  count: number;
  readonly strict: boolean;
}

/** Keys of a node that hold no subtree of the fn's frame to look into. */
const OPAQUE_KEYS = new Set(["position", "target", "table", "captures", "kind"]);

/**
 * `node` with every `(sum-by :f rows)` and `(count rows)` replaced by a read of the totals, or
 * undefined when `rows` is used in any other way (or captured by a nested fn). Unchanged parts
 * keep their identity.
 */
function rewrite(node: Node, rows: number, specs: GroupSpec[], reads: Reads): Node | undefined {
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
      const read = reads.strict ? undefined : groupRead(node, rows, specs);
      if (read !== undefined) {
        reads.count++;
        return read;
      }
      break;
    }
  }
  return rewriteChildren(node, rows, specs, reads) as Node | undefined;
}

/** What a read takes from the group: its size, or a sum, greatest or least value of a field. */
export interface GroupSpec {
  readonly op: "sum" | "max" | "min";
  readonly field: Keyword;
}

/**
 * The read replacing `(count rows)`, `(sum-by :f rows)` or `(apply max|min (map :f rows))` (a lazy
 * pipeline by now), if `call` is one: `(or (group-by total rows i) call)`. The call stays as
 * written for groups that group-by made (the pass gave way), where the read is nil.
 */
function groupRead(call: CallNode, rows: number, specs: GroupSpec[]): Node | undefined {
  const isRows = (node: Node | undefined) => node?.kind === "local" && node.slot === rows;
  let spec: GroupSpec | undefined;
  let index = -1;
  if (isBuiltinCall(call, "count", 1) && isRows(call.args[0])) spec = undefined;
  else if (isBuiltinCall(call, "sum-by", 2) && isRows(call.args[1])) {
    const field = call.args[0] as Node;
    if (field.kind !== "const" || !(field.value instanceof Keyword)) return undefined;
    spec = { op: "sum", field: field.value };
  } else {
    spec = extremeSpec(call, isRows);
    if (spec === undefined) return undefined;
  }
  if (spec !== undefined) {
    const wanted = spec;
    index = specs.findIndex((known) => known.op === wanted.op && known.field === wanted.field);
    if (index < 0) index = specs.push(wanted) - 1;
  }
  const { position } = call;
  const group = call.args.find(isRows) as Node;
  // A read is a number, never nil: `or` goes on to the call only for a group group-by made.
  const read: Node = {
    kind: "call",
    callee: builtinNode(GROUP_TOTAL, position),
    args: [group, { kind: "const", value: index, position }],
    position,
  };
  return { kind: "or", items: [read, call], position };
}

/** `(apply max (map :f rows))` or its min, as the analyzer made it a lazy pipeline. */
function extremeSpec(call: CallNode, isRows: (node: Node | undefined) => boolean): GroupSpec | undefined {
  if (call.callee.kind !== "builtin" || call.callee.name !== LAZY_PIPELINE || call.args.length !== 6)
    return undefined;
  const [plan, apply, extreme, map, field, coll] = call.args as Node[];
  if (plan?.kind !== "const" || !isPipelinePlan(plan.value)) return undefined;
  const { op, fn, args } = plan.value;
  const stage = args[1];
  if (op !== "apply" || fn !== 0 || args.length !== 2 || args[0] !== 1 || typeof stage !== "object")
    return undefined;
  if (stage.op !== "map" || stage.fn !== 2 || stage.args.length !== 2) return undefined;
  if (stage.args[0] !== 3 || stage.args[1] !== 4) return undefined;
  const builtinNamed = (node: Node | undefined, name: string) =>
    node?.kind === "builtin" && node.name === name;
  if (!builtinNamed(apply, "apply") || !builtinNamed(map, "map") || !isRows(coll)) return undefined;
  if (field?.kind !== "const" || !(field.value instanceof Keyword)) return undefined;
  if (builtinNamed(extreme, "max")) return { op: "max", field: field.value };
  if (builtinNamed(extreme, "min")) return { op: "min", field: field.value };
  return undefined;
}

/** A copy of a node, pattern or clause with its subtrees rewritten (the same object if none changed). */
function rewriteChildren(value: object, rows: number, specs: GroupSpec[], reads: Reads): object | undefined {
  let copy: Record<string, unknown> | undefined;
  for (const [name, child] of Object.entries(value)) {
    if (OPAQUE_KEYS.has(name) || child === null || typeof child !== "object") continue;
    const next = rewriteValue(child, rows, specs, reads);
    if (next === undefined) return undefined;
    if (next !== child) {
      copy ??= { ...value };
      copy[name] = next;
    }
  }
  return copy ?? value;
}

function rewriteValue(child: object, rows: number, specs: GroupSpec[], reads: Reads): object | undefined {
  if (Array.isArray(child)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < child.length; i++) {
      const item: unknown = child[i];
      if (item === null || typeof item !== "object") continue;
      const next = rewriteValue(item, rows, specs, reads);
      if (next === undefined) return undefined;
      if (next !== item) {
        copy ??= [...child];
        copy[i] = next;
      }
    }
    return copy ?? child;
  }
  if (Object.getPrototypeOf(child) !== Object.prototype) return child;
  if ("kind" in child && isNodeKind(child)) return rewrite(child as Node, rows, specs, reads);
  return rewriteChildren(child, rows, specs, reads);
}

/** Node kinds as opposed to pattern kinds (`map` is both: a map pattern has `whole`). */
function isNodeKind(value: object): boolean {
  const kind = (value as { kind: unknown }).kind;
  if (kind === "bind" || kind === "ignore" || kind === "seq") return false;
  return !(kind === "map" && "whole" in value);
}

/** Whether a pattern's defaults read `rows`. */
function patternReads(pattern: Pattern, rows: number): boolean {
  return rewriteValue(pattern, rows, [], { count: 0, strict: true }) === undefined;
}
