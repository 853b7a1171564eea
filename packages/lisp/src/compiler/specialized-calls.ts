/**
 * Builtin calls whose written shape lets generated code skip the builtin's general entry: the
 * arguments a model writes most often are literals (a one-entry map, a keyword, a vector of
 * keywords), and knowing them when the code is generated saves building them and looking at
 * them again on every row. Each shape calls a runtime helper (codegen-runtime.ts) that gives the
 * builtin's result, charges and errors exactly; only the work of the general entry is saved.
 */
import type { Node } from "../analyzer/ast.js";
import type { Position } from "../reader/form.js";
import { Keyword } from "../values/keyword.js";
import { FLAT_LIMIT } from "../values/versioned-table.js";
import { inlinable, type LoopEmitter } from "./codegen-loops.js";

/** The code of a specialized call, or undefined when the call has no special shape. */
export function specializedCall(
  g: LoopEmitter,
  name: string,
  args: readonly Node[],
  position: Position,
): string | undefined {
  switch (name) {
    case "merge-with":
      return mergeWithLiteralEntry(g, args);
    case "update":
    case "update-in":
      return updateByKeyword(g, name, args, position);
    case "select-keys":
      return selectLiteralKeywords(g, args);
    case "apply":
      return applyBuiltinToItems(g, args, position);
    default:
      return undefined;
  }
}

/**
 * `(merge-with f acc {k v})`, the way programs count and sum per key row by row: the one-entry
 * map is never built. Arguments are evaluated in the order written (f, acc, k, v), as before.
 */
function mergeWithLiteralEntry(g: LoopEmitter, args: readonly Node[]): string | undefined {
  const entry = args.length === 3 ? args[2] : undefined;
  if (entry?.kind !== "map" || entry.entries.length !== 1) return undefined;
  const [key, value] = entry.entries[0] as readonly [Node, Node];
  const f = g.value(args[0] as Node);
  const acc = g.value(args[1] as Node);
  const k = g.value(key);
  const v = g.value(value);
  return g.bind(`$.mergeWithEntry(${f}, ${acc}, ${k}, ${v})`);
}

/** The keyword of `(update m :k ...)` or `(update-in m [:k] ...)`, or undefined. */
function literalKeyword(name: string, node: Node): Keyword | undefined {
  if (name === "update")
    return node.kind === "const" && node.value instanceof Keyword ? node.value : undefined;
  if (node.kind !== "vector" || node.items.length !== 1) return undefined;
  const only = node.items[0] as Node;
  return only.kind === "const" && only.value instanceof Keyword ? only.value : undefined;
}

/**
 * `(update row :amount * 1.2)`, `(update-in row [:quantity] inc)`, `(update m :n #(+ % 1))`: on
 * a map (or nil) the old value is read, f is applied inline (arithmetic of `+ - * inc dec`, a
 * literal fn's body, or a direct call of another builtin that takes that many arguments), and
 * the new value is written by the builtin's own rules and charges. Anything else (a vector, a
 * wrong kind of collection) goes to the builtin, which does what it always does. f must be a
 * builtin or a literal fn whose arity fits, so the builtin's arity check can never be skipped.
 */
function updateByKeyword(
  g: LoopEmitter,
  name: "update" | "update-in",
  args: readonly Node[],
  position: Position,
): string | undefined {
  if (args.length < 3) return undefined;
  const keyword = literalKeyword(name, args[1] as Node);
  if (keyword === undefined) return undefined;
  const fNode = args[2] as Node;
  const extraNodes = args.slice(3);
  const arity = 1 + extraNodes.length;
  const literalFn = inlinable(fNode, arity);
  const builtinName = fNode.kind === "builtin" ? fNode.name : undefined;
  if (literalFn === undefined && (builtinName === undefined || !g.builtinAccepts(builtinName, arity)))
    return undefined;
  // In the order written: the map, (f, which is a builtin or a literal fn: no effect), the extras.
  const map = g.value(args[0] as Node);
  const extras = extraNodes.map((node) => g.value(node));
  const target = g.bind(`$.updateTarget(${map})`);
  const result = g.temp();
  g.emit(`let ${result};`);
  const direct = g.block(() => {
    const slot = g.bind(`$.writeKey(${target}, ${g.constant(keyword)})`);
    const old = g.bind(`$.getExact(${target}, ${slot})`);
    const value =
      literalFn !== undefined
        ? g.inlineBody(literalFn, [old, ...extras])
        : g.builtinWith(builtinName as string, [old, ...extras]);
    g.emit(`${result} = $.assocCharged(${target}, ${slot}, ${value});`);
  });
  const general = g.block(() => {
    const builtin = g.value({ kind: "builtin", name, position });
    const all = [map, g.value(args[1] as Node), g.value(fNode), ...extras];
    g.emit(`${result} = ${builtin}(${all.join(", ")});`);
  });
  g.emit(`if (${target} !== undefined) {`);
  g.emitAll(direct);
  g.emit("} else {");
  g.emitAll(general);
  g.emit("}");
  return result;
}

/**
 * `(select-keys row [:id :region :amount])`: distinct keywords without hyphens are written as
 * they are (values/map-access.ts, builderPut), so the entries found make the small map directly.
 */
function selectLiteralKeywords(g: LoopEmitter, args: readonly Node[]): string | undefined {
  const keys = args.length === 2 ? args[1] : undefined;
  if (keys?.kind !== "vector" || keys.items.length > FLAT_LIMIT) return undefined;
  const keywords: Keyword[] = [];
  for (const item of keys.items) {
    if (item.kind !== "const" || !(item.value instanceof Keyword) || item.value.name.includes("-"))
      return undefined;
    if (keywords.includes(item.value)) return undefined;
    keywords.push(item.value);
  }
  const map = g.value(args[0] as Node);
  return g.bind(`$.selectKeywords(${map}, ${g.constant(Object.freeze(keywords))})`);
}

/**
 * `(apply + window)`, `(apply max amounts)`: a builtin named in place, over one collection. A
 * vector of up to three items is passed as fixed arguments (no spread, no argument array);
 * anything else goes to apply itself.
 */
function applyBuiltinToItems(g: LoopEmitter, args: readonly Node[], position: Position): string | undefined {
  if (args.length !== 2 || args[0]?.kind !== "builtin") return undefined;
  const fn = g.value(args[0]);
  const coll = g.value(args[1] as Node);
  const apply = g.value({ kind: "builtin", name: "apply", position });
  return g.bind(`$.applyBuiltin(${fn}, ${coll}, ${apply})`);
}
