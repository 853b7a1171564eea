#!/usr/bin/env node
// Cold start as serverless functions and CLIs pay it: whole Node processes, started one after
// another, each running one probe, in turns: an empty process, one that imports the built
// @ptc/lisp and runs `(+ 1 2)`, and one that also imports the built @ptc/agent. Prints the median
// wall time of each and the differences (docs/benchmarks.md, "Cold start"). Build first
// (`pnpm build`).
//   node scripts/cold-start.mjs [--runs 40] [--instructions]
// `--instructions` counts each process's machine instructions under valgrind (callgrind, every
// thread) instead of timing it: about fifty times slower, but a loaded machine barely moves the
// count (±1%, mostly V8's random hash seed), so two builds compare where wall times cannot.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const runs = Number(args.includes("--runs") ? args[args.indexOf("--runs") + 1] : 40);
const instructions = args.includes("--instructions");
const root = new URL("..", import.meta.url);
const lisp = pathToFileURL(new URL("packages/lisp/dist/index.js", root).pathname).href;
const agent = pathToFileURL(new URL("packages/agent/dist/index.js", root).pathname).href;
const dir = mkdtempSync(join(os.tmpdir(), "ptc-cold-"));
const probes = {
  "empty node": "",
  "@ptc/lisp, (+ 1 2)": `import { run } from ${JSON.stringify(lisp)};\nconst r = await run("(+ 1 2)");\nif (!r.ok || r.value !== 3) process.exit(1);\n`,
  "@ptc/agent too": `import { run } from ${JSON.stringify(lisp)};\nimport ${JSON.stringify(agent)};\nconst r = await run("(+ 1 2)");\nif (!r.ok || r.value !== 3) process.exit(1);\n`,
};
const files = Object.fromEntries(
  Object.entries(probes).map(([name, text], index) => {
    const file = join(dir, `probe-${index}.mjs`);
    writeFileSync(file, text);
    return [name, file];
  }),
);
const times = Object.fromEntries(Object.keys(probes).map((name) => [name, []]));
try {
  for (let i = 0; i < runs; i++) {
    for (const [name, file] of Object.entries(files)) {
      if (instructions) {
        const child = spawnSync(
          "valgrind",
          ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, file],
          { encoding: "utf8" },
        );
        const count = /Collected : (\d+)/.exec(child.stderr ?? "");
        if (child.status !== 0 || count === null) throw new Error(`${name} failed under valgrind`);
        times[name].push(Number(count[1]) / 1e6);
        continue;
      }
      const start = process.hrtime.bigint();
      const child = spawnSync(process.execPath, [file], { stdio: "inherit" });
      if (child.status !== 0) throw new Error(`${name} failed`);
      times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const [empty, withLisp, withAgent] = Object.values(times).map(median);
console.log(
  `${os.cpus()[0]?.model ?? "?"}, node ${process.version}, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, ${runs} runs each`,
);
const unit = instructions ? "M instructions" : "ms";
for (const [name, values] of Object.entries(times))
  console.log(
    `${name.padEnd(22)} median ${median(values).toFixed(1)} ${unit}, min ${Math.min(...values).toFixed(1)} ${unit}`,
  );
console.log(
  `@ptc/lisp and (+ 1 2) add ${(withLisp - empty).toFixed(1)} ${unit}; @ptc/agent adds ${(withAgent - withLisp).toFixed(1)} ${unit} more`,
);
