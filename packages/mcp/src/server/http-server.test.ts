/**
 * `ptc-mcp` over Streamable HTTP with the SDK's own client: lisp_eval, combined mode (a native
 * preview, then a program answered from the same client's cache), sessions kept apart per HTTP
 * client, the bearer token, Host and Origin checks; and the command's `--http` flag.
 */
import { spawn } from "node:child_process";
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BuiltCli, buildCli, fixture } from "../__tests__/built-cli.js";
import { processGone } from "../__tests__/processes.js";
import { unframed } from "../__tests__/unframed.js";
import { loadToolModules } from "./cli/tool-modules.js";
import { createPtcMcpServer, type PtcMcpServer } from "./create-server.js";
import { type HttpServing, serveHttp } from "./serve-http.js";

// Starting servers and building the command can take a while on a loaded machine.
vi.setConfig({ hookTimeout: 60_000 });

const TOKEN = "test-token-0123456789abcdef0123456789";

let server: PtcMcpServer;
let serving: HttpServing;

beforeAll(async () => {
  const tools = await loadToolModules([fixture("tools.mjs")], process.cwd());
  server = createPtcMcpServer({ tools, sessions: true });
  serving = await serveHttp(server, { port: 0, token: TOKEN });
});
afterAll(async () => {
  await serving.close();
  await server.close();
});

async function connect(
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
): Promise<Client> {
  const client = new Client({ name: "http-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers } }));
  return client;
}

function payload(result: unknown): Record<string, unknown> {
  const content = (result as { content: { text: string }[] }).content;
  return unframed(JSON.parse(content[0]?.text ?? "null"));
}

/** A raw POST, for the checks a well-behaved client never trips. */
function rawPost(
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const url = new URL(serving.url);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

describe("ptc-mcp over Streamable HTTP", () => {
  it("lists and calls lisp_eval with the SDK client", async () => {
    const client = await connect();
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names[0]).toBe("lisp_eval");
      const result = await client.callTool({ name: "lisp_eval", arguments: { program: "(str (* 6 7))" } });
      expect(payload(result)).toMatchObject({ status: "ok", result: 'user=> "42"' });
    } finally {
      await client.close();
    }
  });

  it("answers a cached native call with a preview, and a program reads the full result from the same cache", async () => {
    const client = await connect();
    try {
      const before = payload(
        await client.callTool({ name: "lisp_eval", arguments: { program: "(tool/search_count {})" } }),
      );
      const native = await client.callTool({ name: "search_logs", arguments: { query: "disk" } });
      expect(payload(native)).toMatchObject({ status: "ok", result_count: 30, full_result_cached: true });
      expect(payload(native)).not.toHaveProperty("rows");
      const program = '(->> (tool/search_logs {:query "disk"}) (filter #(= (:level %) "error")) count)';
      expect(payload(await client.callTool({ name: "lisp_eval", arguments: { program } }))).toMatchObject({
        result: "user=> 10",
      });
      const after = payload(
        await client.callTool({ name: "lisp_eval", arguments: { program: "(tool/search_count {})" } }),
      );
      // One search ran for the native call; the program's call was answered from the cache.
      expect(Number(String(after.result).slice(7)) - Number(String(before.result).slice(7))).toBe(1);
      const invalid = await client.callTool({ name: "search_logs", arguments: { query: 3 } });
      expect(invalid.isError).toBe(true);
      expect(payload(invalid)).toMatchObject({ reason: "args_error" });
    } finally {
      await client.close();
    }
  });

  it("keeps each HTTP client's Lisp sessions to itself", async () => {
    const alice = await connect();
    const bob = await connect();
    try {
      const started = payload(await alice.callTool({ name: "lisp_session_start", arguments: {} }));
      const id = started.session_id as string;
      expect(
        payload(
          await alice.callTool({
            name: "lisp_session_eval",
            arguments: { session_id: id, program: "(def secret 1)" },
          }),
        ),
      ).toMatchObject({ status: "ok" });
      expect(
        payload(
          await bob.callTool({ name: "lisp_session_eval", arguments: { session_id: id, program: "secret" } }),
        ),
      ).toMatchObject({
        reason: "session_not_found",
      });
      expect(payload(await bob.callTool({ name: "lisp_session_list", arguments: {} }))).toMatchObject({
        count: 0,
      });
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  it("refuses requests without the token, with a wrong one, from another Host or from a foreign web page", async () => {
    expect((await rawPost({})).status).toBe(401);
    const wrong = await rawPost({ authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
    const url = new URL(serving.url);
    const rebound = await rawPost({ authorization: `Bearer ${TOKEN}`, host: `attacker.example:${url.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("Host");
    const foreign = await rawPost({ authorization: `Bearer ${TOKEN}`, origin: "http://attacker.example" });
    expect(foreign.status).toBe(403);
    const local = await rawPost({ authorization: `Bearer ${TOKEN}`, origin: "http://localhost:3000" });
    expect(local.status).toBe(200);
    await expect(connect({})).rejects.toThrow();
  });

  it("closes an MCP session its client left without DELETE, after the idle time", async () => {
    const idle = await serveHttp(server, { port: 0, sessionIdleMs: 300 });
    const transport = new StreamableHTTPClientTransport(new URL(idle.url));
    const client = new Client({ name: "leaves", version: "1.0.0" });
    try {
      await client.connect(transport);
      const id = transport.sessionId as string;
      const status = () =>
        fetch(idle.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-session-id": id,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
        }).then((response) => response.status);
      expect(await status()).toBe(200);
      // Each request counts as use: leave the session alone past its idle time, then look.
      await new Promise((resolve) => setTimeout(resolve, 400));
      while ((await status()) !== 404) await new Promise((resolve) => setTimeout(resolve, 400));
    } finally {
      await idle.close();
    }
  });

  it("refuses to listen off loopback without a token", async () => {
    await expect(serveHttp(server, { host: "0.0.0.0", port: 0 })).rejects.toThrow(/without a bearer token/);
  });
});

describe("the command with --http", () => {
  let cli: BuiltCli;
  beforeAll(async () => {
    cli = await buildCli();
  });
  afterAll(() => cli.cleanup());

  it("serves at the printed URL and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [cli.path, "--http", "127.0.0.1:0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /serving MCP over HTTP at (\S+)/.exec(stderr);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.once("exit", () => reject(new Error(`ptc-mcp exited: ${stderr}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "cli-http", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({ name: "lisp_eval", arguments: { program: "(count [1 2 3])" } });
    expect(payload(result)).toMatchObject({ result: "user=> 3" });
    await client.close();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(await processGone(child.pid as number)).toBe(true);
    expect(stdout).toBe("");
  });
});
