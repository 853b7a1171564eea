/**
 * Several MCP servers at once, as one set of tools: what a host (or `ptc-mcp`'s aggregator)
 * wants from an `mcpServers` config. The servers start in parallel; one that does not come up
 * is reported in `failures` and the others serve. Closing the group closes every server.
 */
import { PtcMcpError } from "../errors.js";
import { type ConnectOptions, connectMcpServer, type McpConnection } from "./connection.js";
import type { McpTool } from "./mcp-tool.js";
import type { McpServerConfig, McpServerSettings } from "./server-config.js";

export interface ConnectServersOptions {
  /** Settings for what a server's own `ptc` settings do not say (e.g. a timeout for all). */
  readonly defaults?: McpServerSettings;
  /** Each line a stdio server writes on stderr, with the server's name. */
  readonly onStderrLine?: (server: string, line: string) => void;
  /** Called after any server's tool list changed. */
  readonly onToolsChanged?: (tools: Readonly<Record<string, McpTool>>) => void;
}

export interface McpServerGroup {
  /** The servers that started, by name. */
  readonly connections: Readonly<Record<string, McpConnection>>;
  /** The servers that did not start, by name, with why (`PTC_MCP_UNAVAILABLE`, `PTC_MCP_INVALID_CONFIG`). */
  readonly failures: Readonly<Record<string, PtcMcpError>>;
  /** Every tool of every server that started, by PTC name; follows each server's list changes. */
  readonly tools: Readonly<Record<string, McpTool>>;
  /** Calls `listener` after any server's tool list changed; returns a function that stops it. */
  onToolsChanged(listener: (tools: Readonly<Record<string, McpTool>>) => void): () => void;
  /** Ends every server. Safe to call more than once. */
  close(): Promise<void>;
}

function prefixOf(name: string, config: McpServerConfig): string {
  return config.ptc?.prefix ?? `${name}__`;
}

export async function connectMcpServers(
  servers: Readonly<Record<string, McpServerConfig>>,
  options: ConnectServersOptions = {},
): Promise<McpServerGroup> {
  const names = Object.keys(servers).sort();
  const prefixes = new Map<string, string>();
  for (const name of names) {
    const prefix = prefixOf(name, servers[name] as McpServerConfig);
    const other = prefixes.get(prefix);
    if (other !== undefined) {
      throw new PtcMcpError(
        "PTC_MCP_INVALID_CONFIG",
        `servers "${other}" and "${name}" both name their tools with the prefix ${JSON.stringify(prefix)}; give one of them another "ptc.prefix" so their tools stay apart`,
        { details: { servers: [other, name], prefix } },
      );
    }
    prefixes.set(prefix, name);
  }
  const connections: Record<string, McpConnection> = {};
  const failures: Record<string, PtcMcpError> = {};
  let tools: Readonly<Record<string, McpTool>> = {};
  const merge = () => {
    const merged: Record<string, McpTool> = {};
    for (const name of names) Object.assign(merged, connections[name]?.tools);
    tools = merged;
    return merged;
  };
  const listeners = new Set<(tools: Readonly<Record<string, McpTool>>) => void>();
  if (options.onToolsChanged !== undefined) listeners.add(options.onToolsChanged);
  const onToolsChanged = () => {
    const merged = merge();
    for (const listener of listeners) listener(merged);
  };

  const outcomes = await Promise.allSettled(
    names.map((name) => {
      const connectOptions: ConnectOptions = {
        ...(options.defaults === undefined ? {} : { defaults: options.defaults }),
        ...(options.onStderrLine === undefined
          ? {}
          : { onStderrLine: (line: string) => options.onStderrLine?.(name, line) }),
      };
      return connectMcpServer(name, servers[name] as McpServerConfig, connectOptions);
    }),
  );
  outcomes.forEach((outcome, index) => {
    const name = names[index] as string;
    if (outcome.status === "fulfilled") {
      connections[name] = outcome.value;
      outcome.value.onToolsChanged(onToolsChanged);
    } else {
      failures[name] =
        outcome.reason instanceof PtcMcpError
          ? outcome.reason
          : new PtcMcpError("PTC_MCP_UNAVAILABLE", `${name}: ${String(outcome.reason)}`, {
              cause: outcome.reason,
            });
    }
  });
  merge();

  return {
    connections,
    failures,
    get tools() {
      return tools;
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await Promise.all(Object.values(connections).map((connection) => connection.close()));
    },
  };
}
