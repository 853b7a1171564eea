/**
 * The client over Streamable HTTP: `ptc-mcp` itself, served on 127.0.0.1 with a token, is the
 * upstream; its lisp_eval becomes a PTC tool reached with the configured headers.
 */
import { run } from "@ptc/lisp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { unframed } from "../__tests__/unframed.js";
import { isPtcMcpError } from "../errors.js";
import { createPtcMcpServer, type PtcMcpServer } from "../server/create-server.js";
import { type HttpServing, serveHttp } from "../server/serve-http.js";
import { connectMcpServer } from "./connection.js";

// Starting servers and building the command can take a while on a loaded machine.
vi.setConfig({ hookTimeout: 60_000 });

const TOKEN = "http-client-token-0123456789abcdef0123";
let server: PtcMcpServer;
let serving: HttpServing;

beforeAll(async () => {
  server = createPtcMcpServer({
    tools: { double: { execute: ({ n }: { n: number }) => n * 2, signature: "(n :int) -> :int" } },
  });
  serving = await serveHttp(server, { port: 0, token: TOKEN });
});
afterAll(async () => {
  await serving.close();
  await server.close();
});

describe("an MCP server over Streamable HTTP", () => {
  it("lists its tools and calls them with the configured headers", async () => {
    const upstream = await connectMcpServer("inner", {
      url: serving.url,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    try {
      expect(Object.keys(upstream.tools)).toEqual(["inner__lisp_eval"]);
      expect(upstream.pid).toBeUndefined();
      const result = await run('(:status (tool/inner__lisp_eval {:program "(tool/double {:n 21})"}))', {
        tools: upstream.tools,
        limits: { timeoutMs: 10_000 },
      });
      expect(result.ok && result.value).toBe("ok");
      // The inner server's answer is JSON text, so the program reads it as data.
      const full = await upstream.tools.inner__lisp_eval?.execute({ program: "(tool/double {:n 21})" }, {});
      expect(unframed(full)).toMatchObject({ status: "ok", result: "user=> 42" });
      // A failed inner program is an isError result: a tool error with the server's text.
      const failed = await Promise.resolve(
        upstream.tools.inner__lisp_eval?.execute({ program: "(fail 1)" }, {}),
      ).catch((error: unknown) => error);
      expect(isPtcMcpError(failed) && failed.code).toBe("PTC_MCP_TOOL_ERROR");
      expect((failed as Error).message).toContain('"reason":"fail"');
    } finally {
      await upstream.close();
    }
  });

  it("reports a server it cannot reach, or that refuses its token, as unavailable", async () => {
    const refused = await Promise.resolve(connectMcpServer("inner", { url: serving.url })).catch(
      (error: unknown) => error,
    );
    expect(isPtcMcpError(refused) && refused.code).toBe("PTC_MCP_UNAVAILABLE");
    expect((refused as Error).message).toContain(`could not start the MCP server (${serving.url})`);
    const closed = await Promise.resolve(connectMcpServer("gone", { url: "http://127.0.0.1:9/mcp" })).catch(
      (error: unknown) => error,
    );
    expect(isPtcMcpError(closed) && closed.code).toBe("PTC_MCP_UNAVAILABLE");
  });
});
