#!/usr/bin/env node
// `pnpm fuzz`: the property tests with many more cases than `pnpm test` runs, each property in
// its own process.
//
// - PTC-Lisp (packages/lisp/src/fuzz.test.ts): reader, analyzer, evaluator and printer on random
//   text, token soup and mutated real programs; a million cases in all by default.
// - The agent boundary (packages/agent/src/__fuzz__/): hostile tools, a random model, aborts at
//   random points and the metadata policy, in every mode; 5,000 cases each by default (a case is
//   a whole agent run, with timers).
//
//   pnpm fuzz [--runs N] [--seed S] [--property ID[,ID...]] [--path P] [--parallel N]
//             [--known-bugs] [--stall SECONDS]
//
// --runs        cases per property (default: as above)
// --seed        the seed to use (default: a random one, printed first so any run can be replayed)
// --property    run only these properties, or a family: `lisp` or `agent` (ids below)
// --path        with --seed and one --property: replay one counterexample (fast-check prints it)
// --parallel    properties run at once (default: the number of CPUs, at most 4)
// --known-bugs  also generate the cases of the agent's known bugs (packages/agent/src/__fuzz__/
//               known-bugs.ts), which `pnpm test` and a plain `pnpm fuzz` steer clear of
// --stall       seconds an agent property may spend on one case before its process is stopped
//               and the case printed: a case that blocks the thread cannot be stopped from
//               inside (default 300)
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const LISP_FILE = "packages/lisp/src/fuzz.test.ts";
const AGENT_DIR = "packages/agent/src/__fuzz__";
const PROPERTIES = {
  errors: { family: "lisp", file: LISP_FILE },
  "round-trip": { family: "lisp", file: LISP_FILE },
  determinism: { family: "lisp", file: LISP_FILE },
  graphemes: { family: "lisp", file: LISP_FILE },
  "agent-tools": { family: "agent", file: `${AGENT_DIR}/agent-tools.test.ts` },
  "agent-model": { family: "agent", file: `${AGENT_DIR}/agent-model.test.ts` },
  "agent-abort": { family: "agent", file: `${AGENT_DIR}/agent-abort.test.ts` },
  "agent-secrets": { family: "agent", file: `${AGENT_DIR}/agent-secrets.test.ts` },
};
const LISP_TOTAL = 1_000_000;
const AGENT_RUNS = 5_000;

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
};
const seed = Number(option("seed") ?? Math.floor(Math.random() * 2 ** 31));
const path = option("path");
const knownBugs = args.includes("--known-bugs");
const stallSeconds = Number(option("stall") ?? 300);
const chosen = option("property");
const ids = Object.keys(PROPERTIES);
const properties =
  chosen === undefined
    ? ids
    : chosen
        .split(",")
        .flatMap((name) => (PROPERTIES[name] ? [name] : ids.filter((id) => PROPERTIES[id].family === name)));
if (
  chosen !== undefined &&
  (properties.length === 0 ||
    chosen.split(",").some((name) => !PROPERTIES[name] && !["lisp", "agent"].includes(name)))
) {
  console.error(
    `unknown property in ${chosen}; the properties are ${ids.join(", ")} (or a family: lisp, agent)`,
  );
  process.exit(2);
}
if (path !== undefined && properties.length !== 1) {
  console.error("--path replays one counterexample: give exactly one --property");
  process.exit(2);
}
const lispCount = properties.filter((id) => PROPERTIES[id].family === "lisp").length;
const runsGiven = option("runs");
const runsOf = (id) =>
  Number(runsGiven ?? (PROPERTIES[id].family === "lisp" ? Math.ceil(LISP_TOTAL / lispCount) : AGENT_RUNS));
const parallel = Number(option("parallel") ?? Math.min(4, availableParallelism()));
if (
  !Number.isInteger(seed) ||
  (runsGiven !== undefined && !(Number.isInteger(Number(runsGiven)) && Number(runsGiven) > 0)) ||
  !(parallel > 0) ||
  !(stallSeconds > 0)
) {
  console.error(
    "--seed, --runs, --parallel and --stall take whole numbers (runs, parallel and stall above 0)",
  );
  process.exit(2);
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const vitest = join(
  dirname(createRequire(join(root, "package.json")).resolve("vitest/package.json")),
  "vitest.mjs",
);
const heartbeats = mkdtempSync(join(tmpdir(), "ptc-fuzz-"));

console.log(
  `fuzz: seed ${seed}, ${properties.length} properties: ${properties.map((id) => `${id} (${runsOf(id).toLocaleString("en")})`).join(", ")}${knownBugs ? ", known bugs included" : ""}`,
);
console.log(
  `fuzz: replay with: pnpm fuzz --seed ${seed}${chosen ? ` --property ${chosen}` : ""}${runsGiven ? ` --runs ${runsGiven}` : ""}${knownBugs ? " --known-bugs" : ""}`,
);

const started = performance.now();

/** Runs one property in its own vitest process; resolves with whether it passed and its cases. */
function runProperty(id) {
  const runs = runsOf(id);
  const heartbeat = join(heartbeats, `${id}.json`);
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [vitest, "run", PROPERTIES[id].file, "--silent=false", "--reporter=dot"],
      {
        cwd: root,
        env: {
          ...process.env,
          FUZZ_RUNS: String(runs),
          FUZZ_SEED: String(seed),
          FUZZ_PROPERTY: id,
          FUZZ_HEARTBEAT: heartbeat,
          ...(knownBugs ? { FUZZ_KNOWN_BUGS: "1" } : {}),
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
    // An agent case writes itself to the heartbeat file before it runs; a file that stops
    // changing means a case holds the thread.
    let stalled;
    const watch = setInterval(() => {
      if (!existsSync(heartbeat)) return;
      const idle = (Date.now() - statSync(heartbeat).mtimeMs) / 1000;
      if (idle < stallSeconds) return;
      stalled = readFileSync(heartbeat, "utf8");
      child.kill("SIGKILL");
    }, 5000);
    child.on("close", (code) => {
      clearInterval(watch);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal colours
      const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
      for (const line of plain.split("\n")) if (line.startsWith("fuzz:")) console.log(line);
      const failedAfter = /Property failed after (\d+) tests/.exec(plain);
      if (stalled !== undefined) {
        console.log(
          `fuzz: ${id} STALLED: one case did not end within ${stallSeconds} s (seed ${seed}); the case:\n${stalled}`,
        );
      } else if (code !== 0) {
        console.log(`fuzz: ${id} FAILED (seed ${seed}); its output:\n${plain}`);
        // A process that died (out of memory, a crash) reports no counterexample: the case it
        // was running is the one in the heartbeat file.
        if (!plain.includes("Counterexample") && existsSync(heartbeat)) {
          console.log(`fuzz: ${id}: the last case it started:\n${readFileSync(heartbeat, "utf8")}`);
        }
        console.log(
          `fuzz: replay with: pnpm fuzz --seed ${seed} --property ${id} --runs ${runs}${knownBugs ? " --known-bugs" : ""} --path <path printed above>`,
        );
      }
      const passedCases = path === undefined ? runs : 1;
      resolve({
        passed: code === 0 && stalled === undefined,
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
rmSync(heartbeats, { recursive: true, force: true });

const seconds = ((performance.now() - started) / 1000).toFixed(0);
const passed = results.every((result) => result.passed);
const cases = results.reduce((sum, result) => sum + result.cases, 0);
console.log(
  `fuzz: ${passed ? "passed" : "FAILED"}: ${cases.toLocaleString("en")} cases run, seed ${seed}, ${seconds} s`,
);
process.exit(passed ? 0 : 1);
