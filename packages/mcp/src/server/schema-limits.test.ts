/**
 * An `output_schema` is compiled on the server's one thread before the program runs, so its size
 * is bounded: a schema of thousands of properties or patterns (well under the request cap) held
 * every client for seconds. Over the limits it is an `args_error` that says which limit and what
 * to send instead; within them, schemas check values as before.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unframed } from "../__tests__/unframed.js";
import { createPtcMcpServer } from "./create-server.js";
import { MAX_OUTPUT_SCHEMA_BYTES, MAX_OUTPUT_SCHEMA_PATTERNS } from "./schema-limits.js";

const server = createPtcMcpServer();
let client: Client;

beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "schema-limits", version: "1.0.0" });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await server.close();
});

async function evaluate(args: Record<string, unknown>) {
  const result = (await client.callTool({ name: "lisp_eval", arguments: args })) as {
    content: { text: string }[];
  };
  return unframed(JSON.parse(result.content[0]?.text ?? "null")) as Record<string, unknown>;
}

const withProperties = (count: number, property: (i: number) => Record<string, unknown>) => ({
  type: "object",
  properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, property(i)])),
});

describe("output_schema limits", () => {
  it("refuses a schema over the byte limit before compiling it", async () => {
    const schema = withProperties(5000, () => ({ type: "string" }));
    const answer = await evaluate({ program: "{}", output_schema: schema });
    expect(answer).toMatchObject({ status: "error", reason: "args_error" });
    expect(answer.message).toMatch(
      new RegExp(
        `^lisp_eval \`output_schema\` is too large: it is \\d+ bytes of JSON, over the limit of ${MAX_OUTPUT_SCHEMA_BYTES}`,
      ),
    );
  });

  it("refuses a schema with more patterns than the limit, counting patternProperties keys", async () => {
    const patterns = withProperties(MAX_OUTPUT_SCHEMA_PATTERNS, (i) => ({
      type: "string",
      pattern: `^a${i}`,
    }));
    const answer = await evaluate({
      program: "{}",
      output_schema: { ...patterns, patternProperties: { "^x": { type: "integer" } } },
    });
    expect(answer).toMatchObject({ status: "error", reason: "args_error" });
    expect(answer.message).toBe(
      `lisp_eval \`output_schema\` is too large: it has ${MAX_OUTPUT_SCHEMA_PATTERNS + 1} patterns, over the limit of ${MAX_OUTPUT_SCHEMA_PATTERNS}; check fewer strings by pattern`,
    );
  });

  it("checks values against a schema at the pattern limit as before", async () => {
    const schema = withProperties(MAX_OUTPUT_SCHEMA_PATTERNS, (i) => ({
      type: "string",
      pattern: `^a${i}$`,
    }));
    expect(await evaluate({ program: '{:p0 "a0" :p63 "a63"}', output_schema: schema })).toMatchObject({
      status: "ok",
      validated: { p0: "a0", p63: "a63" },
    });
    const mismatch = await evaluate({ program: '{:p1 "b"}', output_schema: schema });
    expect(mismatch).toMatchObject({ status: "error", reason: "validation_error" });
  });
});
