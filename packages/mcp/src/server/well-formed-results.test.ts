/**
 * What a client reads is well-formed Unicode. A lone surrogate (half of an emoji's UTF-16 pair)
 * from a program, a tool's result or a tool's description would reach the client's model, and a
 * provider whose JSON parser checks Unicode refuses every request that carries it. Each becomes
 * U+FFFD; whole characters pass untouched.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPtcMcpServer } from "./create-server.js";

const LONE_HIGH = "\ud83d";

const server = createPtcMcpServer({
  expose: "both",
  structuredContent: true,
  tools: {
    label: {
      description: `Reads a label ${LONE_HIGH}`,
      signature: "() -> :string",
      execute: () => `cut here ${LONE_HIGH}`,
    },
  },
});
let client: Client;

beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "well-formed", version: "1.0.0" });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await server.close();
});

const isWellFormed = (text: string) => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Every string in what the client received, keys included. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  }
  return out;
}

const illFormed = (value: unknown) => strings(value).filter((text) => !isWellFormed(text));

describe("results a client reads are well-formed", () => {
  it("a program's lone surrogate, in the text and in structuredContent", async () => {
    const result = await client.callTool({
      name: "lisp_eval",
      arguments: { program: '(str "a\\ud83d" "b")' },
    });
    expect(illFormed(result)).toEqual([]);
    expect(JSON.stringify(result.structuredContent)).toContain("a\ufffdb");
  });

  it("a program's value that calls a tool whose text is cut mid-character", async () => {
    const result = await client.callTool({ name: "lisp_eval", arguments: { program: "(tool/label)" } });
    expect(illFormed(result)).toEqual([]);
  });

  it("a native call's result, and the tool's description in the listing", async () => {
    const result = await client.callTool({ name: "label", arguments: {} });
    expect(illFormed(result)).toEqual([]);
    expect(JSON.stringify(result.content)).toContain("cut here \ufffd");
    const { tools } = await client.listTools();
    expect(illFormed(tools)).toEqual([]);
    expect(tools.find((tool) => tool.name === "label")?.description).toContain("Reads a label \ufffd");
  });

  it("the reference card, as a prompt and as a resource (it lists the tools' descriptions)", async () => {
    // Tools a program calls (the default `expose`) are described in the card, not in the listing.
    const programServer = createPtcMcpServer({
      tools: {
        label: { description: `Reads a label ${LONE_HIGH}`, signature: "() -> :string", execute: () => "x" },
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await programServer.connect(serverSide);
    const reader = new Client({ name: "well-formed-card", version: "1.0.0" });
    await reader.connect(clientSide);
    try {
      const prompt = await reader.getPrompt({ name: "ptc_lisp_reference" });
      expect(JSON.stringify(prompt)).toContain("Reads a label \ufffd");
      expect(illFormed(prompt)).toEqual([]);
      const { resources } = await reader.listResources();
      const resource = await reader.readResource({ uri: resources[0]?.uri ?? "" });
      expect(JSON.stringify(resource)).toContain("Reads a label \ufffd");
      expect(illFormed(resource)).toEqual([]);
    } finally {
      await reader.close();
      await programServer.close();
    }
  });

  it("a summarized description is cut between characters, never inside an emoji", async () => {
    const summaryServer = createPtcMcpServer({
      catalog: "summary",
      tools: {
        label: {
          // The summary's cut (97 UTF-16 units) would fall between the emoji's two halves.
          description: `${"x".repeat(96)}😀 and more words past the summary's bound`,
          signature: "() -> :string",
          execute: () => "x",
        },
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await summaryServer.connect(serverSide);
    const reader = new Client({ name: "well-formed-summary", version: "1.0.0" });
    await reader.connect(clientSide);
    try {
      // The summarized catalog is in lisp_eval's description.
      const { tools } = await reader.listTools();
      const description = tools.find((tool) => tool.name === "lisp_eval")?.description ?? "";
      expect(description).toContain(`${"x".repeat(96)}...`);
      expect(description).not.toContain("\ufffd");
    } finally {
      await reader.close();
      await summaryServer.close();
    }
  });

  it("whole characters pass as they are", async () => {
    const result = await client.callTool({ name: "lisp_eval", arguments: { program: '(str "😀" "é")' } });
    expect(JSON.stringify(result.structuredContent)).toContain("😀é");
    expect(JSON.stringify(result)).not.toContain("\ufffd");
  });
});

describe("tool names in whole characters", () => {
  it("createPtcMcpServer refuses a tool whose name holds half of a character", () => {
    expect(() => createPtcMcpServer({ tools: { [`t${LONE_HIGH}`]: () => 1 } })).toThrow(
      "holds half of a character (a lone UTF-16 surrogate at index 1)",
    );
  });
});
