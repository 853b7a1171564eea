/**
 * One tool of an MCP server as a `@ptc/tool` tool: its input schema checks the arguments and
 * gives the signature and the native parameters, its output schema gives the signature's return
 * type, its annotations decide whether it may be cached, and its `execute` calls the server
 * through the connection (which owns timeouts, cancellation, concurrency and faults).
 */
import { createTool, type Tool, type ToolExecutionOptions } from "@ptc/tool";
import { schemaParameters } from "./schema-parameters.js";
import { schemaSignature } from "./schema-signature.js";
import type { McpServerSettings, McpToolSettings } from "./server-config.js";

/** What a server says about a tool in `tools/list` (the fields this package reads). */
export interface ListedTool {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: ToolAnnotations | undefined;
}

export interface ToolAnnotations {
  readonly title?: string | undefined;
  readonly readOnlyHint?: boolean | undefined;
  readonly destructiveHint?: boolean | undefined;
  readonly idempotentHint?: boolean | undefined;
  readonly openWorldHint?: boolean | undefined;
}

/** Where an MCP tool came from, kept on the tool for hosts (and `ptc-mcp`'s listings). */
export interface McpToolOrigin {
  /** The server's name in the host's config. */
  readonly server: string;
  /** The tool's name on the server. */
  readonly tool: string;
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
  readonly annotations: ToolAnnotations;
  /** Programs get the whole result envelope (the `raw` setting). */
  readonly raw: boolean;
}

/** A `@ptc/tool` tool that calls an MCP server. */
export type McpTool = Tool & { readonly mcp: McpToolOrigin };

/** Calls the server: the connection's part of a tool. */
export type CallRemoteTool = (
  tool: McpToolOrigin,
  args: Record<string, unknown>,
  options: ToolExecutionOptions & { readonly timeoutMs: number | undefined },
) => Promise<unknown>;

/**
 * May results of this tool be reused? Never for a tool annotated destructive. A server-wide
 * `cache: true` covers the tools that say they only read (`readOnlyHint`); a tool-level
 * `cache: true` also covers a tool that says nothing, since MCP's default for an unannotated
 * tool is "may be destructive" and only the host can vouch for it.
 */
export function isCacheable(
  annotations: ToolAnnotations,
  server: McpServerSettings,
  tool: McpToolSettings,
): boolean {
  if (annotations.destructiveHint === true) return false;
  if (tool.cache !== undefined) return tool.cache;
  return server.cache === true && annotations.readOnlyHint === true;
}

export function createMcpTool(
  ptcName: string,
  listed: ListedTool,
  serverName: string,
  settings: McpServerSettings,
  call: CallRemoteTool,
): McpTool {
  const toolSettings = settings.tools?.[listed.name] ?? {};
  const annotations = listed.annotations ?? {};
  const cache = isCacheable(annotations, settings, toolSettings);
  const expose = toolSettings.expose ?? settings.expose;
  const nativeResult = toolSettings.nativeResult ?? settings.nativeResult;
  const timeoutMs = toolSettings.timeoutMs ?? settings.timeoutMs;
  const origin: McpToolOrigin = {
    server: serverName,
    tool: listed.name,
    inputSchema: listed.inputSchema,
    outputSchema: listed.outputSchema,
    annotations,
    raw: toolSettings.raw ?? settings.raw ?? false,
  };
  const description = listed.description ?? listed.title ?? annotations.title;
  const signature = schemaSignature(listed.inputSchema, origin.raw ? undefined : listed.outputSchema);
  const tool = createTool(ptcName, {
    execute: (args: Record<string, unknown>, options: ToolExecutionOptions) =>
      call(origin, args, { ...options, timeoutMs }),
    parameters: schemaParameters(listed.inputSchema),
    ...(signature === undefined ? {} : { signature }),
    ...(description === undefined ? {} : { description }),
    ...(expose === undefined ? {} : { expose }),
    cache,
    // A preview needs a cached "both" tool; elsewhere the server-wide setting does not apply.
    ...(nativeResult !== undefined && cache && expose === "both" ? { nativeResult } : {}),
  });
  return { ...tool, mcp: origin };
}
