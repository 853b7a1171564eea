#!/usr/bin/env node
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
// Runs the PTC-Lisp conformance corpus against the current sources of @ptc/lisp, without a build:
// bundles packages/lisp/src/index.ts into a private temporary file (so several people can run it
// at once) and hands every other argument to ../shared/conformance/run.mjs.
//   node scripts/conformance-dev.mjs --family strings --failures 50
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(join(tmpdir(), "ptc-conformance-"));
const bundle = join(dir, "lisp.mjs");
try {
  await build({
    entryPoints: [join(root, "packages/lisp/src/index.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outfile: bundle,
    logLevel: "warning",
  });
  const runner = resolve(root, "../shared/conformance/run.mjs");
  const result = spawnSync(process.execPath, [runner, "--module", bundle, ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
