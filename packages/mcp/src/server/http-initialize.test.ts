/**
 * An initialize request over HTTP that the SDK's transport refuses (a client that does not accept
 * its answers' media types) makes no MCP session, so nothing may stay behind for it: before, each
 * such request left a connected SDK server, a tool cache and its handlers in memory for good
 * (about 27 KB a request), which no idle sweep or DELETE could reach.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterAll, describe, expect, it } from "vitest";
import { type ClientConnection, createPtcMcpServer, type PtcMcpServer } from "./create-server.js";
import { serveHttp } from "./serve-http.js";

const inner = createPtcMcpServer();
const connections: ClientConnection[] = [];
/** The server, counting the connections the HTTP front makes. */
const server: PtcMcpServer = {
  get toolSet() {
    return inner.toolSet;
  },
  async connect(transport: Transport) {
    const connection = await inner.connect(transport);
    connections.push(connection);
    return connection;
  },
  close: () => inner.close(),
};
const serving = await serveHttp(server, { port: 0 });

afterAll(async () => {
  await serving.close();
  await server.close();
});

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

describe("an initialize request the transport refuses", () => {
  it("is answered with the transport's error and leaves no connection open", async () => {
    const response = await fetch(serving.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: initialize,
    });
    expect(response.status).toBe(406);
    await response.text();
    expect(connections).toHaveLength(1);
    expect(connections[0]?.server.transport).toBeUndefined();
  });

  it("leaves a session that did start alone", async () => {
    const response = await fetch(serving.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: initialize,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeTruthy();
    await response.text();
    expect(connections.at(-1)?.server.transport).toBeDefined();
  });
});
