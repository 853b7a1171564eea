/**
 * The `ptc-mcp` command built from the sources into a private folder (one bundle, so it runs on
 * plain Node with nothing to resolve), to be spawned with this Node as a client would spawn it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export interface BuiltCli {
  readonly path: string;
  cleanup(): void;
}

export function buildCli(): Promise<BuiltCli> {
  return buildEntry("cli", "../server/cli/main.ts");
}

/** The package's root entry, bundled alike, for host scripts run in a process of their own. */
export function buildLibrary(): Promise<BuiltCli> {
  return buildEntry("index", "../index.ts");
}

async function buildEntry(name: string, source: string): Promise<BuiltCli> {
  const directory = mkdtempSync(join(tmpdir(), "ptc-mcp-build-"));
  writeFileSync(join(directory, "package.json"), '{"type": "module"}');
  await build({
    entryPoints: { [name]: fileURLToPath(new URL(source, import.meta.url)) },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: ["@ptc/source"],
    outdir: directory,
    outExtension: { ".js": ".mjs" },
    // Some dependencies are CommonJS and call require() for Node's own modules.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
  return {
    path: join(directory, `${name}.mjs`),
    cleanup() {
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

export const fixture = (name: string): string =>
  fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url));
