/**
 * RE2 (re2js) is loaded by the server only once a client sends an `output_schema` with a pattern
 * (a cold start without it is quicker), and from then on such a pattern is matched by RE2: a
 * catastrophic one checks a long text that does not match in linear time. Its own file, so that
 * nothing else in the process has loaded the engine first.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unframed } from "../__tests__/unframed.js";
import { linearRegExpLoaded } from "../linear-regexp.js";
import { createPtcMcpServer } from "./create-server.js";

const server = createPtcMcpServer();
let client: Client;

beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "lazy-engine", version: "1.0.0" });
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

describe("the linear-time engine on the server", () => {
  it("is loaded by the first output_schema with a pattern, and matches it in linear time", {
    timeout: 60_000,
  }, async () => {
    expect(linearRegExpLoaded()).toBe(false);
    expect(await evaluate('"x"', { type: "string", minLength: 1 })).toMatchObject({ status: "ok" });
    expect(linearRegExpLoaded()).toBe(false);

    // A backtracking engine takes about 2^40 steps for this text: that the test ends at all shows
    // the check is linear. (No wall time is asserted; the timeout is only a generous backstop.)
    const text = `${"a".repeat(40)}!`;
    const failed = await evaluate(`{:v "${text}"}`, {
      type: "object",
      properties: { v: { type: "string", pattern: "^(a+)+$" } },
    });
    expect(linearRegExpLoaded()).toBe(true);
    expect(failed).toMatchObject({ status: "error", reason: "validation_error" });
    expect(String(failed.message)).toContain('return.v: must match pattern "^(a+)+$"');
  });
});
