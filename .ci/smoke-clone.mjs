#!/usr/bin/env node
// The documented way to use the packages from a clone (README.md, "Your own app"), run as written:
// `pnpm tarballs @ptc/agent`, then `npm install <folder>/*.tgz` in a new project outside the
// repository, then examples/agent-app/app.mjs (a combined-mode agent with two tools) in it, which
// must print its answer. Needs nothing built beforehand: `pnpm tarballs` builds what it packs.
//   node .ci/smoke-clone.mjs [--keep]
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.argv.includes("--keep");
const workdir = mkdtempSync(join(tmpdir(), "ptc-clone-"));
const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

try {
  const tarballs = join(workdir, "tarballs");
  process.stdout.write(run("pnpm", ["--silent", "tarballs", "@ptc/agent", "--out", tarballs], root));
  const app = join(workdir, "app");
  mkdirSync(join(app, "examples", "agent-app"), { recursive: true });
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "my-app", private: true, type: "module" }));
  // What the shell makes of `npm install <folder>/*.tgz`.
  const files = readdirSync(tarballs)
    .filter((file) => file.endsWith(".tgz"))
    .map((file) => join(tarballs, file));
  run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...files], app);
  copyFileSync(join(root, "examples/agent-app/app.mjs"), join(app, "examples/agent-app/app.mjs"));
  copyFileSync(join(root, "examples/orders.json"), join(app, "examples/orders.json"));
  const answer = run(process.execPath, ["examples/agent-app/app.mjs"], app).trim();
  if (!/^Wayne Logistics brought in the most: [\d.]+ from completed orders\.$/.test(answer)) {
    throw new Error(`the app printed ${JSON.stringify(answer)}`);
  }
  console.log(`the app outside the repository answered: ${answer}`);
  console.log("smoke-clone: ok");
} catch (error) {
  const output = error && typeof error === "object" && "stderr" in error ? String(error.stderr) : "";
  console.error(`smoke-clone: failed: ${error instanceof Error ? error.message : String(error)}\n${output}`);
  process.exitCode = 1;
} finally {
  if (keep) console.log(`kept ${workdir}`);
  else rmSync(workdir, { recursive: true, force: true });
}
