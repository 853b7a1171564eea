// Profiling aid (not part of `pnpm bench`): runs every case fresh, round robin, over one size,
// so that `node --cpu-prof packages/lisp/bench/profile-fresh.mjs 1000 [engine]` shows where a
// fresh program's time goes (reading, analysis, compilation, evaluation).
import { cases } from "./cases.mjs";
import { makeData } from "./data.mjs";

const rows = Number(process.argv[2] ?? 1000);
const engine = process.argv[3] || undefined;
const only = process.argv[4];
const rounds = Number(process.env.ROUNDS ?? 40);
const { run } = await import(
  process.env.PTC_LISP_MODULE ?? new URL("../dist/index.js", import.meta.url).href
);
const data = makeData(rows);
const texts = Object.fromEntries(Object.entries(data).map(([key, value]) => [key, JSON.stringify(value)]));
const limits = {
  timeoutMs: 120_000,
  maxIterations: 10_000_000,
  maxMemoryBytes: 4_000_000_000,
  maxDepth: 10_000,
};
let nonce = 1;
const selected = cases.filter((c) => only === undefined || c.name.includes(only));
const totals = new Map();
for (let round = 0; round < rounds; round++) {
  for (const benchCase of selected) {
    const context = Object.fromEntries(benchCase.uses.map((key) => [key, JSON.parse(texts[key])]));
    const source = benchCase.lisp(rows, nonce++);
    const t0 = performance.now();
    const result = await run(
      source,
      engine === undefined ? { context, limits } : { context, limits, engine },
    );
    totals.set(benchCase.name, (totals.get(benchCase.name) ?? 0) + performance.now() - t0);
    if (!result.ok) throw new Error(`${benchCase.name}: ${result.error.message}`);
  }
}
for (const [name, ms] of [...totals].sort((a, b) => b[1] - a[1]))
  console.log((ms / rounds).toFixed(3).padStart(8), name);
