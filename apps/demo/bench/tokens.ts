/**
 * `pnpm bench:tokens`: the same tasks in pure text mode and in combined mode, with scripted models
 * over real tools and programs, and the context tokens each mode sent; then the tool schemas a
 * request carries for the three reference MCP servers, listed natively or as `ptc-mcp`'s one
 * `lisp_eval`. Exits non-zero if a run failed or the two modes answered differently.
 */
import { printBenchTable, printMcpRow } from "../src/bench/bench-table.js";
import { measureMcpSchemaTokens } from "../src/bench/mcp-schema-tokens.js";
import { runBench } from "../src/bench/run-bench.js";
import { colorsFor } from "../src/view/terminal.js";

const results = await runBench();
const colors = colorsFor(process.stdout, process.env);
printBenchTable(process.stdout, colors, results);
printMcpRow(process.stdout, colors, await measureMcpSchemaTokens());
const sound = results.every(
  (result) => result.text.ok && result.combined.ok && result.text.answer === result.combined.answer,
);
process.exitCode = sound ? 0 : 1;
