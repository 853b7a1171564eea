/**
 * The one error class of @ptc/mcp. Two kinds of failure use it: a host's misuse (a config that
 * does not parse, a server that cannot start when the host asked for it alone), thrown at once;
 * and a tool call that an MCP server could not complete (the server's own error, a timeout, a
 * crash, garbage on its stdout), thrown from the tool's `execute` so that the program or the
 * model reads what happened. Hosts match on `code`, never on message text.
 */
import type { JsonValue } from "@ptc/tool";

/** Stable codes: match on these, never on message text. */
export type McpErrorCode =
  /** A server config (in code or in an `mcpServers` file) is malformed. */
  | "PTC_MCP_INVALID_CONFIG"
  /** An option of a function of this package is invalid. */
  | "PTC_MCP_INVALID_OPTION"
  /** The server could not be started or did not complete the MCP handshake. */
  | "PTC_MCP_UNAVAILABLE"
  /** The server answered a tool call with `isError: true`; the message is the server's text. */
  | "PTC_MCP_TOOL_ERROR"
  /** The server did not answer a tool call within its timeout (the call was cancelled). */
  | "PTC_MCP_TIMEOUT"
  /** The caller aborted the call (the call was cancelled on the server). */
  | "PTC_MCP_ABORTED"
  /** The server exited or the connection closed while the call was in flight. */
  | "PTC_MCP_CONNECTION_CLOSED"
  /** The server answered with a JSON-RPC error or a result that is not a tool result. */
  | "PTC_MCP_PROTOCOL_ERROR"
  /** The tool's result is larger than the configured cap. */
  | "PTC_MCP_RESULT_TOO_LARGE"
  /** The connection was closed by the host; the tool can no longer be called. */
  | "PTC_MCP_CLOSED";

export interface McpErrorOptions {
  readonly details?: Readonly<Record<string, JsonValue>>;
  readonly cause?: unknown;
}

export class PtcMcpError extends Error {
  override readonly name = "PtcMcpError";
  readonly code: McpErrorCode;
  readonly details: Readonly<Record<string, JsonValue>>;

  constructor(code: McpErrorCode, message: string, options: McpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }
}

export function isPtcMcpError(value: unknown): value is PtcMcpError {
  return value instanceof PtcMcpError;
}
