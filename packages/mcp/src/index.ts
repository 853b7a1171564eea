/**
 * @ptc/mcp: PTC-Lisp and the Model Context Protocol.
 *
 * - Client: any MCP server's tools as `@ptc/tool` tools, for `run()` of `@ptc/lisp` and for
 *   agents in every mode (`connectMcpServer`, `connectMcpServers`).
 * - Server: `ptc-mcp`, PTC-Lisp served over MCP, with tools from a module and from upstream MCP
 *   servers (`createPtcMcpServer`, `serveStdio`, `serveHttp`).
 */
export {
  type ConnectOptions,
  connectMcpServer,
  type McpConnection,
  type McpServerInfo,
} from "./client/connection.js";
export { isCacheable, type McpTool, type McpToolOrigin, type ToolAnnotations } from "./client/mcp-tool.js";
export { type ToolResultEnvelope, type UnwrappedResult, unwrapToolResult } from "./client/result-rule.js";
export {
  type HttpServerConfig,
  type McpServerConfig,
  type McpServerSettings,
  type McpServersFile,
  type McpToolSettings,
  parseServersFile,
  type StdioServerConfig,
} from "./client/server-config.js";
export {
  type ConnectServersOptions,
  connectMcpServers,
  type McpServerGroup,
} from "./client/server-group.js";
export { ptcToolName } from "./client/tool-names.js";
export { isPtcMcpError, type McpErrorCode, type McpErrorOptions, PtcMcpError } from "./errors.js";
export {
  type ClientConnection,
  createPtcMcpServer,
  type PtcMcpServer,
  type PtcMcpServerOptions,
} from "./server/create-server.js";
export type { SessionLimits } from "./server/lisp-sessions.js";
export { type HttpOptions, type HttpServing, serveHttp } from "./server/serve-http.js";
export { type StdioServing, serveStdio } from "./server/serve-stdio.js";
export type { ToolSet } from "./server/tool-set.js";
export { PACKAGE_VERSION } from "./version.js";
