/**
 * `output_schema` is one call's business: a schema that names itself with `$id` (as schemas made
 * by generators often do) checks the value of that call and leaves nothing behind for the next
 * call, the next client or the next session to trip over.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, describe, expect, it } from "vitest";
import { unframed } from "../__tests__/unframed.js";
import { createPtcMcpServer } from "./create-server.js";

const server = createPtcMcpServer({ sessions: true });
const clients: Client[] = [];

async function newClient(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "schema-isolation", version: "1.0.0" });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.close();
});

async function evaluate(client: Client, args: Record<string, unknown>, tool = "lisp_eval") {
  const result = (await client.callTool({ name: tool, arguments: args })) as { content: { text: string }[] };
  return unframed(JSON.parse(result.content[0]?.text ?? "null"));
}

const answerSchema = { $id: "https://example.com/schemas/answer.json", type: "integer" };

describe("an output_schema with an $id", () => {
  it("checks every call that sends it, from one client and from another", async () => {
    const first = await newClient();
    const second = await newClient();
    for (const client of [first, first, second]) {
      expect(await evaluate(client, { program: "(+ 1 2)", output_schema: answerSchema })).toMatchObject({
        status: "ok",
        validated: 3,
      });
    }
    expect(await evaluate(second, { program: '"three"', output_schema: answerSchema })).toMatchObject({
      status: "error",
      reason: "validation_error",
    });
  });

  it("is a different schema when another call gives the same $id another shape", async () => {
    const client = await newClient();
    const session = JSON.parse(
      (
        (await client.callTool({ name: "lisp_session_start", arguments: {} })) as {
          content: { text: string }[];
        }
      ).content[0]?.text ?? "{}",
    ) as { session_id: string };
    const asString = { $id: answerSchema.$id, type: "string" };
    expect(
      await evaluate(
        client,
        { session_id: session.session_id, program: '"three"', output_schema: asString },
        "lisp_session_eval",
      ),
    ).toMatchObject({ status: "ok", validated: "three" });
    expect(await evaluate(client, { program: "3", output_schema: asString })).toMatchObject({
      status: "error",
      reason: "validation_error",
    });
  });

  it("still resolves a $ref to the schema's own $id, call after call", async () => {
    const client = await newClient();
    const tree = {
      $id: "https://example.com/schemas/tree.json",
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "tree.json" } } },
    };
    const program = '{:name "root" :children [{:name "leaf"}]}';
    for (let round = 0; round < 2; round++) {
      expect(await evaluate(client, { program, output_schema: tree })).toMatchObject({ status: "ok" });
      expect(
        await evaluate(client, { program: '{:name "root" :children [{:size 1}]}', output_schema: tree }),
      ).toMatchObject({ status: "error", reason: "validation_error" });
    }
  });

  it("cannot take the meta-schema's name from the calls that follow", async () => {
    const client = await newClient();
    const squatter = { $id: "http://json-schema.org/draft-07/schema#", type: "integer" };
    expect(await evaluate(client, { program: "1", output_schema: squatter })).toMatchObject({
      status: "error",
      reason: "args_error",
    });
    // The meta-schema still checks the schemas of later calls.
    expect(await evaluate(client, { program: "1", output_schema: { type: "integer" } })).toMatchObject({
      status: "ok",
      validated: 1,
    });
    expect(await evaluate(client, { program: "1", output_schema: { type: 7 } })).toMatchObject({
      status: "error",
      reason: "args_error",
    });
  });
});
