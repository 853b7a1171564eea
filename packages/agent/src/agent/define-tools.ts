/**
 * `defineTools` and `defineTool`: tools written in a module of their own, typed as an agent reads
 * them. Without them, an object literal assigned to a variable widens `expose: "both"` to
 * `string`, and `createAgent({ tools })` then fails with a long structural error far from the
 * mistake. These check each definition where it is written and keep its literal types; at run
 * time they return what they were given.
 */
import type { AgentToolDefinition } from "./agent-options.js";

/** The `tools` option of an agent: name → definition. */
export type AgentTools = Readonly<Record<string, AgentToolDefinition>>;

/** Tools of an agent, defined apart from it: `export const tools = defineTools({ ... })`. */
export function defineTools<const Tools extends AgentTools>(tools: Tools): Tools {
  return tools;
}

/** One tool of an agent, defined apart from it: `export const search = defineTool({ ... })`. */
export function defineTool<const Definition extends AgentToolDefinition>(definition: Definition): Definition {
  return definition;
}
