/**
 * What a client's model reads about PTC-Lisp: `lisp_eval`'s description (what the tool does,
 * then the reference card with the tools programs can call), and the same card as a prompt and a
 * resource for clients that show those instead of tool descriptions.
 */
import {
  COMPACT_REFERENCE_CARD,
  combinedModeReferenceCard,
  type ToolProfile,
  toolDescription,
} from "@ptc/protocol";
import type { Tool } from "@ptc/tool";
import type { PtcMcpError } from "../errors.js";
import {
  type CatalogMode,
  catalogDetail,
  DESCRIBE_TOOL_NAME,
  namesSection,
  summarize,
} from "./tool-catalog.js";
import type { ToolSet } from "./tool-set.js";

export const REFERENCE_PROMPT_NAME = "ptc_lisp_reference";
export const REFERENCE_RESOURCE_URI = "ptc://reference-card";

/**
 * The card, listing the program-callable tools with their signatures when there are any; with a
 * summarized catalog, each description is cut to its first sentence and `describe_tool` says
 * where the rest is.
 */
export function referenceCard(toolSet: ToolSet, catalog: CatalogMode = "full"): string {
  const tools = [...toolSet.programTools.values()].filter((tool) => tool.name !== DESCRIBE_TOOL_NAME);
  if (tools.length === 0) return COMPACT_REFERENCE_CARD;
  const detail = catalogDetail(catalog, tools.length);
  if (detail === "names")
    return `${COMPACT_REFERENCE_CARD}\n\n${namesSection(tools.map((tool) => tool.name))}`;
  const listed: Tool[] =
    detail === "summary"
      ? tools.map((tool) => ({ ...tool, description: summarize(tool.description) }))
      : tools;
  const card =
    combinedModeReferenceCard({ output: "text", ptcTransport: "tool_call", tools: listed }) ??
    COMPACT_REFERENCE_CARD;
  return detail === "summary"
    ? `${card}\nDescriptions above are first sentences: \`(tool/${DESCRIBE_TOOL_NAME} {:name "tool_name"})\` returns a tool's full description and JSON schemas.`
    : card;
}

function profile(toolSet: ToolSet): ToolProfile {
  if (toolSet.programTools.size === 0) return "mcp_no_tools";
  return toolSet.nativeTools.size > 0 ? "in_process_text_mode" : "in_process_with_app_tools";
}

export function lispEvalDescription(
  toolSet: ToolSet,
  extra: {
    readonly failures: Readonly<Record<string, PtcMcpError>>;
    readonly sessions: boolean;
    readonly catalog: CatalogMode;
  },
): string {
  const parts = [toolDescription(profile(toolSet)), referenceCard(toolSet, extra.catalog)];
  if (extra.sessions) {
    parts.push(
      "Each lisp_eval call starts afresh. To keep defs and *1 *2 *3 across calls, open a session with lisp_session_start and run programs with lisp_session_eval.",
    );
  }
  const failed = Object.entries(extra.failures);
  if (failed.length > 0) {
    parts.push(
      `Upstream MCP servers that did not start (their tools are missing): ${failed
        .map(([name, error]) => `${name} (${error.message.split("\n")[0]})`)
        .join("; ")}.`,
    );
  }
  return parts.join("\n\n");
}
