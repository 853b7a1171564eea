#!/usr/bin/env node
// Checks that the bench's fresh programs really are fresh: each case is compiled with two nonces,
// and every JavaScript unit the code generator makes for it must contain its nonce. A unit without
// it would have the same text in every fresh run, hit the generator's factory cache, and reuse the
// machine code V8 optimized in earlier runs (then the case must carry its nonce inside that unit,
// as "recursive fib" does).
//   node packages/lisp/bench/fresh-check.mjs [--module path/to/index.js]
import { pathToFileURL } from "node:url";
import { cases } from "./cases.mjs";
import { makeData } from "./data.mjs";

const args = process.argv.slice(2);
const moduleIndex = args.indexOf("--module");
const modulePath =
  moduleIndex === -1
    ? new URL("../dist/index.js", import.meta.url).href
    : pathToFileURL(args[moduleIndex + 1]).href;

// The generator prints each new unit's source to console.error when this is set.
process.env.PTC_LISP_DUMP_CODEGEN = "1";
const { run } = await import(modulePath);
const units = [];
console.error = (text) => units.push(String(text));

const rows = 100;
const data = makeData(rows);
let stale = 0;
for (const [index, benchCase] of cases.entries()) {
  const counts = [];
  for (const nonce of [900_000_001 + 2 * index, 900_000_002 + 2 * index]) {
    units.length = 0;
    const result = await run(benchCase.lisp(rows, nonce), { context: data });
    if (!result.ok) throw new Error(`${benchCase.name}: ${result.error.message}`);
    const without = units.filter((unit) => !unit.includes(String(nonce)));
    if (without.length > 0) {
      stale++;
      process.stdout.write(
        `${benchCase.name}: ${without.length} of ${units.length} units lack the nonce:\n${without[0]}\n`,
      );
    }
    counts.push(units.length);
  }
  // The second nonce must make as many new units as the first: none came from the cache.
  const note = counts[0] === counts[1] ? "" : `  (units ${counts[0]} then ${counts[1]}: some reused)`;
  if (note !== "") stale++;
  process.stdout.write(`${benchCase.name.padEnd(26)} ${counts[0]} unit(s)${note}\n`);
}
if (stale > 0) {
  process.stdout.write(`\n${stale} case(s) are not fresh\n`);
  process.exitCode = 1;
}
