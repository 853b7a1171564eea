/**
 * An MCP tool's `inputSchema` that names itself with an `$id` (as schemas made by generators
 * often do) checks the tool's arguments for as long as the tool exists: after its server's list
 * is read again, and when another server lists a tool with the same schema.
 */
import { run } from "@ptc/lisp";
import { afterAll, describe, expect, it, vi } from "vitest";
import { fixture } from "../__tests__/built-cli.js";
import { processGone } from "../__tests__/processes.js";
import { connectMcpServer, type McpConnection } from "./connection.js";

vi.setConfig({ hookTimeout: 60_000 });

const opened: McpConnection[] = [];
async function open(name: string): Promise<McpConnection> {
  const connection = await connectMcpServer(name, {
    command: process.execPath,
    args: [fixture("fake-server.mjs"), "ids"],
  });
  opened.push(connection);
  return connection;
}

afterAll(async () => {
  const pids = opened.map((connection) => connection.pid);
  await Promise.all(opened.map((connection) => connection.close()));
  for (const pid of pids) if (pid !== undefined) await processGone(pid);
});

async function badCall(connection: McpConnection, tool: string) {
  const result = await run(`(tool/${tool} {:text 5})`, { tools: connection.tools });
  return result.ok ? { ok: true, value: result.value } : { ok: false, message: result.error.message };
}

describe("an input schema with an $id", () => {
  it("keeps checking arguments after the tool list is read again", async () => {
    const connection = await open("first");
    expect(await badCall(connection, "first__echo")).toMatchObject({
      ok: false,
      message: expect.stringContaining("text: expected string, got int"),
    });
    await connection.refreshTools();
    expect(await badCall(connection, "first__echo")).toMatchObject({
      ok: false,
      message: expect.stringContaining("text: expected string, got int"),
    });
  });

  it("checks the arguments of another server's tool that has the same schema", async () => {
    const connection = await open("second");
    expect(await badCall(connection, "second__echo")).toMatchObject({
      ok: false,
      message: expect.stringContaining("text: expected string, got int"),
    });
    const fitting = await run('(tool/second__echo {:text "hi"})', { tools: connection.tools });
    expect(fitting.ok && fitting.value).toEqual({ tool: "echo", args: { text: "hi" } });
  });
});
