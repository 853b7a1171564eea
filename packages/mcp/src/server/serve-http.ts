/**
 * Serves clients over Streamable HTTP: the MCP endpoint at `path` (default `/mcp`), `GET /health`
 * for probes. Each client gets its own MCP session (and with it its own tool cache and Lisp
 * sessions); deleting the session closes them.
 *
 * Safe by default: it listens on 127.0.0.1; requests whose `Host` is not this server's loopback
 * name, or whose `Origin` is a web page not on the allow-list, are refused (DNS rebinding); with a
 * token, every request must carry `Authorization: Bearer <token>`. Listening on another address
 * requires a token.
 */
import { randomUUID, timingSafeEqual } from "node:crypto";
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { PtcMcpError } from "../errors.js";
import type { ClientConnection, PtcMcpServer } from "./create-server.js";

export interface HttpOptions {
  /** Address to listen on. Default "127.0.0.1". */
  readonly host?: string;
  /** Port; 0 picks a free one (read it from `url`). Default 7332. */
  readonly port?: number;
  /** The MCP endpoint's path. Default "/mcp". */
  readonly path?: string;
  /** Require `Authorization: Bearer <token>` on every request. Required off loopback. */
  readonly token?: string;
  /** Origins (`http://localhost:3000`) whose web pages may call the server. Default: loopback ones on a loopback address, none elsewhere. */
  readonly allowedOrigins?: readonly string[];
  /** `Host` header values accepted. Default: this server's loopback names on a loopback address, any elsewhere. */
  readonly allowedHosts?: readonly string[];
  /** Largest request body, in bytes. Default 8 MiB. */
  readonly maxBodyBytes?: number;
  /** An MCP session with no request for this long is closed (its Lisp sessions too). Default 30 minutes. */
  readonly sessionIdleMs?: number;
  /**
   * MCP sessions open at once; an initialize past it is refused (503) until a session closes or
   * goes idle. Each holds its client's tools and Lisp sessions (tens of kilobytes), so without a
   * bound a client that keeps initializing grows the server until it runs out of memory.
   * Default 1,000.
   */
  readonly maxSessions?: number;
}

