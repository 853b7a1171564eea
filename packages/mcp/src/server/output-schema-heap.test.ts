/**
 * A client that sends a different large `output_schema` on every `lisp_eval` call must not grow
 * the server's heap: what the server keeps compiled is bounded in count and in code
 * (bounded-compiler.ts), and what V8 keeps of the code Ajv generated must be too
 * (uncached-validator-code.ts). Measured on Node 20 before the eval-cache fix: 512 more distinct
 * 64-property schemas kept about 38 MB (75 KB each) after a full GC; after it, under 1 MB.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unframed } from "../__tests__/unframed.js";
import { CODE_CHARS_PER_AJV } from "../bounded-compiler.js";
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

/** `size` integer properties whose names no other schema uses. */
function distinctSchema(n: number, size: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let p = 0; p < size; p++) properties[`s${n}_${p}`] = { type: "integer" };
  return { type: "object", properties };
}

let sent = 0;
async function sendDistinctSchema(size: number): Promise<void> {
  const result = (await client.callTool({
    name: "lisp_eval",
    arguments: { program: `{:s${sent}_0 1}`, output_schema: distinctSchema(sent, size) },
  })) as { content: { text: string }[] };
  expect(unframed(JSON.parse(result.content[0]?.text ?? "null"))).toMatchObject({ status: "ok" });
  sent++;
}

/** Sends schemas until a fresh Ajv has compiled the last one (and checked it with the meta-schema). */
async function sendUntilFreshAjv(size: number): Promise<number> {
  const ajvs = outputSchemaStats().ajvsCreated;
  let count = 0;
  while (outputSchemaStats().ajvsCreated === ajvs) {
    await sendDistinctSchema(size);
    count++;
  }
  return count;
}

async function heapAfterGc(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return process.memoryUsage().heapUsed;
}

describe("output_schema heap", () => {
  it("keeps nothing of distinct large schemas beyond the validators it holds", {
    timeout: 300_000,
  }, async () => {
    // 64 properties: about 30,000 characters of code each, over V8's 16,383. Both measurements
    // are taken right after a fresh Ajv took over, so what the server holds on purpose is the same.
    await sendUntilFreshAjv(64);
    const before = await heapAfterGc();
    const held = outputSchemaStats().retainedValidators;
    const count = (await sendUntilFreshAjv(64)) + (await sendUntilFreshAjv(64));
    expect(count).toBeGreaterThan(200);
    expect(outputSchemaStats().retainedValidators).toBe(held);
    const growth = (await heapAfterGc()) - before;
    // Less than 20 KB a schema: V8's eval cache kept 75 KB a schema.
    expect(growth).toBeLessThan(count * 20 * 1024);
  });

  it("holds a bounded amount of code however large the schemas are", { timeout: 300_000 }, async () => {
    // 1,000 properties, about 31 KB of JSON (under the 32 KiB limit), 480,000 characters of code.
    const before = await heapAfterGc();
    const ajvs = outputSchemaStats().ajvsCreated;
    for (let i = 0; i < 40; i++) {
      await sendDistinctSchema(1000);
      expect(outputSchemaStats().generatedCodeChars).toBeLessThan(CODE_CHARS_PER_AJV + 600_000);
    }
    expect(outputSchemaStats().ajvsCreated).toBeGreaterThanOrEqual(ajvs + 4);
    const growth = (await heapAfterGc()) - before;
    // Counted by validators alone, all 40 were held: 1.3 MB each, 52 MB.
    expect(growth).toBeLessThan(26 * 1024 * 1024);
  });
});
