#!/usr/bin/env node
// Proves the root entry of @ptc/agent (and @ptc/agent/testing) loads no optional peer: walks the
// built module graph from each entry through relative imports and fails if any file imports a
// package that is not a regular dependency (e.g. @ai-sdk/provider or @opentelemetry/api).
// Subpaths that exist to wrap a peer (openai needs none, ai-sdk, otel) are checked for the peers
// they may use. Only the Node subpath (dist/node) may load Node built-ins (`node:...`) or
// @ptc/lisp/node: every other entry must run on edge runtimes too. Run after `pnpm build`.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
const allowedPeers = {
  "dist/index.js": [],
  "dist/testing/index.js": [],
  "dist/openai/index.js": [],
  "dist/ai-sdk/index.js": ["@ai-sdk/provider"],
  "dist/otel/index.js": ["@opentelemetry/api"],
  "dist/node/index.js": [],
};
/** Entries that may load Node built-ins and @ptc/lisp/node: only the Node subpath. */
const nodeEntries = new Set(["dist/node/index.js"]);
// Minified output drops the spaces around `from` (`import{a as b}from'@ptc/lisp'`, `export*from'x'`).
const specifier =
  /(?:^|[\s;}])(?:import|export)\s*(?:[^'"]*?[\s}*]from\s*)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function packageOf(name) {
  const parts = name.split("/");
  return name.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

let failed = false;
for (const [entry, peers] of Object.entries(allowedPeers)) {
  const start = join(root, entry);
  if (!existsSync(start)) {
    console.error(`missing ${entry}: build the package first`);
    process.exit(1);
  }
  const seen = new Set();
  const external = new Set();
  const nodeOnly = new Set();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(specifier)) {
      const target = match[1] ?? match[2];
      if (target.startsWith(".")) queue.push(resolve(dirname(file), target));
      else if (!nodeEntries.has(entry) && (target.startsWith("node:") || target === "@ptc/lisp/node"))
        nodeOnly.add(target);
      else if (!target.startsWith("node:")) external.add(packageOf(target));
    }
  }
  const forbidden = [
    // A subpath may import the package's own root entry: its classes (ModelCallError, AgentError)
    // are then one and the same, with no chunk shared between the entries for them.
    ...[...external].filter(
      (name) => name !== manifest.name && !dependencies.has(name) && !peers.includes(name),
    ),
    ...nodeOnly,
  ];
  if (forbidden.length > 0) {
    failed = true;
    console.error(`${entry} imports ${forbidden.join(", ")}, which it must not load`);
  } else {
    console.log(
      `${entry}: ${seen.size} module(s), imports ${[...external].sort().join(", ") || "nothing external"}`,
    );
  }
}
process.exit(failed ? 1 : 0);
