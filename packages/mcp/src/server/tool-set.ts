/**
 * The tools a `ptc-mcp` server offers, split by who may call them: programs (`(tool/name ...)`
 * inside `lisp_eval`) and the client natively (listed as MCP tools beside `lisp_eval`, combined
 * mode). Host tools (a `--tools` module) and upstream MCP servers' tools are one set; each tool's
 * `expose` decides, and a tool that declares none gets the server's default (programs only,
 * unless the server runs with `expose: "both"`).
 */

import { LISP_EVAL_TOOL_NAME } from "@ptc/protocol";
import { type AnyToolDefinition, createTool, type ExposeLayer, effectiveExpose, type Tool } from "@ptc/tool";
import { PtcMcpError } from "../errors.js";
import { SESSION_TOOL_NAMES } from "./session-tool-names.js";
import { type CatalogMode, DESCRIBE_TOOL_NAME, describeTool, summarizes } from "./tool-catalog.js";

export interface ToolSet {
  /** Every tool, by name, its `expose` resolved. */
  readonly all: ReadonlyMap<string, Tool>;
  /** The tools programs may call. */
  readonly programTools: ReadonlyMap<string, Tool>;
  /** The tools listed natively (combined mode). */
  readonly nativeTools: ReadonlyMap<string, Tool>;
}

const RESERVED: ReadonlySet<string> = new Set([
  LISP_EVAL_TOOL_NAME,
  DESCRIBE_TOOL_NAME,
  ...SESSION_TOOL_NAMES,
]);

/** A tool with its `expose` decided, keeping every other field (and its origin, for MCP tools). */
function withExpose(tool: Tool, expose: ExposeLayer): Tool {
  return tool.expose === expose ? tool : { ...tool, expose };
}

export function buildToolSet(
  hostTools: Readonly<Record<string, AnyToolDefinition | Tool>>,
  upstreamTools: Readonly<Record<string, Tool>>,
  defaultExpose: "ptc_lisp" | "both",
  catalog: CatalogMode = "auto",
): ToolSet {
  const all = new Map<string, Tool>();
  const add = (name: string, tool: Tool, from: string) => {
    if (RESERVED.has(name)) {
      throw new PtcMcpError(
        "PTC_MCP_INVALID_OPTION",
        `tool "${name}" (${from}) has a name ptc-mcp uses for its own tools; rename it`,
        { details: { tool: name } },
      );
    }
    if (all.has(name)) {
      throw new PtcMcpError(
        "PTC_MCP_INVALID_OPTION",
        `two tools are named "${name}" (one of them ${from}); give one another name (or the upstream server another prefix)`,
        { details: { tool: name } },
      );
    }
    all.set(name, withExpose(tool, tool.expose ?? defaultExpose));
  };
  for (const [name, definition] of Object.entries(hostTools)) {
    const tool = createTool(name, definition as AnyToolDefinition);
    add(name, tool, "from the tools module");
  }
  for (const [name, tool] of Object.entries(upstreamTools)) add(name, tool, "from an upstream server");

  const programTools = new Map<string, Tool>();
  const nativeTools = new Map<string, Tool>();
  for (const [name, tool] of all) {
    // Every tool has its expose set by now, so the mode below only matters for the lookup.
    const layer = effectiveExpose(tool, { output: "text", ptcTransport: "tool_call" });
    if (layer === "ptc_lisp" || layer === "both") programTools.set(name, tool);
    if (layer === "native" || layer === "both") nativeTools.set(name, tool);
  }
  if (summarizes(catalog, programTools.size)) {
    const describe = describeTool(() => programTools);
    all.set(DESCRIBE_TOOL_NAME, describe);
    programTools.set(DESCRIBE_TOOL_NAME, describe);
  }
  return { all, programTools, nativeTools };
}
