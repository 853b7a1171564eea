/**
 * Builtin calls whose written shape lets generated code skip the builtin's general entry: the
 * arguments a model writes most often are literals (a one-entry map, a keyword, a vector of
 * keywords), and knowing them when the code is generated saves building them and looking at
 * them again on every row. Each shape calls a runtime helper (codegen-runtime.ts) that gives the
 * builtin's result, charges and errors exactly; only the work of the general entry is saved.
 */
import type { Node } from "../analyzer/ast.js";
import type { LoopEmitter } from "./codegen-loops.js";

/** The code of a specialized call, or undefined when the call has no special shape. */
export function specializedCall(g: LoopEmitter, name: string, args: readonly Node[]): string | undefined {
  switch (name) {
    case "merge-with":
      return mergeWithLiteralEntry(g, args);
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
