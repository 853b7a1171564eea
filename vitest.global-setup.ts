/**
 * Builds the isolation worker of @ptc/lisp/node once per test run. Workers cannot load
 * TypeScript, so tests that start real workers (packages/lisp/src/node, the agent's isolation)
 * get this build, laid out as in the package (index.js finds worker.js next to itself), through
 * `inject("isolationWorker")`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject): Promise<() => void> {
  const directory = mkdtempSync(join(tmpdir(), "ptc-lisp-worker-"));
  writeFileSync(join(directory, "package.json"), '{"type": "module"}');
  await build({
    entryPoints: {
      index: fileURLToPath(new URL("./packages/lisp/src/node/index.ts", import.meta.url)),
      worker: fileURLToPath(new URL("./packages/lisp/src/node/worker.ts", import.meta.url)),
    },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outdir: directory,
    logLevel: "warning",
  });
  project.provide("isolationWorker", {
    directory,
    workerUrl: pathToFileURL(join(directory, "worker.js")).href,
    indexUrl: pathToFileURL(join(directory, "index.js")).href,
  });
  return () => rmSync(directory, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    isolationWorker: { directory: string; workerUrl: string; indexUrl: string };
  }
}
