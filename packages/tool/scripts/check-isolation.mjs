#!/usr/bin/env node
// Proves that @ptc/tool stands alone: no @ptc/* package among its declared dependencies, and no
// @ptc/* import in its built output. Run after `pnpm build` (CI: `pnpm --filter @ptc/tool run
// check:isolation`). Exits non-zero with the offending names.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const problems = [];

for (const field of ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"]) {
  for (const name of Object.keys(manifest[field] ?? {})) {
    if (name.startsWith("@ptc/")) problems.push(`${field} lists ${name}`);
  }
}

function files(directory) {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const dist = join(root, "dist");
let built;
try {
  built = files(dist).filter((path) => /\.(js|d\.ts)$/.test(path));
} catch {
  problems.push("dist/ is missing: run `pnpm --filter @ptc/tool run build` first");
  built = [];
}
const importPattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](@ptc\/[^"']+)["']/g;
for (const path of built) {
  for (const match of readFileSync(path, "utf8").matchAll(importPattern)) {
    problems.push(`${path.slice(root.length + 1)} imports ${match[1]}`);
  }
}

if (problems.length > 0) {
  console.error(`@ptc/tool must not depend on other @ptc packages:\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`@ptc/tool is self-contained (${built.length} built files checked).`);
