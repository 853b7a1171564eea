/**
 * What a stdio client sends that is not a message the server can take: a line too long to be a
 * message is dropped and answered with a parse error, and the server goes on serving the client.
 * (The SDK's transport closed on a line over its 10 MiB buffer, which ended `ptc-mcp` without a
 * word; a context of that size is an `args_error` when it comes over HTTP.)
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createPtcMcpServer } from "./create-server.js";
import { MAX_STDIO_FRAME_BYTES, serveStdio } from "./serve-stdio.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function served() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  let partial = "";
  stdout.on("data", (chunk: Buffer) => {
    const parts = (partial + chunk.toString("utf8")).split("\n");
    partial = parts.pop() ?? "";
    for (const part of parts) lines.push(JSON.parse(part) as Record<string, unknown>);
  });
  const server = createPtcMcpServer();
  const serving = await serveStdio(server, { stdin, stdout });
  let closed = false;
  serving.closed.then(() => {
    closed = true;
  });
  cleanups.push(async () => {
    stdin.end();
    await serving.closed;
    await server.close();
  });
  const send = (text: string) => stdin.write(`${text}\n`);
  const answer = async (id: unknown) => {
    for (;;) {
      const found = lines.find((line) => line.id === id && ("result" in line || "error" in line));
      if (found !== undefined) return found;
      if (closed) throw new Error(`the server closed before answering ${String(id)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  );
  await answer(1);
  send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return { send, answer, lines, isClosed: () => closed };
}

const evalCall = (id: number, program: string, context: Record<string, unknown> = {}) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "lisp_eval", arguments: { program, context } },
  });

describe("a stdio line over the frame cap", () => {
  it("is dropped and answered with a parse error, and the next call is served", async () => {
    const client = await served();
    client.send(evalCall(2, "(count data/big)", { big: "x".repeat(2 * MAX_STDIO_FRAME_BYTES) }));
    client.send(evalCall(3, "(+ 1 2)"));
    const next = (await client.answer(3)) as { result: { content: { text: string }[] } };
    expect(next.result.content[0]?.text).toContain("user=> 3");
    expect(client.lines).toContainEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: expect.stringContaining(`over ${MAX_STDIO_FRAME_BYTES} bytes`) },
    });
    expect(client.isClosed()).toBe(false);
  });

  it("passes a line under the cap whole, however the pipe cuts it", async () => {
    const client = await served();
    client.send(evalCall(2, "(count data/big)", { big: "y".repeat(3 * 1024 * 1024) }));
    const answer = (await client.answer(2)) as { result: { content: { text: string }[] } };
    expect(answer.result.content[0]?.text).toContain(`user=> ${3 * 1024 * 1024}`);
  });
});

describe("a stdio line that is not a message", () => {
  it("is answered with a parse error or an invalid request (id null), and the next call is served", async () => {
    const client = await served();
    client.send("{not json");
    client.send('[{"jsonrpc":"2.0","id":9,"method":"ping"}]');
    client.send('{"hello":"world"}');
    client.send("   ");
    client.send(evalCall(2, "(+ 1 2)"));
    await client.answer(2);
    const errors = client.lines.filter((line) => line.id === null);
    expect(errors.map((line) => (line.error as { code: number }).code)).toEqual([-32700, -32600, -32600]);
    expect(client.isClosed()).toBe(false);
  });
});
