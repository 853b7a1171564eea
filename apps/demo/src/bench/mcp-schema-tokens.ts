/**
 * The MCP row of `pnpm bench:tokens`: what a model reads on every request to use the tools of the
 * three reference MCP servers (memory, filesystem, everything) together, listed the usual way
 * (every tool's schema, as a client would forward them to the model) against `ptc-mcp`'s way
 * (one `lisp_eval` whose description is the PTC-Lisp card listing those tools by signature).
 *
 * Both sides are measured from what the servers actually list over MCP, counted as the
 * provider-format tool definitions a request carries.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { connectMcpServers, createPtcMcpServer } from "@ptc/mcp";
import { countTokens } from "../tokens/count-tokens.js";

export interface McpSchemaTokens {
  readonly servers: readonly string[];
  /** Tools the three servers list. */
  readonly tools: number;
  /** Tokens of every tool's definition, listed natively. */
  readonly native: number;
  /** Tokens of the one `lisp_eval` definition, its card listing the tools by summary (the default past 8 tools). */
  readonly lispEval: number;
  /** The same with every tool's full description in the card (`--catalog full`). */
  readonly lispEvalFull: number;
  /** The same with only the tools' names in the card (`--catalog names`, the default past 40 tools). */
  readonly lispEvalNames: number;
}

const require = createRequire(import.meta.url);

function entry(name: string): string {
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : (Object.values(manifest.bin)[0] as string);
  return join(dirname(manifestPath), bin);
}

interface Listed {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema: unknown;
}

/** A tool as a request carries it (OpenAI function format, as the agent's requests do). */
function definitionTokens(tools: readonly Listed[]): number {
  const definitions = tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema },
  }));
  return countTokens(JSON.stringify(definitions));
}

export async function measureMcpSchemaTokens(): Promise<McpSchemaTokens> {
  const folder = mkdtempSync(join(tmpdir(), "ptc-bench-mcp-"));
  const upstreams = await connectMcpServers({
    memory: {
      command: process.execPath,
      args: [entry("@modelcontextprotocol/server-memory")],
      env: { MEMORY_FILE_PATH: join(folder, "memory.jsonl") },
    },
    filesystem: {
      command: process.execPath,
      args: [entry("@modelcontextprotocol/server-filesystem"), folder],
    },
    everything: {
      command: process.execPath,
      args: [entry("@modelcontextprotocol/server-everything"), "stdio"],
    },
  });
  try {
    const failed = Object.entries(upstreams.failures);
    if (failed.length > 0)
      throw new Error(
        `reference servers did not start: ${failed.map(([name, error]) => `${name}: ${error.message}`).join("; ")}`,
      );
    // The native side: each server's own listing, under the names a client would show them by.
    const native: Listed[] = [];
    for (const [server, connection] of Object.entries(upstreams.connections)) {
      for (const tool of Object.values(connection.tools)) {
        native.push({
          name: `${server}__${tool.mcp.tool}`,
          description: tool.description,
          inputSchema: tool.mcp.inputSchema,
        });
      }
    }
    // The PTC side: what ptc-mcp lists, read over MCP by the SDK's client.
    const listed = async (catalog: "auto" | "full" | "names") => {
      const server = createPtcMcpServer({ upstreams, catalog });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: "bench", version: "1.0.0" });
      await client.connect(clientSide);
      const { tools } = await client.listTools();
      await client.close();
      await server.close();
      return tools;
    };
    return {
      servers: Object.keys(upstreams.connections),
      tools: native.length,
      native: definitionTokens(native),
      lispEval: definitionTokens(await listed("auto")),
      lispEvalFull: definitionTokens(await listed("full")),
      lispEvalNames: definitionTokens(await listed("names")),
    };
  } finally {
    await upstreams.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
