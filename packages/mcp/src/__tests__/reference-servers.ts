/**
 * The three reference MCP servers (`@modelcontextprotocol/server-memory`, `server-filesystem`,
 * `server-everything`) as stdio configs: each started with this Node on its package's entry file
 * (never npx, never the network), the memory server's file and the filesystem server's root in a
 * temporary folder of the test's own.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { StdioServerConfig } from "../client/server-config.js";

const require = createRequire(import.meta.url);

/** The file a package's `bin` points at. */
export function packageEntry(name: string): string {
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : (Object.values(manifest.bin)[0] as string);
  return join(dirname(manifestPath), bin);
}

export interface ReferenceServers {
  readonly folder: string;
  readonly memory: StdioServerConfig;
  readonly filesystem: StdioServerConfig;
  readonly everything: StdioServerConfig;
  cleanup(): void;
}

export function referenceServers(): ReferenceServers {
  const folder = mkdtempSync(join(tmpdir(), "ptc-mcp-reference-"));
  return {
    folder,
    memory: {
      command: process.execPath,
      args: [packageEntry("@modelcontextprotocol/server-memory")],
      env: { MEMORY_FILE_PATH: join(folder, "memory.jsonl") },
    },
    filesystem: {
      command: process.execPath,
      args: [packageEntry("@modelcontextprotocol/server-filesystem"), folder],
    },
    everything: {
      command: process.execPath,
      args: [packageEntry("@modelcontextprotocol/server-everything"), "stdio"],
    },
    cleanup() {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
