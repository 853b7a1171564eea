/**
 * Builtin tools an agent can switch on: the `grep` family (`grep`, `grep-n`) and `llm-query`
 * (a program asks the model a typed sub-question). They never replace a user tool of the same name.
 */
import { createTool, type Tool } from "@ptc/tool";
import type { Agent } from "../agent/agent-types.js";
import { registerNestedTool } from "./nested-tools.js";

const MAX_PATTERN_LENGTH = 1000;

function compile(pattern: unknown): RegExp {
  if (typeof pattern !== "string") throw new Error("pattern must be a string");
  if (pattern.length > MAX_PATTERN_LENGTH)
    throw new Error(`pattern longer than ${MAX_PATTERN_LENGTH} characters`);
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new Error(`invalid pattern: ${(error as Error).message}`);
  }
}

function lines(text: unknown): string[] {
  if (typeof text !== "string") throw new Error("text must be a string");
  return text.split(/\r?\n/);
}

/**
 * The grep pair, made on first use and then shared by every agent: createTool parses their
 * signatures, work that importing @ptc/agent should not pay (cold start, docs/benchmarks.md).
 */
let grepTools: readonly [Tool, Tool] | undefined;

function grepFamily(): readonly [Tool, Tool] {
  grepTools ??= [makeGrep(), makeGrepN()];
  return grepTools;
}

function makeGrep(): Tool {
  return createTool("grep", {
    signature: "(pattern :string, text :string) -> [:string]",
    description: "Lines of text matching a regular expression.",
    execute: ({ pattern, text }) => {
      const regex = compile(pattern);
      return lines(text).filter((line) => regex.test(line));
    },
  });
}

function makeGrepN(): Tool {
  return createTool("grep-n", {
    signature: "(pattern :string, text :string, context :int?) -> [{line :int, text :string, match :bool}]",
    description: "Matching lines with their 1-based line numbers, plus `context` lines around each match.",
    execute: ({ pattern, text, context }) => {
      const regex = compile(pattern);
      const all = lines(text);
      const around = typeof context === "number" && context > 0 ? Math.floor(context) : 0;
      const shown = new Map<number, boolean>();
      all.forEach((line, index) => {
        if (!regex.test(line)) return;
        for (let i = Math.max(0, index - around); i <= Math.min(all.length - 1, index + around); i++) {
          shown.set(i, shown.get(i) === true || i === index);
        }
      });
      return [...shown.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, match]) => ({ line: index + 1, text: all[index] as string, match }));
    },
  });
}

function llmQueryTool(): Tool {
  const tool = createTool("llm-query", {
    signature: "(prompt :string, signature :string?) -> :any",
    description:
      "Ask the model a sub-question. :prompt is a template; other keys fill its {{placeholders}}; :signature types the answer (default :string).",
    execute: () => {
      throw new Error("llm-query runs only inside an agent run");
    },
  });
  registerNestedTool(tool, { kind: "llm-query" });
  return tool;
}

/** The agent's tools plus the builtins it asked for, by name. */
export function effectiveTools(agent: Agent): Map<string, Tool> {
  const tools = new Map<string, Tool>(Object.entries(agent.tools));
  const add = (tool: Tool) => {
    if (!tools.has(tool.name)) tools.set(tool.name, tool);
  };
  if (agent.llmQuery) add(llmQueryTool());
  if (agent.builtinTools.includes("grep")) {
    for (const tool of grepFamily()) add(tool);
  }
  return tools;
}
