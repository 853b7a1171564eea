#!/usr/bin/env node
// After `pnpm build`, every build task must be in turbo's cache: a second `pnpm build` (or the
// demo's build that `pnpm start` runs) then rebuilds nothing. A task that misses has inputs its
// turbo.json does not describe (an output written among them, a file read from elsewhere).
import { execFileSync } from "node:child_process";

const plan = JSON.parse(
  execFileSync("pnpm", ["exec", "turbo", "run", "build", "--dry=json"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }),
);
// A package without a build script (apps/workerd) is listed with the command <NONEXISTENT>:
// there is nothing to cache.
const builds = plan.tasks.filter((task) => task.command !== "<NONEXISTENT>");
const missed = builds.filter((task) => task.cache?.status !== "HIT").map((task) => task.taskId);
if (missed.length > 0) {
  console.error(`not cached after a build: ${missed.join(", ")}`);
  process.exit(1);
}
console.log(`all ${builds.length} build tasks cached`);
