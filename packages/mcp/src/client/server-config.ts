/**
 * How to reach an MCP server, and what PTC does with its tools. The transport part is the shape
 * desktop clients write in their `mcpServers` config (`{command, args, env, cwd}` or `{url,
 * headers}`), so an existing entry works as it is; PTC's own settings sit beside it under `ptc`,
 * a key those clients do not read.
 *
 * Checking a config never starts anything: it only says, precisely, what is wrong with it.
 */
import type { ExposeLayer, NativeResultOptions } from "@ptc/tool";
import { PtcMcpError } from "../errors.js";

/** A server started as a child process, speaking MCP over its stdin and stdout. */
export interface StdioServerConfig {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to a small inherited environment (HOME, PATH, USER...): secrets are passed only when named. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface HttpServerConfig {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What PTC does with one tool of a server; each setting overrides the server's. */
export interface McpToolSettings {
  /** Reuse results for calls with the same canonical arguments. Never for a `destructiveHint` tool. */
  readonly cache?: boolean;
  /** Which layer may call the tool (combined mode); unset means the mode's default. */
  readonly expose?: ExposeLayer;
  /** The native preview of a cached `expose: "both"` tool. */
  readonly nativeResult?: NativeResultOptions;
  /** Programs receive the whole MCP result envelope instead of its data. */
  readonly raw?: boolean;
  /** Milliseconds one call may take before it is cancelled. */
  readonly timeoutMs?: number;
}

/** What PTC does with a server's tools. */
export interface McpServerSettings extends McpToolSettings {
  /** Put in front of every tool name of the server. Default: the server's name and `__`. */
  readonly prefix?: string;
  /** Calls in flight at once on this server; more wait their turn (a `pmap` over a tool). Default 4. */
  readonly maxConcurrency?: number;
  /** Largest tool result accepted, in bytes of JSON. Default 2 MiB. */
  readonly maxResultBytes?: number;
  /** Milliseconds to start the server and complete the MCP handshake, and for each page of its tool list. Default 10,000. */
  readonly connectTimeoutMs?: number;
  /** Per-tool overrides, keyed by the tool's name on the server. */
  readonly tools?: Readonly<Record<string, McpToolSettings>>;
}

/** One server: how to reach it, and optionally what PTC does with its tools. */
export type McpServerConfig = (StdioServerConfig | HttpServerConfig) & { readonly ptc?: McpServerSettings };

/** The file desktop MCP clients read: `{"mcpServers": {name: config}}`. */
export interface McpServersFile {
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
}

export function isHttpServerConfig(config: StdioServerConfig | HttpServerConfig): config is HttpServerConfig {
  return "url" in config;
}

const SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;
const EXPOSE_LAYERS: readonly unknown[] = ["native", "ptc_lisp", "both"];

function invalid(where: string, message: string): PtcMcpError {
  return new PtcMcpError("PTC_MCP_INVALID_CONFIG", `${where}: ${message}`, { details: { where } });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function stringRecord(where: string, value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw invalid(where, `must be an object of strings, got ${describe(value)}`);
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== "string") throw invalid(`${where}.${key}`, `must be a string, got ${describe(item)}`);
  }
  return value as Record<string, string>;
}

function positiveInteger(where: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw invalid(where, `must be a positive integer, got ${describe(value)}`);
  }
  return value;
}

function optionalBoolean(where: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === "boolean") return value;
  throw invalid(where, `must be true or false, got ${describe(value)}`);
}

function checkToolSettings(where: string, value: unknown): McpToolSettings {
  if (!isRecord(value)) throw invalid(where, `must be an object, got ${describe(value)}`);
  optionalBoolean(`${where}.cache`, value.cache);
  optionalBoolean(`${where}.raw`, value.raw);
  positiveInteger(`${where}.timeoutMs`, value.timeoutMs);
  if (value.expose !== undefined && !EXPOSE_LAYERS.includes(value.expose)) {
    throw invalid(`${where}.expose`, `must be "native", "ptc_lisp" or "both", got ${describe(value.expose)}`);
  }
  if (value.nativeResult !== undefined && !isRecord(value.nativeResult)) {
    throw invalid(`${where}.nativeResult`, `must be an object, got ${describe(value.nativeResult)}`);
  }
  return value as McpToolSettings;
}

