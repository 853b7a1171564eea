/**
 * A server's `inputSchema` patterns are matched against the arguments a program passes, on the
 * host's thread: they run on a linear-time engine, so a hostile server cannot hang the host with a
 * pattern that makes a backtracking engine take exponential time.
 */
import { run } from "@ptc/lisp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../__tests__/built-cli.js";
import { processGone } from "../__tests__/processes.js";
import { loadLinearRegExp } from "../linear-regexp.js";
import { connectMcpServer, type McpConnection } from "./connection.js";
import { schemaParameters } from "./schema-parameters.js";

function check(schema: unknown, value: unknown) {
  return schemaParameters(schema)["~standard"].validate(value);
}

describe("input schema patterns", () => {
  // schemaParameters is called directly here; a connection loads the engine before it calls it.
  beforeAll(loadLinearRegExp);

  // A backtracking engine takes about 2^40 steps for this text: that the test ends at all shows
  // the check is linear. (No wall time is asserted; the timeout is only a generous backstop.)
  it("checks a catastrophic pattern against a long text that does not match", { timeout: 60_000 }, () => {
    const text = `${"a".repeat(40)}!`;
    const schema = { type: "object", properties: { q: { type: "string", pattern: "^(a+)+$" } } };
    expect(check(schema, { q: text })).toEqual({
      issues: [{ path: ["q"], message: 'must match pattern "^(a+)+$"' }],
    });
    expect(check(schema, { q: "aaaa" })).toEqual({ value: { q: "aaaa" } });
    const keyed = { type: "object", patternProperties: { "^(a+)+$": { type: "integer" } } };
    expect(check(keyed, { [text]: "x" })).toEqual({ value: { [text]: "x" } });
    expect(check(keyed, { aaa: "x" })).toMatchObject({ issues: [{ path: ["aaa"] }] });
  });

  it("checks ordinary patterns as before", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", pattern: "^[a-z]+$" },
        phone: { type: "string", pattern: "\\d{3}" },
        word: { type: "string", pattern: "^\\p{L}+$" },
      },
    };
    expect(check(schema, { name: "ada", phone: "call 555-1234", word: "Zoë" })).toEqual({
      value: { name: "ada", phone: "call 555-1234", word: "Zoë" },
    });
    expect(check(schema, { name: "Ada", phone: "none", word: "Zoë1" })).toMatchObject({
      issues: [{ path: ["name"] }, { path: ["phone"] }, { path: ["word"] }],
    });
  });

  it("checks nothing but the shape for a pattern with lookahead, as for any schema that does not compile", () => {
    const schema = { type: "object", properties: { q: { type: "string", pattern: "^(?!admin)" } } };
    expect(check(schema, { q: "admin" })).toEqual({ value: { q: "admin" } });
    expect(check(schema, [1])).toEqual({
      issues: [{ message: "expected a map of named arguments, got list" }],
    });
  });
});

describe("input schema patterns of a connected server", () => {
  const opened: McpConnection[] = [];
  afterAll(async () => {
    const pids = opened.map((connection) => connection.pid);
    await Promise.all(opened.map((connection) => connection.close()));
    for (const pid of pids) if (pid !== undefined) await processGone(pid);
  });

  it("checks a program's arguments against a hostile pattern without hanging the host", {
    timeout: 60_000,
  }, async () => {
    const connection = await connectMcpServer("hostile", {
      command: process.execPath,
      args: [fixture("fake-server.mjs"), "redos"],
    });
    opened.push(connection);
    const refused = await run(`(tool/hostile__echo {:text "${"a".repeat(40)}!"})`, {
      tools: connection.tools,
    });
    expect(refused.ok ? refused.value : refused.error.message).toContain(
      'text: must match pattern "^(a+)+$"',
    );
    const fitting = await run('(tool/hostile__echo {:text "aaaa"})', { tools: connection.tools });
    expect(fitting.ok && fitting.value).toEqual({ tool: "echo", args: { text: "aaaa" } });
    // A lookahead pattern does not compile: the server judges the arguments (this one accepts them).
    const judged = await run('(tool/hostile__guarded {:user "admin"})', { tools: connection.tools });
    expect(judged.ok && judged.value).toEqual({ tool: "guarded", args: { user: "admin" } });
  });

  it("holds structured content to a hostile output schema without hanging the host", {
    timeout: 60_000,
  }, async () => {
    const connection = await connectMcpServer("typed", {
      command: process.execPath,
      args: [fixture("fake-server.mjs"), "redos"],
    });
    opened.push(connection);
    const refused = await Promise.resolve(connection.tools.typed__typed?.execute({}, {})).then(
      () => "no error",
      (error: unknown) => error as { code?: string; message?: string },
    );
    expect(refused).toMatchObject({
      code: "PTC_MCP_PROTOCOL_ERROR",
      message: expect.stringContaining("does not match the tool's output schema"),
    });
    // An output schema with a lookahead does not compile: the server is still listed, that tool's
    // structured content is not checked.
    expect(await connection.tools.typed__peeking?.execute({}, {})).toEqual({ v: `${"a".repeat(40)}!` });
  });
});
