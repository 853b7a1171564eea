#!/usr/bin/env node
// Builds the playground into dist/: the page (main.js, code-split so the replay view loads only
// when opened), the two Web Workers (run-worker.js, replay-worker.js) and the static files. The
// @ptc packages are bundled from their sources (the "@ptc/source" condition), so the playground
// needs no prior build of them. No Node built-in may reach a bundle: the browser platform fails
// the build on one.
//   node scripts/build.mjs [--watch]
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build, context } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = `${root}dist`;
const watch = process.argv.includes("--watch");

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: "browser",
  target: "es2022",
  conditions: ["@ptc/source", "browser", "module", "import"],
  loader: { ".clj": "text" },
  minify: true,
  sourcemap: "linked",
  legalComments: "linked",
  logLevel: "warning",
};

const builds = [
  {
    ...common,
    entryPoints: { main: "src/main.ts" },
    format: "esm",
    splitting: true,
    outdir: dist,
    chunkNames: "chunks/[name]-[hash]",
  },
  { ...common, entryPoints: { "run-worker": "src/run/run-worker.ts" }, format: "iife", outdir: dist },
  {
    ...common,
    entryPoints: { "replay-worker": "src/replay/replay-worker.ts" },
    format: "iife",
    outdir: dist,
  },
];

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
for (const file of ["index.html", "styles.css"]) copyFileSync(`${root}src/${file}`, `${dist}/${file}`);

if (watch) {
  for (const options of builds) await (await context(options)).watch();
  console.log(`watching; the playground is in ${dist}`);
} else {
  await Promise.all(builds.map((options) => build(options)));
  console.log(`playground built in ${dist}`);
}
