/**
 * The HTTP front keeps at most `maxSessions` MCP sessions open. Each holds its client's tools and
 * Lisp sessions (about 34 KB each, measured), so before, a client that kept initializing grew
 * the server until it ran out of memory. Past the cap an initialize is refused with 503 and a
 * message that says what to do; a closed or idle session frees its place.
 */
import { afterAll, describe, expect, it } from "vitest";
import { isPtcMcpError } from "../errors.js";
import { createPtcMcpServer } from "./create-server.js";
import { serveHttp } from "./serve-http.js";

const server = createPtcMcpServer({ sessions: true });
const servings: { close(): Promise<void> }[] = [];

afterAll(async () => {
  await Promise.all(servings.map((serving) => serving.close()));
  await server.close();
});

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

async function open(url: string): Promise<{ status: number; sessionId: string | null; body: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: initialize,
  });
  return {
    status: response.status,
    sessionId: response.headers.get("mcp-session-id"),
    body: await response.text(),
  };
}

describe("maxSessions", () => {
  it("refuses an initialize past the cap, and takes one again once a session is closed", async () => {
    const serving = await serveHttp(server, { port: 0, maxSessions: 3 });
    servings.push(serving);
    const opened = await Promise.all([open(serving.url), open(serving.url), open(serving.url)]);
    expect(opened.map((answer) => answer.status)).toEqual([200, 200, 200]);

    const refused = await Promise.all([open(serving.url), open(serving.url)]);
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.sessionId).toBeNull();
      expect(JSON.parse(answer.body).error.message).toMatch(
        /^Service Unavailable: 3 MCP sessions are open, the most this server keeps; close one \(DELETE/,
      );
    }

    const closed = await fetch(serving.url, {
      method: "DELETE",
      headers: { "mcp-session-id": opened[0]?.sessionId ?? "" },
    });
    expect(closed.status).toBe(200);
    expect((await open(serving.url)).status).toBe(200);
    expect((await open(serving.url)).status).toBe(503);
  });

  it("counts initializes still under way, so a burst cannot overshoot it", async () => {
    const serving = await serveHttp(server, { port: 0, maxSessions: 2 });
    servings.push(serving);
    const burst = await Promise.all(Array.from({ length: 10 }, () => open(serving.url)));
    expect(burst.filter((answer) => answer.status === 200)).toHaveLength(2);
    expect(burst.filter((answer) => answer.status === 503)).toHaveLength(8);
  });

  it("drops idle sessions to make room before it refuses", async () => {
    const serving = await serveHttp(server, { port: 0, maxSessions: 1, sessionIdleMs: 1 });
    servings.push(serving);
    expect((await open(serving.url)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await open(serving.url)).status).toBe(200);
  });

  it.each([0, -1, 1.5, Number.NaN])(
    "refuses maxSessions %s with a PtcMcpError naming the option",
    async (value) => {
      const error = await serveHttp(server, { port: 0, maxSessions: value }).catch(
        (caught: unknown) => caught,
      );
      expect(isPtcMcpError(error)).toBe(true);
      expect((error as Error).message).toMatch(/^maxSessions must be a whole number of at least 1/);
    },
  );
});
