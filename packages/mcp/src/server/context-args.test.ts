/**
 * `lisp_eval`'s `context` that cannot be measured as JSON (nested deeper than the JSON writer
 * goes) is refused for what it is, not reported as "Infinity bytes, over the limit".
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, describe, expect, it } from "vitest";
import { unframed } from "../__tests__/unframed.js";
import { createPtcMcpServer } from "./create-server.js";

const server = createPtcMcpServer();
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: "context-args", version: "1.0.0" });
await client.connect(clientSide);

afterAll(async () => {
  await client.close();
  await server.close();
});

describe("a context nested too deeply to measure", () => {
  it("is an args_error that says so", async () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    const result = (await client.callTool({
      name: "lisp_eval",
      arguments: { program: "1", context: { deep } },
    })) as { content: { text: string }[] };
    const payload = unframed(JSON.parse(result.content[0]?.text ?? "null"));
    expect(payload).toMatchObject({ status: "error", reason: "args_error" });
    expect(payload.message).toContain("nested too deeply");
    expect(payload.message).not.toContain("Infinity");
  });
});
