#!/usr/bin/env node
// `pnpm bench`: LLM-style data programs in PTC-Lisp against hand-written JavaScript doing the same
// work, at 1k, 10k and 100k rows. Prints each ratio (Lisp time / JS time; lower is better) and the
// geometric mean per size. Timings include everything a program costs in real use: reading,
// analysis, compilation and evaluation. Run after building @ptc/lisp.
//   node packages/lisp/bench/data-programs.bench.mjs [--sizes 1000,10000] [--case filter] [--json out.json]
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { cases } from "./cases.mjs";
import { makeData } from "./data.mjs";

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
};
const sizes = (option("sizes") ?? "1000,10000,100000").split(",").map(Number);
const only = option("case");
const modulePath = option("module") ?? new URL("../dist/index.js", import.meta.url).href;
const { run, toJson } = await import(modulePath);

// Generous limits: the benchmark measures speed, not the sandbox's default budgets.
const limits = {
  timeoutMs: 120_000,
  maxIterations: 10_000_000,
  maxMemoryBytes: 4_000_000_000,
  maxDepth: 10_000,
};

function sameAnswer(lispValue, jsValue) {
  const a = JSON.stringify(normalize(toJson(lispValue)));
  const b = JSON.stringify(normalize(jsValue));
  return a === b;
}

function normalize(value) {
  if (typeof value === "number") return Math.round(value * 1e6) / 1e6;
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, normalize(value[key])]),
    );
  }
  return value;
}

const median = (times) => [...times].sort((x, y) => x - y)[Math.floor(times.length / 2)];

/**
 * Median times of `lisp` and `js` in ms. The two alternate, run after run, until about `budgetMs`
 * is spent (at least 7 runs each), so that drift in machine load hits both sides alike.
 */
async function measurePair(lisp, js, budgetMs) {
  for (let i = 0; i < 3; i++) {
    await lisp(); // warm up the JIT on both sides
    js();
  }
  const lispTimes = [];
  const jsTimes = [];
  const start = performance.now();
  while (lispTimes.length < 7 || (performance.now() - start < budgetMs && lispTimes.length < 300)) {
    let t0 = performance.now();
    await lisp();
    lispTimes.push(performance.now() - t0);
    t0 = performance.now();
    js();
    jsTimes.push(performance.now() - t0);
  }
  return { lispMs: median(lispTimes), jsMs: median(jsTimes) };
}

const results = [];
for (const rows of sizes) {
  const data = makeData(rows);
  console.log(`\n${rows.toLocaleString("en")} rows`);
  console.log(`${"case".padEnd(22)}${"lisp ms".padStart(10)}${"js ms".padStart(10)}${"ratio".padStart(9)}`);
  const ratios = [];
  for (const benchCase of cases) {
    if (only !== undefined && !benchCase.name.includes(only)) continue;
    const source = benchCase.lisp(rows);
    const first = await run(source, { context: data, limits });
    if (!first.ok) {
      console.log(`${benchCase.name.padEnd(22)} FAILED: ${first.error.reason}: ${first.error.message}`);
      continue;
    }
    const expected = benchCase.js(data, rows);
    if (!sameAnswer(first.value, expected)) {
      console.log(
        `${benchCase.name.padEnd(22)} WRONG ANSWER: ${JSON.stringify(toJson(first.value)).slice(0, 120)} vs ${JSON.stringify(expected).slice(0, 120)}`,
      );
      continue;
    }
    const budget = rows >= 100000 ? 3000 : 1200;
    const { lispMs, jsMs } = await measurePair(
      () => run(source, { context: data, limits }),
      () => benchCase.js(data, rows),
      budget,
    );
    const ratio = lispMs / jsMs;
    ratios.push(ratio);
    results.push({ rows, case: benchCase.name, lispMs, jsMs, ratio });
    console.log(
      `${benchCase.name.padEnd(22)}${lispMs.toFixed(3).padStart(10)}${jsMs.toFixed(3).padStart(10)}${ratio.toFixed(2).padStart(8)}x`,
    );
  }
  const geomean = Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / Math.max(ratios.length, 1));
  console.log(`${"geometric mean".padEnd(42)}${geomean.toFixed(2).padStart(8)}x`);
  results.push({ rows, case: "geometric mean", ratio: geomean });
}
const out = option("json");
if (out !== undefined) writeFileSync(out, JSON.stringify(results, null, 2));
