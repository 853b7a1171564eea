/**
 * RE2 (re2js) is loaded by a host only once a server lists a schema with a pattern (a cold start
 * without one is quicker), and from then on the server's patterns are matched by RE2, in its input
 * schemas and in its output schemas (which the SDK compiled while it read the list, before the
 * engine was loaded). Its own file, so that nothing else in the process has loaded the engine.
 */
import { run } from "@ptc/lisp";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../__tests__/built-cli.js";
import { processGone } from "../__tests__/processes.js";
import { linearRegExpLoaded } from "../linear-regexp.js";
import { connectMcpServer, type McpConnection } from "./connection.js";

const opened: McpConnection[] = [];
afterAll(async () => {
  const pids = opened.map((connection) => connection.pid);
  await Promise.all(opened.map((connection) => connection.close()));
  for (const pid of pids) if (pid !== undefined) await processGone(pid);
});

async function open(name: string, mode: string): Promise<McpConnection> {
  const connection = await connectMcpServer(name, {
    command: process.execPath,
    args: [fixture("fake-server.mjs"), mode],
  });
  opened.push(connection);
  return connection;
}

describe("the linear-time engine in a host", () => {
  it("is loaded by the first listing with a pattern, and matches patterns in linear time", {
    timeout: 60_000,
  }, async () => {
    const plain = await open("plain", "well");
    const echoed = await run('(tool/plain__echo {:text "hi"})', { tools: plain.tools });
    expect(echoed.ok && echoed.value).toEqual({ tool: "echo", args: { text: "hi" } });
    expect(linearRegExpLoaded()).toBe(false);

    // A backtracking engine takes about 2^40 steps for this text: that the test ends at all shows
    // the check is linear. (No wall time is asserted; the timeout is only a generous backstop.)
    const hostile = await open("hostile", "redos");
    expect(linearRegExpLoaded()).toBe(true);
    const refused = await run(`(tool/hostile__echo {:text "${"a".repeat(40)}!"})`, { tools: hostile.tools });
    expect(refused.ok ? refused.value : refused.error.message).toContain(
      'text: must match pattern "^(a+)+$"',
    );
    const typed = await Promise.resolve(hostile.tools.hostile__typed?.execute({}, {})).then(
      () => "no error",
      (error: unknown) => error as { code?: string; message?: string },
    );
    expect(typed).toMatchObject({
      code: "PTC_MCP_PROTOCOL_ERROR",
      message: expect.stringContaining("does not match the tool's output schema"),
    });
    // A lookahead still does not compile: that tool's structured content is not checked.
    expect(await hostile.tools.hostile__peeking?.execute({}, {})).toEqual({ v: `${"a".repeat(40)}!` });
  });
});