function checkSettings(where: string, value: unknown): McpServerSettings | undefined {
  if (value === undefined) return undefined;
  checkToolSettings(where, value);
  const settings = value as Record<string, unknown>;
  if (settings.prefix !== undefined && typeof settings.prefix !== "string") {
    throw invalid(`${where}.prefix`, `must be a string, got ${describe(settings.prefix)}`);
  }
  positiveInteger(`${where}.maxConcurrency`, settings.maxConcurrency);
  positiveInteger(`${where}.maxResultBytes`, settings.maxResultBytes);
  positiveInteger(`${where}.connectTimeoutMs`, settings.connectTimeoutMs);
  if (settings.tools !== undefined) {
    if (!isRecord(settings.tools)) {
      throw invalid(
        `${where}.tools`,
        `must be an object keyed by tool name, got ${describe(settings.tools)}`,
      );
    }
    for (const [tool, toolSettings] of Object.entries(settings.tools)) {
      checkToolSettings(`${where}.tools.${tool}`, toolSettings);
    }
  }
  return value as McpServerSettings;
}

/**
 * Checks one server entry and returns it in the package's shape. `where` names it in messages
 * (`mcpServers.memory`). Keys desktop clients add for themselves (`autoApprove`, `timeout`...) are
 * ignored; `type` is read to refuse transports this package does not speak.
 */
export function parseServerConfig(where: string, value: unknown): McpServerConfig {
  if (!isRecord(value)) {
    throw invalid(
      where,
      `must be an object with "command" (a server to start) or "url" (a server to reach), got ${describe(value)}`,
    );
  }
  const ptc = checkSettings(`${where}.ptc`, value.ptc);
  const type = value.type ?? value.transport;
  if (type === "sse") {
    throw invalid(
      where,
      'the SSE transport is not supported; use the server\'s Streamable HTTP endpoint ("url") or start it over stdio ("command")',
    );
  }
  if (value.url !== undefined) {
    if (value.command !== undefined) throw invalid(where, 'give either "command" or "url", not both');
    if (typeof value.url !== "string")
      throw invalid(`${where}.url`, `must be a string, got ${describe(value.url)}`);
    let url: URL;
    try {
      url = new URL(value.url);
    } catch {
      throw invalid(`${where}.url`, `is not a URL: ${describe(value.url)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw invalid(`${where}.url`, `must be an http:// or https:// URL, got ${describe(value.url)}`);
    }
    const headers = stringRecord(`${where}.headers`, value.headers);
    return {
      url: value.url,
      ...(headers === undefined ? {} : { headers }),
      ...(ptc === undefined ? {} : { ptc }),
    };
  }
  if (typeof value.command !== "string" || value.command.trim() === "") {
    throw invalid(
      where,
      `needs "command" (a non-empty string: the program to start) or "url"; got command ${describe(value.command)}`,
    );
  }
  const args = value.args;
  if (args !== undefined && (!Array.isArray(args) || args.some((item) => typeof item !== "string"))) {
    throw invalid(`${where}.args`, `must be an array of strings, got ${describe(args)}`);
  }
  const env = stringRecord(`${where}.env`, value.env);
  if (value.cwd !== undefined && typeof value.cwd !== "string") {
    throw invalid(`${where}.cwd`, `must be a string, got ${describe(value.cwd)}`);
  }
  return {
    command: value.command,
    ...(args === undefined ? {} : { args: args as string[] }),
    ...(env === undefined ? {} : { env }),
    ...(value.cwd === undefined ? {} : { cwd: value.cwd as string }),
    ...(ptc === undefined ? {} : { ptc }),
  };
}

/** Checks a server's name: it becomes part of tool names, so it must be a plain word. */
export function checkServerName(name: string, where = "server name"): void {
  if (!SERVER_NAME.test(name)) {
    throw invalid(
      where,
      `${describe(name)} must be 1 to 40 letters, digits, "_" or "-" (it becomes part of tool names: ${"<server>__<tool>"})`,
    );
  }
}

/**
 * Checks a whole `{"mcpServers": {...}}` document. Entries with `"disabled": true` are left out,
 * as desktop clients do.
 */
export function parseServersFile(value: unknown, where = "config"): Record<string, McpServerConfig> {
  if (!isRecord(value) || !isRecord(value.mcpServers)) {
    throw invalid(
      where,
      `must be a JSON object with an "mcpServers" object ({"mcpServers": {"name": {"command": ..., "args": [...]}}}), got ${isRecord(value) ? `keys ${Object.keys(value).join(", ") || "(none)"}` : describe(value)}`,
    );
  }
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(value.mcpServers)) {
    checkServerName(name, `${where}: mcpServers.${name}`);
    if (isRecord(entry) && entry.disabled === true) continue;
    servers[name] = parseServerConfig(`${where}: mcpServers.${name}`, entry);
  }
  return servers;
}
