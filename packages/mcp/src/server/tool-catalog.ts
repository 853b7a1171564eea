/**
 * How the tools programs can call are described in `lisp_eval`'s card, which every request
 * carries. With few tools the card carries everything, as an agent's does (`full`). With more (an
 * aggregator over several servers) it carries each tool's signature and the first sentence of its
 * description (`summary`), and with very many only their names, by server (`names`); in both,
 * programs get `describe_tool`, which returns a tool's full description and schemas on demand.
 */
import { createTool, type Tool } from "@ptc/tool";

export type CatalogMode = "full" | "summary" | "names" | "auto";

/** What the card lists of each tool. */
export type CatalogDetail = "full" | "summary" | "names";

export const DESCRIBE_TOOL_NAME = "describe_tool";
/** `auto` summarizes past this many tools (the reference's threshold for its lazy catalog too)... */
const AUTO_FULL_MAX_TOOLS = 8;
/** ...and lists only names past this many. */
const AUTO_SUMMARY_MAX_TOOLS = 40;
const SUMMARY_MAX_CHARS = 100;

export function catalogDetail(mode: CatalogMode, toolCount: number): CatalogDetail {
  if (mode !== "auto") return mode;
  if (toolCount <= AUTO_FULL_MAX_TOOLS) return "full";
  return toolCount <= AUTO_SUMMARY_MAX_TOOLS ? "summary" : "names";
}

/** Whether programs need `describe_tool`: the card leaves something out. */
export function summarizes(mode: CatalogMode, toolCount: number): boolean {
  return catalogDetail(mode, toolCount) !== "full";
}

/** The names-only tool list: one line per server prefix (`memory: memory__read_graph, ...`). */
export function namesSection(names: readonly string[]): string {
  const groups = new Map<string, string[]>();
  for (const name of [...names].sort()) {
    const split = name.indexOf("__");
    const group = split > 0 ? name.slice(0, split) : "(tools)";
    groups.set(group, [...(groups.get(group) ?? []), name]);
  }
  const lines = [...groups].map(([group, members]) => `- ${group}: ${members.join(", ")}`);
  return `<ptc_tools>\nTools callable from inside \`lisp_eval\` as \`(tool/name {...})\`, by server. Before calling one, read its signature with \`(tool/${DESCRIBE_TOOL_NAME} {:name "tool_name"})\` (it returns the description, signature and JSON schemas):\n${lines.join("\n")}\n</ptc_tools>`;
}

/** The first sentence (or line) of a description, cut at 100 characters. */
export function summarize(description: string | undefined): string | undefined {
  if (description === undefined) return undefined;
  const text = description.trim();
  const sentenceEnd = text.search(/[.!?](\s|$)|\n/);
  const first = sentenceEnd === -1 ? text : text.slice(0, sentenceEnd + (text[sentenceEnd] === "\n" ? 0 : 1));
  if (first.length <= SUMMARY_MAX_CHARS) return first;
  // A cut between an emoji's two UTF-16 halves would leave half of it, which a client's model
  // reads as U+FFFD at best (a lone surrogate is not Unicode): the cut falls before the pair.
  let end = SUMMARY_MAX_CHARS - 3;
  if (isHighSurrogate(first.charCodeAt(end - 1))) end--;
  return `${first.slice(0, end).trimEnd()}...`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
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
