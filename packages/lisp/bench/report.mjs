#!/usr/bin/env node
// Turns the --json files of several `pnpm bench` runs into the Markdown tables of
// docs/benchmarks.md: per size, each case's warm and fresh ratios and fresh Lisp time, run by run,
// the general evaluator's ratios (what runtimes without `new Function` get), the code-mode peer's
// (QuickJS) ratio, and whether it fits in DEFAULT_LIMITS; then one table of geometric means.
//   node packages/lisp/bench/report.mjs run1.json run2.json run3.json > tables.md
import { readFileSync } from "node:fs";

const geometricMean = (values) =>
  values.length === 0
    ? Number.NaN
    : Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);

/** Cases failing under the default limits, counting those that fail under any limits. */
const failingCount = (run, rows) =>
  run.results.filter(
    (r) => r.rows === rows && (r.defaults?.startsWith("fails") || r.error?.startsWith("FAILED: ")),
  ).length;

const files = process.argv.slice(2);
if (files.length === 0) throw new Error("usage: report.mjs run1.json [run2.json ...]");
const runs = files.map((file) => JSON.parse(readFileSync(file, "utf8")));

const ratio = (value) =>
  value === undefined || value === null || Number.isNaN(value)
    ? "–"
    : value >= 100
      ? value.toFixed(0)
      : value.toFixed(value >= 10 ? 1 : 2);
const ms = (value) =>
  value === undefined
    ? "–"
    : value >= 100
      ? value.toFixed(0)
      : value >= 10
        ? value.toFixed(1)
        : value.toFixed(2);
/** One cell: the runs' values in order, or one value when they all agree. */
const cell = (values) => (new Set(values).size === 1 ? values[0] : values.join(" · "));

const out = [];
out.push(`| run | date (UTC) | load at start · end | module built |`);
out.push(`| --- | --- | --- | --- |`);
for (const [index, { machine }] of runs.entries()) {
  out.push(
    `| ${index + 1} | ${machine.date.slice(0, 16).replace("T", " ")} | ${machine.loadAtStart?.join(" ") ?? "?"} · ${machine.loadAtEnd?.join(" ") ?? "?"} | ${machine.moduleBuilt?.slice(0, 16).replace("T", " ") ?? "?"} |`,
  );
}
out.push("");

const sizes = [...new Set(runs.flatMap((run) => run.results.map((result) => result.rows)))];
for (const rows of sizes) {
  out.push(`### ${rows.toLocaleString("en")} rows`, "");
  out.push(
    "| case | warm ×JS | fresh ×JS | fresh Lisp ms | general warm ×JS | general fresh ×JS | QuickJS ×JS | under DEFAULT_LIMITS |",
  );
  out.push("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  const names = [
    ...new Set(runs.flatMap((run) => run.results.filter((r) => r.rows === rows).map((r) => r.case))),
  ];
  for (const name of names) {
    const found = runs.map((run) =>
      run.results.find((result) => result.rows === rows && result.case === name),
    );
    const mark = found.some((result) => result?.stoppedAtCap)
      ? " ⁽ᶜᵃᵖ⁾"
      : found.some((result) => result?.slow)
        ? " ⁽¹⁾"
        : "";
    const capped = (result, text) => (result?.stoppedAtCap ? `≥ ${text}` : text);
    const failed = found.find((result) => result?.error !== undefined && result.fresh === undefined);
    if (failed !== undefined) {
      out.push(
        `| ${name} | failed | failed | – | – | – | – | fails under any limits (see the list of failures) |`,
      );
      continue;
    }
    out.push(
      `| ${name}${mark} | ${cell(found.map((r) => capped(r, ratio(r?.warm?.ratio))))} | ${cell(found.map((r) => capped(r, ratio(r?.fresh?.ratio))))} | ${cell(found.map((r) => capped(r, ms(r?.fresh?.lispMs))))} | ${cell(found.map((r) => ratio(r?.warm?.generalRatio)))} | ${cell(found.map((r) => ratio(r?.fresh?.generalRatio)))} | ${cell(found.map((r) => ratio(r?.fresh?.quickjsRatio)))} | ${cell(found.map((r) => r?.defaults ?? "–"))} |`,
    );
  }
  const means = runs.map((run) => run.geometricMeans.find((mean) => mean.rows === rows));
  const lower = runs.some((run) => run.results.some((r) => r.rows === rows && r.stoppedAtCap)) ? "≥ " : "";
  // Recomputed from the results, so that files written before the bench printed it have it too.
  const freshVersusWarmJs = runs.map((run) =>
    geometricMean(
      run.results.flatMap((r) =>
        r.rows === rows && r.fresh && r.warm ? [r.fresh.lispMs / r.warm.jsMs] : [],
      ),
    ),
  );
  out.push(
    `| **geometric mean** | **${lower}${means.map((mean) => ratio(mean?.warm)).join(" · ")}** | **${lower}${means.map((mean) => ratio(mean?.fresh)).join(" · ")}** | | ${means.map((mean) => ratio(mean?.warmGeneral)).join(" · ")} | ${means.map((mean) => ratio(mean?.freshGeneral)).join(" · ")} | ${means.map((mean) => ratio(mean?.quickjs)).join(" · ")} | ${runs.map((run) => `${failingCount(run, rows)} of ${run.results.filter((r) => r.rows === rows).length}`).join(" · ")} fail |`,
    `| fresh Lisp ÷ warm JS, geometric mean | | ${lower}${freshVersusWarmJs.map(ratio).join(" · ")} | | | | | |`,
    `| QuickJS ÷ fresh Lisp, geometric mean | | | | | | ${means.map((mean) => ratio(mean?.quickjsOverLisp)).join(" · ")} | |`,
    "",
  );
}

out.push("### Geometric means", "");
out.push(
  "| rows | warm ×JS | fresh ×JS (headline) | general warm ×JS | general fresh ×JS | QuickJS ×JS | QuickJS ÷ fresh Lisp |",
  "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
);
for (const rows of sizes) {
  const means = runs.map((run) => run.geometricMeans.find((mean) => mean.rows === rows));
  const column = (key) => means.map((mean) => ratio(mean?.[key])).join(" · ");
  out.push(
    `| ${rows.toLocaleString("en")} | ${column("warm")} | ${column("fresh")} | ${column("warmGeneral")} | ${column("freshGeneral")} | ${column("quickjs")} | ${column("quickjsOverLisp")} |`,
  );
}
out.push("");

const failing = new Map();
for (const run of runs) {
  for (const result of run.results) {
    const failed = result.error?.startsWith("FAILED: ");
    if (!result.defaults?.startsWith("fails") && !failed) continue;
    const key = `${result.case}\u0000${result.rows}`;
    const reason = failed
      ? `fails under any limits: ${result.error.slice("FAILED: ".length)}`
      : `${result.defaults.slice("fails: ".length)}: ${result.defaultsMessage}`;
    if (!failing.has(key)) failing.set(key, { ...result, reason, count: 0 });
    failing.get(key).count++;
  }
}
if (failing.size > 0) {
  out.push("| case | rows | runs failing | first reason given |", "| --- | ---: | ---: | --- |");
  for (const result of failing.values()) {
    out.push(
      `| ${result.case} | ${result.rows.toLocaleString("en")} | ${result.count} of ${runs.length} | ${result.reason.replaceAll("|", "\\|")} |`,
    );
  }
  out.push("");
}
process.stdout.write(`${out.join("\n")}\n`);
