/**
 * Which normalized tools stand for agents (`asTool(...)`, `"self"`, the `llm-query` builtin). They are `Tool`s like any
 * other for prompts and schemas, but the loop runs them as child agents, so it must recognize them.
 */
import type { Tool } from "@ptc/tool";
import type { AgentTool } from "./agent-tool.js";

export type NestedTool =
  | { readonly kind: "self" }
  | { readonly kind: "agent"; readonly agentTool: AgentTool }
  | { readonly kind: "llm-query" };

const nested = new WeakMap<Tool, NestedTool>();

export function registerNestedTool(tool: Tool, info: NestedTool): void {
  nested.set(tool, info);
}

export function nestedToolOf(tool: Tool): NestedTool | undefined {
  return nested.get(tool);
}
