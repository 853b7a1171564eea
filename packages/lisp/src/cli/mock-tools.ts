/**
 * Tools for the command line, to try a program that calls tools without the app behind them:
 * `--tool name=FILE.json` answers every call with the file's JSON, and `--tools MODULE.mjs`
 * imports a module whose exports are tools (functions, or objects with `execute`, such as
 * @ptc/tool's `createTools(...)` spread into exports or given as the default export).
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { HostTool } from "../runtime/context.js";
import { type ToolFile, UsageError } from "./arguments.js";

function isTool(value: unknown): value is HostTool {
  return (
    typeof value === "function" ||
    (typeof value === "object" &&
      value !== null &&
      typeof (value as { execute?: unknown }).execute === "function")
  );
}

/** The tools a module offers: named exports that are tools, and the tools of a default export object. */
function toolsOfModule(module: Record<string, unknown>): [string, HostTool][] {
  const found: [string, HostTool][] = [];
  for (const [name, value] of Object.entries(module)) {
    if (name === "default") continue;
    if (isTool(value)) found.push([name, value]);
  }
  const fallback = module.default;
  if (typeof fallback === "object" && fallback !== null && !isTool(fallback)) {
    for (const [name, value] of Object.entries(fallback)) if (isTool(value)) found.push([name, value]);
  }
  return found;
}

export interface MockToolSources {
  readonly toolFiles: readonly ToolFile[];
  readonly toolModules: readonly string[];
  readonly cwd: string;
  /** Reads a JSON file given on the command line (the caller's reader, with its messages). */
  readonly readJson: (path: string, what: string) => Promise<unknown>;
}

/** Every tool the command line gives; a name given twice is a usage error. */
export async function loadMockTools(sources: MockToolSources): Promise<Record<string, HostTool>> {
  const tools: Record<string, HostTool> = Object.create(null);
  const origin = new Map<string, string>();
  const add = (name: string, tool: HostTool, from: string) => {
    const earlier = origin.get(name);
    if (earlier !== undefined) {
      throw new UsageError(`tool "${name}" is given twice (${earlier} and ${from}); give each tool once`);
    }
    origin.set(name, from);
    tools[name] = tool;
  };
  for (const path of sources.toolModules) {
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(resolve(sources.cwd, path)).href)) as Record<string, unknown>;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new UsageError(
        `cannot load --tools module "${path}": ${reason}. It should be an ES module (.mjs) whose exports are tools`,
      );
    }
    const found = toolsOfModule(module);
    if (found.length === 0) {
      throw new UsageError(
        `--tools module "${path}" exports no tools: export functions of one argument object (export function list_orders(args) {...}), or objects with an execute function`,
      );
    }
    for (const [name, tool] of found) add(name, tool, `--tools ${path}`);
  }
  for (const { name, path } of sources.toolFiles) {
    const value = await sources.readJson(path, `--tool ${name}`);
    add(name, () => value, `--tool ${name}=${path}`);
  }
  return tools;
}
