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

export async function buildCli(): Promise<BuiltCli> {
  const directory = mkdtempSync(join(tmpdir(), "ptc-mcp-cli-"));
  writeFileSync(join(directory, "package.json"), '{"type": "module"}');
  await build({
    entryPoints: { cli: fileURLToPath(new URL("../server/cli/main.ts", import.meta.url)) },
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
    path: join(directory, "cli.mjs"),
    cleanup() {
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

export const fixture = (name: string): string =>
  fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url));
