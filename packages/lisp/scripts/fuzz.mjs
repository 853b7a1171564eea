#!/usr/bin/env node
// `pnpm fuzz`: the property tests of packages/lisp/src/fuzz.test.ts (reader, analyzer, evaluator,
// printer on random text, token soup and mutated real programs) with many more cases than
// `pnpm test` runs: a million in all by default, each property in its own process.
//
//   pnpm fuzz [--runs N] [--seed S] [--property ID] [--path P] [--parallel N]
//
// --runs      cases per property (default: a million in all, split between the properties)
// --seed      the seed to use (default: a random one, printed first so any run can be replayed)
// --property  run only this property (errors, round-trip, determinism, graphemes)
// --path      with --seed and --property: replay one counterexample (fast-check prints the path)
// --parallel  properties run at once (default: the number of CPUs, at most 4)
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PROPERTIES = ["errors", "round-trip", "determinism", "graphemes"];
const TOTAL = 1_000_000;

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
};
const seed = Number(option("seed") ?? Math.floor(Math.random() * 2 ** 31));
const path = option("path");
const chosen = option("property");
if (chosen !== undefined && !PROPERTIES.includes(chosen)) {
  console.error(`unknown property ${chosen}; the properties are ${PROPERTIES.join(", ")}`);
  process.exit(2);
}
const properties = chosen === undefined ? PROPERTIES : [chosen];
const runs = Number(option("runs") ?? Math.ceil(TOTAL / properties.length));
const parallel = Number(option("parallel") ?? Math.min(4, availableParallelism()));
if (!Number.isInteger(seed) || !Number.isInteger(runs) || runs <= 0 || !(parallel > 0)) {
  console.error("--seed, --runs and --parallel take whole numbers (runs and parallel above 0)");
  process.exit(2);
}

const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const vitest = join(
  dirname(createRequire(join(root, "package.json")).resolve("vitest/package.json")),
  "vitest.mjs",
);

console.log(
  `fuzz: seed ${seed}, ${runs.toLocaleString("en")} cases per property, ${properties.length} properties`,
);
console.log(
  `fuzz: replay with: pnpm fuzz --seed ${seed}${chosen ? ` --property ${chosen}` : ""} --runs ${runs}`,
);

const started = performance.now();

/** Runs one property in its own vitest process; resolves with whether it passed and its cases. */
function runProperty(id) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [vitest, "run", "packages/lisp/src/fuzz.test.ts", "--silent=false", "--reporter=dot"],
      {
        cwd: root,
        env: {
          ...process.env,
          FUZZ_RUNS: String(runs),
          FUZZ_SEED: String(seed),
          FUZZ_PROPERTY: id,
          ...(path === undefined ? {} : { FUZZ_PATH: path }),
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code) => {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal colours
      const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
      for (const line of plain.split("\n")) if (line.startsWith("fuzz:")) console.log(line);
      const failedAfter = /Property failed after (\d+) tests/.exec(plain);
      if (code !== 0) {
        console.log(`fuzz: ${id} FAILED (seed ${seed}); its output:\n${plain}`);
        console.log(
          `fuzz: replay with: pnpm fuzz --seed ${seed} --property ${id} --runs ${runs} --path <path printed above>`,
        );
      }
      const passedCases = path === undefined ? runs : 1;
      resolve({
        passed: code === 0,
        cases: failedAfter ? Number(failedAfter[1]) : code === 0 ? passedCases : 0,
      });
    });
  });
}

const queue = [...properties];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(parallel, queue.length) }, async () => {
    while (queue.length > 0) {
      const id = queue.shift();
      results.push(await runProperty(id));
    }
  }),
);

const seconds = ((performance.now() - started) / 1000).toFixed(0);
const passed = results.every((result) => result.passed);
const cases = results.reduce((sum, result) => sum + result.cases, 0);
console.log(
  `fuzz: ${passed ? "passed" : "FAILED"}: ${cases.toLocaleString("en")} cases run, seed ${seed}, ${seconds} s`,
);
process.exit(passed ? 0 : 1);