export interface HttpServing {
  /** The MCP endpoint, e.g. `http://127.0.0.1:7332/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and closes every client's session. */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith("127.");
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(0, hostHeader.indexOf("]") + 1);
  const colon = hostHeader.lastIndexOf(":");
  return colon === -1 ? hostHeader : hostHeader.slice(0, colon);
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

function rpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(response, status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function readBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<{ ok: true; body: unknown } | { ok: false; status: number; message: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on("end", () => {
      if (tooLarge) {
        resolve({ ok: false, status: 413, message: `request body over ${maxBytes} bytes` });
        return;
      }
      try {
        resolve({ ok: true, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      } catch {
        resolve({ ok: false, status: 400, message: "Parse error: the body is not JSON" });
      }
    });
    request.on("error", () =>
      resolve({ ok: false, status: 400, message: "the request body could not be read" }),
    );
  });
}

export async function serveHttp(server: PtcMcpServer, options: HttpOptions = {}): Promise<HttpServing> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const loopback = isLoopback(host);
  if (!loopback && (options.token === undefined || options.token === "")) {
    throw new PtcMcpError(
      "PTC_MCP_INVALID_OPTION",
      `refusing to serve on ${host} without a bearer token: anyone who can reach it could run programs and call your tools; set a token (--token or PTC_MCP_TOKEN), or listen on 127.0.0.1`,
      { details: { option: "host" } },
    );
  }
  if (!path.startsWith("/") || path === "/health") {
    throw new PtcMcpError(
      "PTC_MCP_INVALID_OPTION",
      `path must start with "/" and not be /health, got ${JSON.stringify(path)}`,
      {
        details: { option: "path" },
      },
    );
  }
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; connection: ClientConnection; lastSeen: number }
  >();
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60 * 1000;
  const maxSessions = options.maxSessions ?? 1000;
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1) {
    throw new PtcMcpError(
      "PTC_MCP_INVALID_OPTION",
      `maxSessions must be a whole number of at least 1, got ${String(maxSessions)}`,
      { details: { option: "maxSessions" } },
    );
  }
  // Initializes under way: counted against maxSessions before their session exists.
  let opening = 0;
  const sweepIdle = () => {
    const now = Date.now();
    for (const [id, entry] of sessions) {
      if (now - entry.lastSeen <= sessionIdleMs) continue;
      sessions.delete(id);
      entry.connection.close().catch(() => undefined);
    }
  };
  // Clients that vanish without DELETE would otherwise keep their sessions for good.
  const sweeper = setInterval(sweepIdle, Math.min(sessionIdleMs, 60_000));
  sweeper.unref();
  let port = options.port ?? 7332;

  const hostAllowed = (header: string | undefined): boolean => {
    if (header === undefined) return false;
    if (options.allowedHosts !== undefined)
      return options.allowedHosts.includes(header) || options.allowedHosts.includes(hostnameOf(header));
    return !loopback || isLoopback(hostnameOf(header));
  };
  const originAllowed = (origin: string | undefined): boolean => {
    if (origin === undefined) return true; // Not a browser: DNS rebinding needs one.
    if (options.allowedOrigins !== undefined) return options.allowedOrigins.includes(origin);
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return false;
    }
    return (
      loopback && (parsed.protocol === "http:" || parsed.protocol === "https:") && isLoopback(parsed.hostname)
    );
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/health" && request.method === "GET") {
      sendJson(response, 200, { status: "ok" });
      return;
    }
    if (url.pathname !== path) {
      sendJson(response, 404, { error: `not found; the MCP endpoint is ${path}` });
      return;
    }
    if (!hostAllowed(request.headers.host)) {
      rpcError(
        response,
        403,
        -32000,
        `Forbidden: Host ${JSON.stringify(request.headers.host ?? "")} is not allowed`,
      );
      return;
    }
    if (!originAllowed(request.headers.origin)) {
      rpcError(
        response,
        403,
        -32000,
        `Forbidden: Origin ${JSON.stringify(request.headers.origin)} is not allowed`,
      );
      return;
    }
    if (options.token !== undefined && options.token !== "") {
      if (!tokenMatches(request.headers.authorization, options.token)) {
        const given = request.headers.authorization !== undefined;
        rpcError(
          response,
          401,
          -32000,
          given ? "Unauthorized: wrong bearer token" : "Unauthorized: send Authorization: Bearer <token>",
          {
            "www-authenticate": given ? 'Bearer error="invalid_token"' : "Bearer",
          },
        );
        return;
      }
    }
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const entry = sessions.get(sessionId);
      if (entry === undefined) {
        rpcError(response, 404, -32001, "Session not found: it ended or never existed; initialize a new one");
        return;
      }
      entry.lastSeen = Date.now();
      if (request.method === "POST") {
        const read = await readBody(request, maxBodyBytes);
        if (!read.ok) {
          rpcError(response, read.status, -32700, read.message);
          return;
        }
        await entry.transport.handleRequest(request, response, read.body);
      } else await entry.transport.handleRequest(request, response);
      return;
    }
    if (request.method !== "POST") {
      rpcError(
        response,
        400,
        -32000,
        "Bad Request: no Mcp-Session-Id; start with an initialize request (POST)",
      );
      return;
    }
    const read = await readBody(request, maxBodyBytes);
    if (!read.ok) {
      rpcError(response, read.status, -32700, read.message);
      return;
    }
    if (!isInitializeRequest(read.body)) {
      rpcError(response, 400, -32000, "Bad Request: no Mcp-Session-Id; start with an initialize request");
      return;
    }
    if (sessions.size + opening >= maxSessions) sweepIdle();
    if (sessions.size + opening >= maxSessions) {
      rpcError(
        response,
        503,
        -32000,
        `Service Unavailable: ${maxSessions} MCP sessions are open, the most this server keeps; close one (DELETE with its Mcp-Session-Id) or retry once one has been idle for ${Math.round(sessionIdleMs / 1000)} s`,
        { "retry-after": "60" },
      );
      return;
    }
    opening++;
    try {
      await openSession(request, response, read.body);
    } finally {
      opening--;
    }
  };

  const openSession = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    let connection: ClientConnection | undefined;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        if (connection !== undefined) sessions.set(id, { transport, connection, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    connection = await server.connect(transport);
    try {
      await transport.handleRequest(request, response, body);
    } finally {
      // The transport refused the request (say, a client that does not accept its media types):
      // no session was made, so no request can reach this connection again, nor any sweep.
      if (transport.sessionId === undefined) await connection.close();
    }
  };

  const httpServer: HttpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        rpcError(
          response,
          500,
          -32603,
          `Internal error: ${error instanceof Error ? error.message : String(error)}`,
        );
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", (error) => {
      clearInterval(sweeper);
      reject(error);
    });
    httpServer.listen(port, host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  port = (httpServer.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${path}`,
    port,
    async close() {
      clearInterval(sweeper);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((entry) => entry.connection.close().catch(() => undefined)));
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
