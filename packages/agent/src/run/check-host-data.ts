/**
 * Data a host hands a run to start from (`toolCache` entries, a chat's `state`, `initialMemory`)
 * is walked like a fresh tool result: handed to programs, previewed for the model, written into
 * the step. A value with shared structure is small as a graph and enormous as a tree, so it is
 * measured here, before anything walks it, against the budget a tool's result has
 * (json/tree-size.ts). Past it, `run` throws naming the entry: a wrong option is the caller's
 * mistake, and nothing has started yet, so nothing is lost.
 */
import { AgentError } from "../errors.js";
import { exceedsTree, MAX_TREE_CHARS, MAX_TREE_NODES } from "../json/tree-size.js";
import type { RunOptions } from "./run-options.js";

function tooLarge(option: string, where: string): AgentError {
  return new AgentError(
    "PTC_AGENT_INVALID_RUN_OPTION",
    `${where} is too large as a tree: more than ${MAX_TREE_NODES} nodes or ${MAX_TREE_CHARS} characters, ` +
      "counting each shared part once per path that reaches it. Pass plain JSON data (a step's own " +
      "toolCache or a chat reply's state is always within it), or leave the entry out.",
    { details: { option, entry: where } },
  );
}

/** Throws when an entry of `toolCache` or a value of `initialMemory` is past the tree budget. */
export function checkHostData(options: Pick<RunOptions, "toolCache" | "initialMemory">): void {
  const { toolCache, initialMemory } = options;
  if (toolCache !== undefined) {
    const entries = toolCache instanceof Map ? [...toolCache.entries()] : Object.entries(toolCache);
    for (const [key, entry] of entries) {
      const result =
        typeof entry === "object" && entry !== null ? (entry as { result?: unknown }).result : entry;
      if (exceedsTree(result)) throw tooLarge("toolCache", `toolCache entry ${JSON.stringify(key)}`);
    }
  }
  if (initialMemory !== undefined) {
    for (const [name, value] of Object.entries(initialMemory)) {
      if (exceedsTree(value)) throw tooLarge("initialMemory", `initialMemory.${name}`);
    }
  }
}
