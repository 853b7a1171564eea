#!/usr/bin/env node
// Checks a built package's declaration files: one per public entry, none shared. A shared chunk
// (`run-CKVcjmjD.d.ts`) makes editors and docs show aliases such as `d as RunOptions` and a file
// name that changes with every build; subpath entries import the root entry by name instead.
//   node scripts/check-declarations.mjs packages/lisp
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(process.argv[2] ?? ".");
const dist = join(root, "dist");
const declarations = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((path) =>
  path.endsWith(".d.ts"),
);
const problems = declarations.length === 0 ? ["no declaration files: build the package first"] : [];
for (const path of declarations) {
  if (/-[A-Za-z0-9_]{8}\.d\.ts$/.test(path)) problems.push(`${path}: a shared declaration chunk`);
  const text = readFileSync(join(dist, path), "utf8");
  for (const match of text.matchAll(/from ['"](\.{1,2}\/[^'"]*-[A-Za-z0-9_]{8}\.js)['"]/g))
    problems.push(`${path}: imports the chunk ${match[1]}`);
}
if (problems.length > 0) {
  console.error(`declaration files of ${root}:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`declarations: ${declarations.length} files, no shared chunks`);
