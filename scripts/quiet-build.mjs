#!/usr/bin/env node
// Builds workspace packages (and what they depend on) through turbo, printing nothing unless the
// build fails; then the build's whole output, to see why. For scripts whose point is the output
// of what runs after the build (`pnpm start:lisp`).
//   node scripts/quiet-build.mjs @ptc/lisp
import { spawnSync } from "node:child_process";

const packages = process.argv.slice(2);
if (packages.length === 0) {
  console.error("usage: node scripts/quiet-build.mjs <package>...");
  process.exit(2);
}
const result = spawnSync(
  "pnpm",
  [
    "exec",
    "turbo",
    "run",
    "build",
    ...packages.map((name) => `--filter=${name}`),
    "--output-logs=errors-only",
  ],
  { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
);
if (result.status !== 0) {
  process.stderr.write(result.stdout ?? "");
  process.stderr.write(result.stderr ?? "");
  if (result.error !== undefined) process.stderr.write(`${result.error.message}\n`);
  process.exit(result.status ?? 1);
}
