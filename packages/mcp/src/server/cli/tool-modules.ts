/**
 * `--tools FILE.mjs`: the tools an ES module offers, as the `ptc-lisp` command reads them. Its
 * named exports that are tools (a function, or an object with an `execute` function, such as a
 * `@ptc/tool` tool), and the tools of a default export object (`export default createTools({...})`).
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AnyToolDefinition } from "@ptc/tool";
import { UsageError } from "./arguments.js";

function isToolLike(value: unknown): value is AnyToolDefinition {
  return (
    typeof value === "function" ||
    (typeof value === "object" &&
      value !== null &&
      typeof (value as { execute?: unknown }).execute === "function")
  );
}

export async function loadToolModules(
  paths: readonly string[],
  cwd: string,
): Promise<Record<string, AnyToolDefinition>> {
  const tools: Record<string, AnyToolDefinition> = {};
  const origin = new Map<string, string>();
  for (const path of paths) {
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(resolve(cwd, path)).href)) as Record<string, unknown>;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new UsageError(
        `cannot load --tools module ${JSON.stringify(path)}: ${reason}. It should be an ES module (.mjs) whose exports are tools`,
      );
    }
    const found: [string, AnyToolDefinition][] = [];
    for (const [name, value] of Object.entries(module))
      if (name !== "default" && isToolLike(value)) found.push([name, value]);
    const fallback = module.default;
    if (typeof fallback === "object" && fallback !== null && !isToolLike(fallback)) {
      for (const [name, value] of Object.entries(fallback)) if (isToolLike(value)) found.push([name, value]);
    }
    if (found.length === 0) {
      throw new UsageError(
        `--tools module ${JSON.stringify(path)} exports no tools: export functions of one argument object (export function list_orders(args) {...}), or objects with an execute function`,
      );
    }
    for (const [name, tool] of found) {
      const earlier = origin.get(name);
      if (earlier !== undefined)
        throw new UsageError(
          `tool "${name}" is exported by both ${earlier} and ${path}; export each tool once`,
        );
      origin.set(name, path);
      tools[name] = tool;
    }
  }
  return tools;
}
