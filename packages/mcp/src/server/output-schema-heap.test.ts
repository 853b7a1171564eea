/**
 * A client that sends a different large `output_schema` on every `lisp_eval` call must not grow
 * the server's heap: what the server keeps compiled is bounded (output-schema-retention.test.ts),
 * and what V8 keeps of the code Ajv generated must be too (uncached-validator-code.ts). Measured
 * on Node 20 before that fix: 512 more distinct 64-property schemas kept about 38 MB (75 KB
 * each) after a full GC; after it, under 1 MB.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unframed } from "../__tests__/unframed.js";
import { COMPILATIONS_PER_AJV } from "../bounded-compiler.js";
import { createPtcMcpServer } from "./create-server.js";
import { outputSchemaStats } from "./output-schema.js";

// `gc` is not exposed to tests by default; this turns it on for this process.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const server = createPtcMcpServer();
let client: Client;

beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "schema-heap", version: "1.0.0" });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await server.close();
});

/** 64 integer properties whose names no other schema uses: Ajv writes about 30 KB of code for it. */
function distinctSchema(n: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let p = 0; p < 64; p++) properties[`s${n}_${p}`] = { type: "integer" };
  return { type: "object", properties };
}

let sent = 0;
async function sendDistinctSchemas(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const result = (await client.callTool({
      name: "lisp_eval",
      arguments: { program: `{:s${sent}_0 1}`, output_schema: distinctSchema(sent) },
    })) as { content: { text: string }[] };
    expect(unframed(JSON.parse(result.content[0]?.text ?? "null"))).toMatchObject({ status: "ok" });
    sent++;
  }
}

async function heapAfterGc(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return process.memoryUsage().heapUsed;
}

describe("output_schema heap", () => {
  it("keeps no memory for distinct large schemas beyond the validators it holds", {
    timeout: 300_000,
  }, async () => {
    // Both measurements are taken with the Ajv in use full (COMPILATIONS_PER_AJV validators), so
    // what the server holds on purpose is the same at both.
    await sendDistinctSchemas(COMPILATIONS_PER_AJV);
    const before = await heapAfterGc();
    const retained = outputSchemaStats().retainedValidators;
    await sendDistinctSchemas(2 * COMPILATIONS_PER_AJV);
    const growth = (await heapAfterGc()) - before;
    expect(outputSchemaStats().retainedValidators).toBe(retained);
    // Less than 20 KB a schema: kept code was 75 KB a schema.
    expect(growth).toBeLessThan(2 * COMPILATIONS_PER_AJV * 20 * 1024);
  });
});
