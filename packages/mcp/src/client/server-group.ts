/**
 * Several MCP servers at once, as one set of tools: what a host (or `ptc-mcp`'s aggregator)
 * wants from an `mcpServers` config. The servers start in parallel; one that does not come up
 * is reported in `failures` and the others serve. Closing the group closes every server.
 */
import { PtcMcpError } from "../errors.js";
import { type ConnectOptions, connectMcpServer, type McpConnection } from "./connection.js";
import type { McpTool } from "./mcp-tool.js";
import type { McpServerConfig, McpServerSettings } from "./server-config.js";
import { nameStart, namesMayMeet } from "./tool-names.js";

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

/** The prefix a server's connection will use: its config's, else the group's defaults', else `<name>__`. */
function prefixOf(name: string, config: McpServerConfig, defaults: McpServerSettings | undefined): string {
  return config.ptc?.prefix ?? defaults?.prefix ?? `${name}__`;
}

/**
 * Refuses a group in which two servers' tools could get the same name (see `namesMayMeet`): the
 * group's tools are merged by name, so one tool would hide the other, and calls meant for it
 * would reach the other server. Names change as servers re-list their tools, so what is refused
 * is any two prefixes that allow it, before any server starts.
 */
function refuseMeetingNames(prefixes: readonly (readonly [server: string, prefix: string])[]): void {
  for (let i = 0; i < prefixes.length; i++) {
    for (let j = i + 1; j < prefixes.length; j++) {
      const [first, firstPrefix] = prefixes[i] as readonly [string, string];
      const [second, secondPrefix] = prefixes[j] as readonly [string, string];
      if (!namesMayMeet(firstPrefix, secondPrefix)) continue;
      const [shorter, longer] = [nameStart(firstPrefix), nameStart(secondPrefix)].sort(
        (a, b) => a.length - b.length,
      ) as [string, string];
      const how =
        shorter === longer
          ? `the names of both servers' tools begin with ${JSON.stringify(shorter)}`
          : `the names of one server's tools begin with ${JSON.stringify(longer)}, which starts with ${JSON.stringify(shorter)}, the beginning of the other's`;
      throw new PtcMcpError(
        "PTC_MCP_INVALID_CONFIG",
        `servers "${first}" and "${second}" could give two tools the same name: ${how} (a tool "b__x" of server "a" and a tool "x" of server "a__b" would both be a__b__x). Rename one of the servers, or give one a "ptc.prefix" so that neither prefix starts with the other`,
        { details: { servers: [first, second], prefixes: [firstPrefix, secondPrefix] } },
      );
    }
  }
}

export async function connectMcpServers(
  servers: Readonly<Record<string, McpServerConfig>>,
  options: ConnectServersOptions = {},
): Promise<McpServerGroup> {
  const names = Object.keys(servers).sort();
  refuseMeetingNames(
    names.map((name) => [name, prefixOf(name, servers[name] as McpServerConfig, options.defaults)]),
  );
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
