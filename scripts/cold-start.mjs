#!/usr/bin/env node
// Cold start as serverless functions and CLIs pay it: whole Node processes, started one after
// another, each running one probe, in turns: an empty process, one that imports the built
// @ptc/lisp and runs `(+ 1 2)`, and one that also imports the built @ptc/agent. Prints the median
// wall time of each and the differences (docs/benchmarks.md, "Cold start"). Build first
// (`pnpm build`).
//   node scripts/cold-start.mjs [--runs 40]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1] || 40);
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
for (const [name, values] of Object.entries(times))
  console.log(
    `${name.padEnd(22)} median ${median(values).toFixed(1)} ms, min ${Math.min(...values).toFixed(1)} ms`,
  );
console.log(
  `@ptc/lisp and (+ 1 2) add ${(withLisp - empty).toFixed(1)} ms; @ptc/agent adds ${(withAgent - withLisp).toFixed(1)} ms more`,
);
