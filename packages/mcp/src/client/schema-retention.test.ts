/**
 * A server may list its tools again after every `list_changed`, with new schemas each time. The
 * host compiles every input schema (to check a program's arguments) and every output schema (to
 * check structured content, in the validator the SDK's Client is given); Ajv keeps what it
 * compiled for as long as it lives, so what stays must be bounded however often a server
 * re-lists, and the checks must say what they said before.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation/types.js";
import { run } from "@ptc/lisp";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../__tests__/built-cli.js";
import { processGone } from "../__tests__/processes.js";
import { connectMcpServer, type McpConnection } from "./connection.js";
import { createOutputValidator } from "./output-validator.js";
import { inputSchemaStats } from "./schema-parameters.js";

const opened: McpConnection[] = [];
afterAll(async () => {
  const pids = opened.map((connection) => connection.pid);
  await Promise.all(opened.map((connection) => connection.close()));
  for (const pid of pids) if (pid !== undefined) await processGone(pid);
});

describe("schemas of a server that re-lists its tools", () => {
  it("keeps a bounded number of compiled input schemas, and checks as before", {
    timeout: 120_000,
  }, async () => {
    const connection = await connectMcpServer("shifty", {
      command: process.execPath,
      args: [fixture("fake-server.mjs"), "reshaping"],
    });
    opened.push(connection);
    // Listing 1 was the connect; each refresh is one more, with new patterns.
    for (let listing = 2; listing <= 300; listing++) await connection.refreshTools();
    expect(inputSchemaStats().retainedValidators).toBeLessThanOrEqual(256);

    const tools = connection.tools;
    const fits = await run('(tool/shifty__echo {:text "v300"})', { tools });
    expect(fits.ok && fits.value).toEqual({ tool: "echo", args: { text: "v300" } });
    const stale = await run('(tool/shifty__echo {:text "v299"})', { tools });
    expect(stale.ok ? stale.value : stale.error.message).toContain(
      'text: must match pattern "^[a-z]+$|^v300$"',
    );
    // The output schema of the last listing holds, matched in linear time (40 `a`s and a `!`).
    const typed = await Promise.resolve(tools.shifty__typed?.execute({}, {})).then(
      () => "no error",
      (error: unknown) => error as { code?: string; message?: string },
    );
    expect(typed).toMatchObject({
      code: "PTC_MCP_PROTOCOL_ERROR",
      message: expect.stringContaining("does not match the tool's output schema"),
    });
  });

  it("keeps a bounded number of compiled output schemas in the SDK's validator", () => {
    const validator = createOutputValidator();
    for (let i = 0; i < 800; i++) {
      const check = validator.getValidator({
        type: "object",
        properties: { v: { type: "string", pattern: `^v${i}$` } },
      } as JsonSchemaType);
      expect(check({ v: `v${i}` }).valid).toBe(true);
    }
    expect(validator.stats().retainedValidators).toBeLessThanOrEqual(256);
  });

  it("gives the same answers as the SDK's own validator", () => {
    const schemas = [
      { type: "object", required: ["n"], properties: { n: { type: "integer", minimum: 2 } } },
      { type: "object", properties: { when: { type: "string", format: "date-time" } } },
      { type: "object", properties: { id: { type: "string", pattern: "^[a-z]{2}\\d+$" } } },
      { $id: "https://example.com/typed.json", type: "object", additionalProperties: false },
    ] as JsonSchemaType[];
    const inputs = [
      {},
      { n: 1 },
      { n: 3 },
      { when: "yesterday" },
      { when: "2024-01-01T00:00:00Z" },
      { id: "ab12" },
      { id: "AB" },
      { x: 1 },
    ];
    const ours = createOutputValidator();
    for (let round = 0; round < 300; round++) {
      for (const schema of schemas) {
        const sdk = new AjvJsonSchemaValidator().getValidator(schema);
        const mine = ours.getValidator(schema);
        for (const input of inputs) expect(mine(input)).toEqual(sdk(input));
      }
    }
  });
});
