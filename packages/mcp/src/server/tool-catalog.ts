/**
 * How the tools programs can call are described in `lisp_eval`'s card. With many tools (an
 * aggregator over several servers), the card carries each tool's signature and the first
 * sentence of its description, and programs get `describe_tool`, which returns a tool's full
 * description and schemas on demand: every request then pays for a summary, not for the whole
 * catalog. With few tools the card carries everything, as an agent's does.
 */
import { createTool, type Tool } from "@ptc/tool";

export type CatalogMode = "full" | "summary" | "auto";

export const DESCRIBE_TOOL_NAME = "describe_tool";
/** `auto` summarizes past this many tools (the reference's threshold too). */
const AUTO_FULL_MAX_TOOLS = 8;
const SUMMARY_MAX_CHARS = 100;

export function summarizes(mode: CatalogMode, toolCount: number): boolean {
  return mode === "summary" || (mode === "auto" && toolCount > AUTO_FULL_MAX_TOOLS);
}

/** The first sentence (or line) of a description, cut at 100 characters. */
export function summarize(description: string | undefined): string | undefined {
  if (description === undefined) return undefined;
  const text = description.trim();
  const sentenceEnd = text.search(/[.!?](\s|$)|\n/);
  const first = sentenceEnd === -1 ? text : text.slice(0, sentenceEnd + (text[sentenceEnd] === "\n" ? 0 : 1));
  return first.length > SUMMARY_MAX_CHARS ? `${first.slice(0, SUMMARY_MAX_CHARS - 3).trimEnd()}...` : first;
}

/** `describe_tool`: a program reads any program-callable tool's full description and schemas. */
export function describeTool(tools: () => ReadonlyMap<string, Tool>): Tool {
  return createTool(DESCRIBE_TOOL_NAME, {
    description: "The full description, signature and JSON schemas of a tool programs can call.",
    signature: "(name :string) -> {name :string, description :string, signature :string, input_schema :map}",
    expose: "ptc_lisp",
    execute: ({ name }: { name: string }) => {
      const available = tools();
      const tool = available.get(name);
      if (tool === undefined || name === DESCRIBE_TOOL_NAME) {
        const names = [...available.keys()].filter((known) => known !== DESCRIBE_TOOL_NAME);
        throw new Error(
          `no tool named ${JSON.stringify(name)}; the tools programs can call: ${names.join(", ")}`,
        );
      }
      const origin = (tool as { mcp?: { outputSchema?: unknown; annotations?: unknown } }).mcp;
      return {
        name,
        description: tool.description ?? "",
        signature: tool.signature ?? "",
        input_schema: tool.parametersJsonSchema,
        ...(origin?.outputSchema === undefined ? {} : { output_schema: origin.outputSchema }),
        ...(origin?.annotations === undefined ? {} : { annotations: origin.annotations }),
      };
    },
  });
}
