/**
 * Every `lisp_eval` call with an `output_schema` compiles it, and Ajv keeps what it compiled (the
 * validate function, the schema, each distinct pattern) in its scope for as long as the Ajv lives.
 * The server's output schemas come from any client, so what stays must be bounded: a client that
 * sends thousands of schemas (or the same one thousands of times) must not grow the server's heap
 * for good. And the checks must say what they said before.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unframed } from "../__tests__/unframed.js";
import { createPtcMcpServer } from "./create-server.js";
import { outputSchemaStats } from "./output-schema.js";

const server = createPtcMcpServer();
let client: Client;

beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "schema-retention", version: "1.0.0" });
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

/** More validators than the server keeps compiled at once (256), three times over. */
const MANY = 800;

describe("output_schema retention", () => {
  it("keeps a bounded number of compiled schemas, however many distinct ones clients send", {
    timeout: 120_000,
  }, async () => {
    for (let i = 0; i < MANY; i++) {
      const schema = { type: "string", pattern: `^v${i}$|^ok` };
      expect(await evaluate('"ok"', schema)).toMatchObject({ status: "ok" });
      if (i % 100 === 0) {
        const failed = await evaluate('"no"', schema);
        expect(failed).toMatchObject({ status: "error", reason: "validation_error" });
        expect(String(failed.message)).toContain(`return: must match pattern "^v${i}$|^ok"`);
      }
    }
    expect(outputSchemaStats().retainedValidators).toBeLessThanOrEqual(256);
  });

  it("keeps one schema sent again and again compiled once", { timeout: 120_000 }, async () => {
    const schema = {
      type: "object",
      required: ["id"],
      properties: { id: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
    };
    for (let i = 0; i < MANY; i++) {
      expect(await evaluate(`{:id ${i} :tags ["a"]}`, schema)).toMatchObject({ status: "ok" });
    }
    const failed = await evaluate('{:id "x" :tags [1]}', schema);
    expect(failed).toMatchObject({ status: "error", reason: "validation_error" });
    expect(String(failed.message)).toContain("return.id: expected integer, got string");
    expect(String(failed.message)).toContain("return.tags.0: expected string, got integer");
    expect(outputSchemaStats().retainedValidators).toBeLessThanOrEqual(256);
  });

  it("still refuses a schema that does not compile, and a schema with an $id twice", async () => {
    const refused = await evaluate('"x"', { type: "string", pattern: "^(?=a)" });
    expect(refused).toMatchObject({ status: "error", reason: "args_error" });
    const named = { $id: "https://example.com/out.json", type: "integer" };
    for (let i = 0; i < 3; i++) expect(await evaluate("1", named)).toMatchObject({ status: "ok" });
    expect(await evaluate('"1"', named)).toMatchObject({ status: "error", reason: "validation_error" });
  });
});
