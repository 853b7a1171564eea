/**
 * Whatever value a program returns, `output_schema` answers with a result or a `validation_error`
 * the client's model can act on, never a JSON-RPC internal error: a value nested deeper than JSON
 * encoders and the schema checker walk, and one with enormous shared structure, are refused with
 * `validated value: <reason>`, as the spec words a value that cannot be encoded.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unframed } from "../__tests__/unframed.js";
import { createPtcMcpServer } from "./create-server.js";
import { MAX_VALIDATED_DEPTH } from "./schema-value.js";

const server = createPtcMcpServer({ sessions: true });
let client: Client;

beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "schema-values", version: "1.0.0" });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await server.close();
});

async function evaluate(args: Record<string, unknown>, tool = "lisp_eval") {
  const result = (await client.callTool({ name: tool, arguments: args })) as { content: { text: string }[] };
  return unframed(JSON.parse(result.content[0]?.text ?? "null")) as Record<string, unknown>;
}

/** A vector nested `levels` deep: the innermost is empty. */
const nested = (levels: number) => `(reduce (fn [acc _] [acc]) [] (range ${levels - 1}))`;

const recursive = { $ref: "#/$defs/v", $defs: { v: { type: "array", items: { $ref: "#/$defs/v" } } } };

describe("output_schema over values no encoder can carry", () => {
  it.each([
    ["a plain schema", { type: "array" }],
    ["a recursive schema", recursive],
  ])("refuses a value nested 100,000 deep with a validation_error (%s)", async (_name, schema) => {
    const answer = await evaluate({ program: nested(100_000), output_schema: schema });
    expect(answer).toMatchObject({ status: "error", reason: "validation_error" });
    expect(answer.message).toBe(
      `validated value: it is nested more than ${MAX_VALIDATED_DEPTH.toLocaleString("en-US")} levels deep; return a flatter value`,
    );
  });

  it("checks a value exactly at the depth limit, and refuses one level more", async () => {
    const atLimit = await evaluate({ program: nested(MAX_VALIDATED_DEPTH), output_schema: recursive });
    expect(atLimit.status).toBe("ok");
    const over = await evaluate({ program: nested(MAX_VALIDATED_DEPTH + 1), output_schema: recursive });
    expect(over).toMatchObject({ status: "error", reason: "validation_error" });
  });

  it("refuses a value with enormous shared structure, without the host's advice in the message", async () => {
    // 2^40 leaves written out, a few dozen collections in memory.
    const answer = await evaluate({
      program: "(reduce (fn [acc _] [acc acc]) [] (range 40))",
      output_schema: { type: "array" },
    });
    expect(answer).toMatchObject({ status: "error", reason: "validation_error" });
    expect(answer.message).toMatch(/^validated value: it is too large written out as JSON/);
    expect(answer.message).not.toMatch(/maxNodes/);
  });

  it("answers the same in a session, which keeps its defs as after any schema mismatch", async () => {
    const opened = (await client.callTool({ name: "lisp_session_start", arguments: {} })) as {
      content: { text: string }[];
    };
    const sessionId = (unframed(JSON.parse(opened.content[0]?.text ?? "null")) as { session_id: string })
      .session_id;
    const answer = await evaluate(
      { session_id: sessionId, program: `(def deep ${nested(5000)}) deep`, output_schema: { type: "array" } },
      "lisp_session_eval",
    );
    expect(answer).toMatchObject({ status: "error", reason: "validation_error" });
    const after = await evaluate({ session_id: sessionId, program: "(count deep)" }, "lisp_session_eval");
    expect(after).toMatchObject({ status: "ok" });
  });
});
