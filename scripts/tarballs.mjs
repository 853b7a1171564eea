#!/usr/bin/env node
// `pnpm tarballs [@ptc/name...]`: the way to use the packages from a clone in an app outside the
// repository, until they are on npm. Builds the packages named (default: all of them) and every
// @ptc package they depend on, packs each with `pnpm pack` (which rewrites `workspace:` ranges
// as a publish does) into one folder, and prints the one npm command that installs them
// together: @ptc dependencies are not on the registry, so npm must find them among the tarballs.
//   pnpm tarballs @ptc/agent                  agent, lisp, tool, protocol
//   pnpm tarballs @ptc/lisp --out /tmp/ptc    another folder
// .ci/smoke-clone.mjs runs exactly this, then the install it prints, in a project of its own.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
const out = resolve(outIndex === -1 ? join(root, "tarballs") : (args[outIndex + 1] ?? ""));
const requested = args.filter((arg, index) => !arg.startsWith("--") && index !== outIndex + 1);

/** Every package under packages/, by name: its directory and the @ptc packages it depends on. */
const workspace = new Map(
  readdirSync(join(root, "packages")).map((folder) => {
    const directory = join(root, "packages", folder);
    const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8"));
    const needs = Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith("@ptc/"));
    return [manifest.name, { directory, needs }];
  }),
);

const wanted = requested.length === 0 ? [...workspace.keys()] : requested;
const closure = new Set();
const add = (name) => {
  const entry = workspace.get(name);
  if (entry === undefined) {
    console.error(`tarballs: no package ${name}; the packages are ${[...workspace.keys()].join(", ")}`);
    process.exit(2);
  }
  if (closure.has(name)) return;
  closure.add(name);
  for (const need of entry.needs) add(need);
};
for (const name of wanted) add(name);

const quiet = { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] };
execFileSync(process.execPath, [join(root, "scripts/quiet-build.mjs"), ...closure], quiet);
// Old tarballs of other versions would be installed too by the glob below: start empty.
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const name of closure) {
  execFileSync("pnpm", ["pack", "--pack-destination", out], { ...quiet, cwd: workspace.get(name).directory });
}
console.log(`packed ${[...closure].join(", ")} into ${out}`);
console.log("install them together, in your app:");
console.log(`  npm install ${join(out, "*.tgz")}`);
