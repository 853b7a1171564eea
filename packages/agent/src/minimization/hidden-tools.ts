/**
 * Which tools' values the model may see in combined mode, by the tool's own preview policy. A
 * program-callable tool shows values only when its native view does: a bridged tool
 * (`expose: "both"`, `cache: true`) with `nativeResult: { preview: "rows" }`, or a `"both"` tool
 * without a cache, whose native calls return the whole result. Every other program-callable tool
 * shows none: the metadata preview (the default) promises no values, a custom preview shows only
 * what its function picks (which the agent cannot tell apart from the rest), and a `"ptc_lisp"`
 * tool has no native view at all.
 */
import { effectiveExpose, normalizeKey, type Tool } from "@ptc/tool";
import type { Agent } from "../agent/agent-types.js";

/** Names (with `-` read as `_`, as programs may write them) of the tools whose values stay hidden. */
export function hiddenToolNames(tools: Iterable<Tool>, agent: Agent): ReadonlySet<string> {
  const hidden = new Set<string>();
  for (const tool of tools) {
    const expose = effectiveExpose(tool, agent);
    if (expose === "native") continue;
    const showsValues = expose === "both" && (!tool.cache || tool.nativeResult?.preview === "rows");
    if (!showsValues) hidden.add(normalizeKey(tool.name));
  }
  return hidden;
}
