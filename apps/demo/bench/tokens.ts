/**
 * `pnpm bench:tokens`: the same tasks in pure text mode and in combined mode, with scripted models
 * over real tools and programs, and the context tokens each mode sent. Exits non-zero if a run
 * failed or the two modes answered differently.
 */
import { printBenchTable } from "../src/bench/bench-table.js";
import { runBench } from "../src/bench/run-bench.js";
import { colorsFor } from "../src/view/terminal.js";

const results = await runBench();
printBenchTable(process.stdout, colorsFor(process.stdout, process.env), results);
const sound = results.every(
  (result) => result.text.ok && result.combined.ok && result.text.answer === result.combined.answer,
);
process.exitCode = sound ? 0 : 1;
