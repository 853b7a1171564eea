#!/usr/bin/env node
// `pnpm playground`: serves the built playground on localhost (build it first: `pnpm --filter
// @ptc/playground build`, which `pnpm playground` does).
//   node scripts/serve.mjs [--port 5178]
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startStaticServer } from "./static-server.mjs";

const directory = fileURLToPath(new URL("../dist", import.meta.url));
if (!existsSync(`${directory}/index.html`)) {
  console.error("the playground is not built: run `pnpm --filter @ptc/playground build` first");
  process.exit(1);
}
const index = process.argv.indexOf("--port");
const port = index === -1 ? 5178 : Number(process.argv[index + 1]);
const server = await startStaticServer({ directory, port });
console.log(`PTC-Lisp playground: ${server.url}/  (Ctrl-C stops it)`);
