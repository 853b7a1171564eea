/**
 * A Streamable HTTP server whose answer never ends (or is simply too large): the answer is cut at
 * `maxResultBytes` as it streams in and the call fails with `PTC_MCP_RESULT_TOO_LARGE`, as over
 * stdio, instead of being read into memory for as long as the server keeps sending.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { isPtcMcpError } from "../errors.js";
import { connectMcpServer } from "./connection.js";

const streams = new Set<ServerResponse>();
const hostile = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString();
  });
  request.on("end", () => {
    if (request.method !== "POST") {
      response.writeHead(request.method === "DELETE" ? 200 : 405).end();
      return;
    }
    const message = JSON.parse(body) as {
      id?: number;
      method: string;
      params?: { protocolVersion?: string };
    };
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const reply = (result: unknown) => {
      response.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    };
    if (message.method === "initialize") {
      reply({
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "endless", version: "1" },
      });
    } else if (message.method === "tools/list") {
      reply({ tools: [{ name: "endless", inputSchema: { type: "object" } }] });
    } else {
      // An answer that never ends: 64 KB more every few milliseconds, until the client hangs up.
      response.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
      response.write(`{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`);
      streams.add(response);
      const chunk = "x".repeat(64 * 1024);
      const timer = setInterval(() => {
        response.write(chunk);
      }, 2);
      response.on("close", () => {
        clearInterval(timer);
        streams.delete(response);
      });
    }
  });
});
await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/mcp`;

afterAll(async () => {
  for (const response of streams) response.destroy();
  hostile.closeAllConnections();
  await new Promise((resolve) => hostile.close(resolve));
});

describe("an HTTP answer over maxResultBytes", () => {
  it("is cut off as it streams in, and the call fails as too large", async () => {
    const connection = await connectMcpServer(
      "endless",
      { url },
      { settings: { maxResultBytes: 100_000, timeoutMs: 5000 } },
    );
    try {
      const error = await Promise.resolve(connection.tools.endless__endless?.execute({}, {})).catch(
        (caught: unknown) => caught,
      );
      expect(isPtcMcpError(error) && error.code).toBe("PTC_MCP_RESULT_TOO_LARGE");
      expect((error as Error).message).toContain('tool "endless" answered with more than');
    } finally {
      await connection.close();
    }
    // The client hung up on the stream, so the server stops sending (the test's timeout bounds
    // the wait; before, it went on until the call's timeout).
    while (streams.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  });
});
