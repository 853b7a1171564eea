/** The `tools` option of run and runIsolated, checked once for both. */
import { LispError } from "../errors.js";
import type { ToolFunction } from "./context.js";

export type ToolsOption = Readonly<Record<string, ToolFunction>> | ReadonlyMap<string, ToolFunction>;

/** The tools option as a Map, each entry checked to be a function. */
export function normalizeTools(tools: ToolsOption | undefined): Map<string, ToolFunction> {
  const map = new Map<string, ToolFunction>();
  if (tools === undefined) return map;
  const entries =
    tools instanceof Map ? [...tools.entries()] : Object.entries(tools as Record<string, ToolFunction>);
  for (const [name, fn] of entries) {
    if (typeof fn !== "function") {
      throw new LispError(
        "invalid_options",
        `tool "${name}" must be a function of one argument object, got ${typeof fn}`,
      );
    }
    map.set(name, fn);
  }
  return map;
}
