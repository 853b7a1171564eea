/**
 * The tools programs call on one client's connection: the server's program-callable tools, with
 * each `cache: true` tool reading and writing the client's shared cache first, under the same
 * canonical key a native call uses. `@ptc/lisp` checks a program's arguments before `execute`,
 * so the key is made from checked arguments, as a native call's is.
 */
import { canonicalCacheKey, type Tool, type ToolArgs, type ToolExecutionOptions } from "@ptc/tool";
import type { SharedToolCache } from "./shared-cache.js";

export function cachedProgramTools(
  tools: ReadonlyMap<string, Tool>,
  cache: SharedToolCache,
): ReadonlyMap<string, Tool> {
  const out = new Map<string, Tool>();
  for (const [name, tool] of tools) {
    if (!tool.cache) {
      out.set(name, tool);
      continue;
    }
    out.set(name, {
      ...tool,
      async execute(args: ToolArgs, options: ToolExecutionOptions) {
        const key = canonicalCacheKey(name, args);
        const hit = cache.get(key);
        if (hit !== undefined) return hit.result;
        const result = await tool.execute(args, options);
        cache.set(key, result);
        return result;
      },
    });
  }
  return out;
}
