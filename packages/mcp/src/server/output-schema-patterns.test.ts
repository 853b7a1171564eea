/**
 * `output_schema` patterns come from any client and are matched on the server's one thread, so
 * they run on a linear-time engine: a pattern that makes a backtracking engine take exponential
 * time is checked as fast as any other, and a pattern only backtracking can run is refused up
 * front with `args_error`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unframed } from "../__tests__/unframed.js";
import { createPtcMcpServer } from "./create-server.js";

const server = createPtcMcpServer();
let client: Client;

beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "schema-patterns", version: "1.0.0" });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await server.close();
});

async function evaluate(program: string, outputSchema: Record<string, unknown>) {
  const result = (await client.callTool({
    name: "lisp_eval",
    arguments: { program, output_schema: outputSchema },
  })) as { content: { text: string }[] };
  return unframed(JSON.parse(result.content[0]?.text ?? "null")) as Record<string, unknown>;
}

describe("output_schema patterns", () => {
  // A backtracking engine takes about 2^40 steps for this text: that the test ends at all shows
  // the check is linear. (No wall time is asserted; the timeout is only a generous backstop.)
  it("checks a catastrophic pattern against a long text that does not match", {
    timeout: 60_000,
  }, async () => {
    const text = `${"a".repeat(40)}!`;
    const failed = await evaluate(`"${text}"`, { type: "string", pattern: "^(a+)+$" });
    expect(failed).toMatchObject({ status: "error", reason: "validation_error" });
    expect(String(failed.message)).toContain('must match pattern "^(a+)+$"');
    expect(
      await evaluate(`{"${text}" 1}`, {
        type: "object",
        patternProperties: { "^(a+)+$": { type: "string" } },
      }),
    ).toMatchObject({ status: "ok" });
    expect(
      await evaluate(`{"${text}" 1}`, {
        type: "object",
        propertyNames: { pattern: "^(a+)+$" },
      }),
    ).toMatchObject({ status: "error", reason: "validation_error" });
    expect(await evaluate(`"${"a".repeat(40)}"`, { type: "string", pattern: "^(a+)+$" })).toMatchObject({
      status: "ok",
    });
  });

  it("checks ordinary patterns as before: anywhere in the text unless anchored, Unicode classes too", async () => {
    expect(await evaluate('"hello"', { pattern: "^[a-z]+$" })).toMatchObject({ status: "ok" });
    expect(await evaluate('"Hello"', { pattern: "^[a-z]+$" })).toMatchObject({ reason: "validation_error" });
    expect(await evaluate('"call 555-1234"', { pattern: "\\d{3}" })).toMatchObject({ status: "ok" });
    expect(await evaluate('"no digits"', { pattern: "\\d{3}" })).toMatchObject({
      reason: "validation_error",
    });
    expect(await evaluate('"Zoë"', { pattern: "^\\p{L}+$" })).toMatchObject({ status: "ok" });
    expect(await evaluate('"Zoë1"', { pattern: "^\\p{L}+$" })).toMatchObject({ reason: "validation_error" });
    expect(await evaluate('"😀"', { pattern: "^.$" })).toMatchObject({ status: "ok" });
    expect(await evaluate('"é"', { pattern: "^\\u00e9$" })).toMatchObject({ status: "ok" });
    expect(
      await evaluate('{"id-1" 1 "name" 2}', {
        type: "object",
        patternProperties: { "^id-\\d+$": { type: "string" } },
      }),
    ).toMatchObject({ reason: "validation_error" });
  });

  it("refuses a pattern with lookahead or a backreference, saying which and what to write instead", async () => {
    for (const pattern of ["^(?!admin).*$", "(a)\\1", "(?<=x)y"]) {
      const refused = await evaluate('"x"', { type: "string", pattern });
      expect(refused).toMatchObject({ status: "error", reason: "args_error" });
      expect(refused.message).toContain(JSON.stringify(pattern));
      expect(refused.message).toContain("lookahead, lookbehind or backreferences");
      expect(refused.message).toContain('"not": {"pattern": ...}');
    }
  });
});
