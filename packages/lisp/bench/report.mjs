#!/usr/bin/env node
// Turns the --json files of several `pnpm bench` runs into the Markdown tables of
// docs/benchmarks.md: per size, each case's warm and fresh ratios and fresh Lisp time, run by run,
// and whether it fits in DEFAULT_LIMITS; with the no-eval path's ratios (`engine: "general"`, no
// code generated) when the runs timed it.
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
/** Whether the runs timed the no-eval path too (files from before it have no such column). */
const noEval = runs.some((run) => run.results.some((result) => result.fresh?.noEvalRatio !== undefined));
for (const rows of sizes) {
  out.push(`### ${rows.toLocaleString("en")} rows`, "");
  if (noEval) {
    out.push(
      "| case | warm ×JS | warm no-eval ×JS | fresh ×JS | fresh no-eval ×JS | fresh Lisp ms | fresh no-eval ms | under DEFAULT_LIMITS |",
    );
    out.push("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  } else {
    out.push("| case | warm ×JS | fresh ×JS | fresh Lisp ms | under DEFAULT_LIMITS |");
    out.push("| --- | ---: | ---: | ---: | --- |");
  }
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
        noEval
          ? `| ${name} | failed | failed | failed | failed | – | – | fails under any limits (see the list of failures) |`
          : `| ${name} | failed | failed | – | fails under any limits (see the list of failures) |`,
      );
      continue;
    }
    const column = (read) => cell(found.map((r) => capped(r, read(r))));
    out.push(
      noEval
        ? `| ${name}${mark} | ${column((r) => ratio(r?.warm?.ratio))} | ${column((r) => ratio(r?.warm?.noEvalRatio))} | ${column((r) => ratio(r?.fresh?.ratio))} | ${column((r) => ratio(r?.fresh?.noEvalRatio))} | ${column((r) => ms(r?.fresh?.lispMs))} | ${column((r) => ms(r?.fresh?.noEvalMs))} | ${cell(found.map((r) => r?.defaults ?? "–"))} |`
        : `| ${name}${mark} | ${column((r) => ratio(r?.warm?.ratio))} | ${column((r) => ratio(r?.fresh?.ratio))} | ${column((r) => ms(r?.fresh?.lispMs))} | ${cell(found.map((r) => r?.defaults ?? "–"))} |`,
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
  const failures = `${runs.map((run) => `${failingCount(run, rows)} of ${run.results.filter((r) => r.rows === rows).length}`).join(" · ")} fail`;
  const mean = (key) => `**${lower}${means.map((m) => ratio(m?.[key])).join(" · ")}**`;
  if (noEval) {
    out.push(
      `| **geometric mean** | ${mean("warm")} | ${mean("warmNoEval")} | ${mean("fresh")} | ${mean("freshNoEval")} | | | ${failures} |`,
      `| fresh Lisp ÷ warm JS, geometric mean | | | ${lower}${freshVersusWarmJs.map(ratio).join(" · ")} | | | | |`,
      "",
    );
  } else {
    out.push(
      `| **geometric mean** | ${mean("warm")} | ${mean("fresh")} | | ${failures} |`,
      `| fresh Lisp ÷ warm JS, geometric mean | | ${lower}${freshVersusWarmJs.map(ratio).join(" · ")} | | |`,
      "",
    );
  }
}

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
