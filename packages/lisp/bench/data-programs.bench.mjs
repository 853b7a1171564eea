#!/usr/bin/env node
// `pnpm bench`: LLM-style data programs in PTC-Lisp against hand-written JavaScript doing the same
// work, at 1k, 10k and 100k rows. Prints, per case and size, the ratio Lisp time / JS time (lower is
// better) in two modes, and their geometric means:
//   fresh (the headline): every timed run is a program text never run before, over a new copy of
//         the data, against JavaScript compiled from its text for that run over its own new copy.
//         This is what an agent lives with: each program a model writes is new and runs once.
//   warm: one program text run again and again over the same data (compiled code and V8's
//         optimizations warm): what a host that reruns one program gets.
// Two more sides are measured beside them: the general evaluator alone (`engine: "general"`, what
// runtimes without `new Function` get) in both modes, and, in fresh mode, the code-mode peer: the
// case's JavaScript run in a new QuickJS (WebAssembly) context per run, data in and out as JSON.
// A last column runs each case once under DEFAULT_LIMITS and says whether it fits in them.
// Timings include everything a program costs in real use: reading, analysis, compilation and
// evaluation. See docs/benchmarks.md. Run after building @ptc/lisp (`pnpm bench` does).
// Progress goes to stderr (one line rewritten on a terminal), the report to stdout.
//   node packages/lisp/bench/data-programs.bench.mjs [--mode warm|fresh|both]
//     [--sizes 1000,10000] [--case filter] [--json out.json] [--fresh-runs 15,9,5]
//     [--slow-ms 5000] [--cap-ms 20000] [--warmup-ms 300] [--module path/to/index.js]
//     [--quickjs-runs 5,3,1] [--no-quickjs] [--no-general]
import { execFileSync } from "node:child_process";
import { statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { answerText } from "./answer.mjs";
import { cases } from "./cases.mjs";
import { makeData } from "./data.mjs";

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
};
const sizes = (option("sizes") ?? "1000,10000,100000").split(",").map(Number);
const only = option("case");
const mode = option("mode") ?? "both";
if (!["warm", "fresh", "both"].includes(mode))
  throw new Error(`--mode must be warm, fresh or both, got ${mode}`);
const warmMode = mode !== "fresh";
const freshMode = mode !== "warm";
/** Fresh runs per case at up to 1k, up to 10k, and more rows. */
const freshRuns = (option("fresh-runs") ?? "15,9,5").split(",").map(Number);
const runsFor = (rows) => (rows <= 1000 ? freshRuns[0] : rows <= 10000 ? freshRuns[1] : freshRuns[2]);
/** A case whose first run takes longer than this is timed by that one run alone. */
const slowMs = Number(option("slow-ms") ?? 5000);
/** A first or default-limits run still going after this long is stopped (its worker terminated). */
const capMs = Number(option("cap-ms") ?? 20000);
/**
 * Warm mode runs each side untimed for at least this long (and at least 3 times) before timing:
 * long enough for V8 to have optimized a small program's generated code, which takes a few
 * hundred runs of a program that does little work per run (measured: `unit` reaches TurboFan
 * after about 330 runs of "interleave partition take" at 10k rows).
 */
const warmupMs = Number(option("warmup-ms") ?? 300);
/** QuickJS runs per case at up to 1k, up to 10k, and more rows (it takes seconds at 100k rows). */
const quickjsRuns = (option("quickjs-runs") ?? "5,3,1").split(",").map(Number);
const quickjsRunsFor = (rows) =>
  rows <= 1000 ? quickjsRuns[0] : rows <= 10000 ? quickjsRuns[1] : quickjsRuns[2];
const withQuickjs = !args.includes("--no-quickjs");
const withGeneral = !args.includes("--no-general");
const moduleOption = option("module");
const modulePath =
  moduleOption === undefined
    ? new URL("../dist/index.js", import.meta.url).href
    : moduleOption.startsWith("file:")
      ? moduleOption
      : pathToFileURL(moduleOption).href;
const { run, toJson, DEFAULT_LIMITS } = await import(modulePath);
// The code-mode peer: one WebAssembly module for the process (as a host would load it once), a new
// context (and runtime) per run.
const QuickJS = withQuickjs ? await (await import("quickjs-emscripten")).getQuickJS() : undefined;

// Generous limits: the timings measure speed, not the sandbox's default budgets (the defaults
// column does that).
const limits = {
  timeoutMs: 120_000,
  maxIterations: 10_000_000,
  maxMemoryBytes: 4_000_000_000,
  maxDepth: 10_000,
};

const median = (times) => [...times].sort((x, y) => x - y)[Math.floor(times.length / 2)];
const geometricMean = (ratios) =>
  ratios.length === 0
    ? Number.NaN
    : Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length);

let nonceCounter = 0;
/** A number no program text of this process has used: each fresh program is new text. */
const nextNonce = () => ++nonceCounter;

/**
 * The case's JavaScript compiled from its text, as a JS sandbox would compile a program a model
 * wrote. The nonce comment makes the text new, so V8's compilation cache misses and the code
 * starts cold (no bytecode, no feedback, no optimized code from earlier runs).
 */
function compileJs(benchCase, nonce) {
  return new Function(`"use strict";\nreturn (${benchCase.js.toString()}); // fresh ${nonce}`)();
}

const problems = [];
/**
 * A case that cannot be timed. A wrong answer (or JS that cannot be recompiled) fails the bench; a
 * program that stops with an error even under generous limits is a finding, reported and counted.
 */
function problem(rows, benchCase, message) {
  problems.push(`${rows} rows, ${benchCase.name}: ${message}`);
  if (!message.startsWith("FAILED")) process.exitCode = 1;
}

/**
 * First runs and default-limit runs go to a worker thread: a program that outlives its timeout
 * (a builtin that reads no clock) cannot be stopped in this thread, but a worker can be terminated.
 */
class Checker {
  constructor(rows) {
    this.rows = rows;
    this.worker = undefined;
  }

  async run(source, uses, runLimits) {
    if (this.worker === undefined) {
      this.worker = new Worker(new URL("./check-worker.mjs", import.meta.url), {
        workerData: { modulePath, rows: this.rows },
      });
      await new Promise((resolve, reject) => {
        this.worker.once("message", resolve);
        this.worker.once("error", reject);
      });
    }
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        worker.removeAllListeners();
        void worker.terminate();
        this.worker = undefined;
        resolve({ killed: true, ms: capMs });
      }, capMs);
      worker.once("message", (message) => {
        clearTimeout(timer);
        worker.removeAllListeners("error");
        resolve(message);
      });
      worker.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      worker.postMessage({ source, uses, limits: runLimits });
    });
  }

  close() {
    void this.worker?.terminate();
  }
}

/**
 * Median warm times in ms of each side (`{ lisp, js, general }`: functions, possibly async). The
 * sides alternate, run after run, until about `budgetMs` is spent (at least 7 runs each), so that
 * drift in machine load hits them alike.
 */
async function measureWarm(sides, budgetMs) {
  const names = Object.keys(sides);
  // Warm up the JIT on every side, in turns, as the timed runs go.
  const warmupStart = performance.now();
  for (
    let i = 0;
    i < 3 || (performance.now() - warmupStart < (warmupMs * names.length) / 2 && i < 5000);
    i++
  ) {
    for (const name of names) await sides[name]();
  }
  const times = Object.fromEntries(names.map((name) => [name, []]));
  const start = performance.now();
  while (times.js.length < 7 || (performance.now() - start < budgetMs && times.js.length < 300)) {
    for (const name of names) {
      const t0 = performance.now();
      await sides[name]();
      times[name].push(performance.now() - t0);
    }
  }
  return {
    ...Object.fromEntries(names.map((name) => [`${name}Ms`, median(times[name])])),
    runs: times.js.length,
  };
}

// No forced garbage collection before a fresh run: after a `gc()` V8 spends about 0.2 ms getting
// going again (measured on a trivial function), which would swamp the 1k-row runs of both sides.

/** One fresh JavaScript run: new text compiled and run over a new copy of the data. */
function freshJs(entry, copyData) {
  const data = copyData(entry.benchCase.uses);
  const nonce = nextNonce();
  const t0 = performance.now();
  const value = compileJs(entry.benchCase, nonce)(data, entry.rows);
  return { ms: performance.now() - t0, value };
}

/** One fresh Lisp run: a program text never run before, over a new copy of the data. */
async function freshLisp(entry, copyData, engine) {
  const source = entry.benchCase.lisp(entry.rows, nextNonce());
  const data = copyData(entry.benchCase.uses);
  const options = engine === undefined ? { context: data, limits } : { context: data, limits, engine };
  const t0 = performance.now();
  const result = await run(source, options);
  return { ms: performance.now() - t0, result };
}

/**
 * One run of the code-mode peer: the case's JavaScript in a new QuickJS context, as a code-mode
 * runtime runs a program a model wrote. The host's data goes in as JSON text (stringified from the
 * host's objects, parsed inside), the answer comes out as JSON text (parsed by the host). A
 * deadline and a memory cap are set, as a sandbox would set them. Everything is timed but loading
 * the WebAssembly module, which a host does once.
 */
function quickjsRun(entry, copyData) {
  const data = copyData(entry.benchCase.uses);
  const source = `JSON.stringify((${entry.benchCase.js.toString()})(JSON.parse(globalThis.input), ${entry.rows})) // ${nextNonce()}`;
  const t0 = performance.now();
  const context = QuickJS.newContext();
  try {
    const deadline = Date.now() + limits.timeoutMs;
    context.runtime.setInterruptHandler(() => Date.now() > deadline);
    context.runtime.setMemoryLimit(2 ** 31);
    const input = context.newString(JSON.stringify(data));
    context.setProp(context.global, "input", input);
    input.dispose();
    const handle = context.unwrapResult(context.evalCode(source));
    const text = context.getString(handle);
    handle.dispose();
    const value = text === undefined ? undefined : JSON.parse(text);
    return { ms: performance.now() - t0, value };
  } finally {
    context.dispose();
  }
}

/** Checks one case against JS, and under DEFAULT_LIMITS, before anything is timed. */
async function check(entry, checker, copyData) {
  const { benchCase, rows } = entry;
  entry.expected = answerText(benchCase.js(copyData(benchCase.uses), rows));
  if (answerText(compileJs(benchCase, 0)(copyData(benchCase.uses), rows)) !== entry.expected) {
    entry.error = "JS recompiled from its text gives another answer (does it use a module-level name?)";
    return;
  }
  const first = await checker.run(benchCase.lisp(rows, nextNonce()), benchCase.uses, limits);
  entry.firstMs = first.ms;
  entry.killed = first.killed === true;
  entry.slow = entry.killed || first.ms > slowMs;
  if (!entry.killed && !first.ok) {
    entry.error = `FAILED: ${first.reason}: ${first.message}`;
    // What fails under generous limits fails under the defaults too.
    entry.defaults = `fails: ${first.reason}`;
    entry.defaultsMessage = `${first.message} (even under generous limits)`;
    return;
  }
  if (!entry.killed && first.answer !== entry.expected) {
    entry.error = `WRONG ANSWER: ${first.answer.slice(0, 120)} vs ${entry.expected.slice(0, 120)}`;
    return;
  }
  const underDefaults = await checker.run(benchCase.lisp(rows, nextNonce()), benchCase.uses, DEFAULT_LIMITS);
  const seconds = `${(underDefaults.ms / 1000).toFixed(1)} s`;
  if (underDefaults.killed) {
    entry.defaults = "fails: outlives timeout";
    entry.defaultsMessage = `still running after ${seconds} under a ${DEFAULT_LIMITS.timeoutMs} ms timeout (stopped by the bench)`;
  } else if (underDefaults.ms > DEFAULT_LIMITS.timeoutMs * 1.1) {
    entry.defaults = "fails: outlives timeout";
    entry.defaultsMessage = `${underDefaults.ok ? "finished" : `stopped (${underDefaults.reason})`} after ${seconds} under a ${DEFAULT_LIMITS.timeoutMs} ms timeout`;
  } else if (!underDefaults.ok) {
    entry.defaults = `fails: ${underDefaults.reason}`;
    entry.defaultsMessage = underDefaults.message;
  } else if (!entry.killed && underDefaults.answer !== entry.expected) {
    entry.defaults = "WRONG ANSWER";
    entry.error = "wrong answer under DEFAULT_LIMITS";
  } else {
    entry.defaults = "ok";
  }
}

function pad(text, width) {
  return String(text).padStart(width);
}

/**
 * A size takes a minute or more: say what is running, on stderr so that stdout stays the report.
 * On a terminal one line is rewritten in place; elsewhere (CI logs) each phase gets one line.
 */
const interactive = process.stderr.isTTY === true;
let lastPhase = "";
function progress(phase, detail = "") {
  if (interactive) {
    const line = `${phase}${detail === "" ? "" : ` ${detail}`}`;
    process.stderr.write(`\r\x1b[2K${line.slice(0, (process.stderr.columns ?? 100) - 1)}`);
  } else if (phase !== lastPhase) {
    process.stderr.write(`${phase}\n`);
  }
  lastPhase = phase;
}
function progressDone() {
  if (interactive && lastPhase !== "") process.stderr.write("\r\x1b[2K");
  lastPhase = "";
}
const ms = (value) =>
  value === undefined
    ? ""
    : value >= 100
      ? value.toFixed(0)
      : value >= 10
        ? value.toFixed(1)
        : value.toPrecision(3);
const ratioText = (value) =>
  value === undefined || Number.isNaN(value) ? "–" : `${value >= 100 ? value.toFixed(0) : value.toFixed(2)}x`;

function git(...gitArgs) {
  try {
    return execFileSync("git", gitArgs, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

// Which sources the module was built from is known only for this package's own dist.
const ownModule = moduleOption === undefined;
const modified = ownModule
  ? git("status", "--porcelain", "--", fileURLToPath(new URL("../src", import.meta.url)))
  : undefined;
const machine = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: os.cpus()[0]?.model ?? "unknown",
  cores: os.availableParallelism?.() ?? os.cpus().length,
  // Other work on the machine shows up in the figures: the load is recorded with them.
  loadAtStart: os.loadavg().map((load) => Number(load.toFixed(2))),
  module: modulePath,
  moduleBuilt: modulePath.startsWith("file:")
    ? statSync(fileURLToPath(modulePath)).mtime.toISOString()
    : undefined,
  head: ownModule ? (git("rev-parse", "--short", "HEAD") ?? "unknown") : undefined,
  sourcesModified: modified === undefined ? undefined : modified !== "",
};
console.log(
  `${machine.date}  node ${machine.node}  ${machine.cores} cores (${machine.cpu})  load ${machine.loadAtStart.join(" ")}`,
);
console.log(
  `module ${machine.module} built ${machine.moduleBuilt ?? "?"}${machine.head === undefined ? "" : `; HEAD ${machine.head}`}${machine.sourcesModified ? " (packages/lisp/src has uncommitted changes)" : ""}`,
);
console.log(`mode ${mode}; fresh runs per case ${freshRuns.join("/")}; warm-up ${warmupMs} ms per case`);
console.log(
  `"under DEFAULT_LIMITS": each case run once with timeoutMs ${DEFAULT_LIMITS.timeoutMs}, maxIterations ${DEFAULT_LIMITS.maxIterations}, maxMemoryBytes ${DEFAULT_LIMITS.maxMemoryBytes}, maxDepth ${DEFAULT_LIMITS.maxDepth}`,
);

const results = [];
const summary = [];
for (const rows of sizes) {
  const data = makeData(rows);
  // Fresh copies come from JSON text, as a tool result does; parsed outside the timed regions.
  const texts = Object.fromEntries(Object.entries(data).map(([key, value]) => [key, JSON.stringify(value)]));
  const copyData = (keys) => Object.fromEntries(keys.map((key) => [key, JSON.parse(texts[key])]));
  const entries = cases
    .filter((benchCase) => only === undefined || benchCase.name.includes(only))
    .map((benchCase) => ({ benchCase, rows }));

  const sizeLabel = `${rows.toLocaleString("en")} rows`;
  const checker = new Checker(rows);
  for (const [index, entry] of entries.entries()) {
    progress(
      `${sizeLabel}: checking answers and default limits`,
      `${index + 1}/${entries.length} ${entry.benchCase.name}`,
    );
    await check(entry, checker, copyData);
    if (entry.error !== undefined) problem(rows, entry.benchCase, entry.error);
  }
  checker.close();
  const timed = entries.filter((entry) => entry.error === undefined);

  if (freshMode) {
    // Round robin over the cases, so that between two runs of one case the runtime's builtins see
    // other programs and other data, as they do in an agent.
    const samples = new Map(
      timed.map((entry) => [
        entry,
        { lisp: entry.slow ? [entry.firstMs] : [], js: [], general: [], quickjs: [] },
      ]),
    );
    for (let round = 0; round < runsFor(rows); round++) {
      progress(`${sizeLabel}: timing fresh programs`, `round ${round + 1}/${runsFor(rows)}`);
      for (const entry of timed) {
        // Each side goes first every other round: neither always pays for the other's garbage.
        const sides = round % 2 === 0 ? ["lisp", "js"] : ["js", "lisp"];
        if (withGeneral && !entry.slow) sides.push("general");
        if (withQuickjs && round < quickjsRunsFor(rows)) sides.push("quickjs");
        for (const side of sides) {
          if (entry.error !== undefined) break;
          if (side === "quickjs") {
            const { ms: quickjsMs, value } = quickjsRun(entry, copyData);
            if (answerText(value) !== entry.expected) {
              entry.error = "QuickJS run: wrong answer";
              problem(rows, entry.benchCase, entry.error);
            }
            samples.get(entry).quickjs.push(quickjsMs);
          } else if (side === "general") {
            const { ms: generalMs, result } = await freshLisp(entry, copyData, "general");
            if (!result.ok || answerText(toJson(result.value)) !== entry.expected) {
              entry.error = `fresh general run: ${result.ok ? "wrong answer" : `${result.error.reason}: ${result.error.message}`}`;
              problem(rows, entry.benchCase, entry.error);
            }
            samples.get(entry).general.push(generalMs);
          } else if (side === "js") {
            const { ms: jsMs, value } = freshJs(entry, copyData);
            if (answerText(value) !== entry.expected) {
              entry.error = "fresh JS run: wrong answer";
              problem(rows, entry.benchCase, entry.error);
            }
            samples.get(entry).js.push(jsMs);
          } else if (!entry.slow) {
            const { ms: lispMs, result } = await freshLisp(entry, copyData);
            if (!result.ok || answerText(toJson(result.value)) !== entry.expected) {
              entry.error = `fresh run: ${result.ok ? "wrong answer" : `${result.error.reason}: ${result.error.message}`}`;
              problem(rows, entry.benchCase, entry.error);
            }
            samples.get(entry).lisp.push(lispMs);
          }
        }
      }
    }
    for (const entry of timed) {
      if (entry.error !== undefined) continue;
      const { lisp, js, general, quickjs } = samples.get(entry);
      const lispMs = median(lisp);
      const jsMs = median(js);
      entry.fresh = { lispMs, jsMs, ratio: lispMs / jsMs, runs: lisp.length };
      if (general.length > 0) {
        const generalMs = median(general);
        Object.assign(entry.fresh, { generalMs, generalRatio: generalMs / jsMs });
      }
      if (quickjs.length > 0) {
        const quickjsMs = median(quickjs);
        Object.assign(entry.fresh, {
          quickjsMs,
          quickjsRatio: quickjsMs / jsMs,
          quickjsOverLisp: quickjsMs / lispMs,
          quickjsRuns: quickjs.length,
        });
      }
    }
  }

  if (warmMode) {
    const budget = rows >= 100000 ? 2000 : 1000;
    for (const [index, entry] of timed.entries()) {
      if (entry.error !== undefined) continue;
      progress(`${sizeLabel}: timing warm programs`, `${index + 1}/${timed.length} ${entry.benchCase.name}`);
      const { benchCase } = entry;
      const context = copyData(benchCase.uses);
      const source = benchCase.lisp(rows, 0);
      // A slow case's one first run stands for its warm time too: compilation is noise next to it.
      const sides = {
        lisp: entry.slow ? async () => {} : () => run(source, { context, limits }),
        js: () => benchCase.js(context, rows),
      };
      if (withGeneral && !entry.slow)
        sides.general = () => run(source, { context, limits, engine: "general" });
      const warm = await measureWarm(sides, budget);
      if (entry.slow) Object.assign(warm, { lispMs: entry.firstMs, runs: 1 });
      entry.warm = { ...warm, ratio: warm.lispMs / warm.jsMs };
      if (warm.generalMs !== undefined) entry.warm.generalRatio = warm.generalMs / warm.jsMs;
    }
  }

  progressDone();
  console.log(`\n${sizeLabel}: median milliseconds per run, and PTC-Lisp's time over JavaScript's`);
  console.log(`${"".padEnd(26)}${pad("warm (same program)", 37)}${pad("fresh (new program)", 57)}`);
  console.log(
    `${"case".padEnd(26)}${pad("lisp ms", 10)}${pad("js ms", 9)}${pad("lisp/js", 9)}${pad("gen./js", 9)}${pad("lisp ms", 12)}${pad("js ms", 9)}${pad("lisp/js", 9)}${pad("gen./js", 9)}${pad("qjs ms", 9)}${pad("qjs/js", 9)}   under DEFAULT_LIMITS`,
  );
  for (const entry of entries) {
    const mark = entry.killed ? " >" : entry.slow ? " *" : "";
    const name = `${entry.benchCase.name}${mark}`;
    const { warm, fresh } = entry;
    if (warm === undefined && fresh === undefined) {
      console.log(`${name.padEnd(26)} ${entry.error ?? ""}`);
    } else {
      console.log(
        `${name.padEnd(26)}${pad(ms(warm?.lispMs), 10)}${pad(ms(warm?.jsMs), 9)}${pad(ratioText(warm?.ratio), 9)}${pad(ratioText(warm?.generalRatio), 9)}${pad(ms(fresh?.lispMs), 12)}${pad(ms(fresh?.jsMs), 9)}${pad(ratioText(fresh?.ratio), 9)}${pad(ratioText(fresh?.generalRatio), 9)}${pad(ms(fresh?.quickjsMs), 9)}${pad(ratioText(fresh?.quickjsRatio), 9)}   ${entry.defaults ?? ""}${entry.error === undefined ? "" : `  ${entry.error}`}`,
      );
    }
    results.push({
      rows,
      case: entry.benchCase.name,
      ...(warm === undefined ? {} : { warm }),
      ...(fresh === undefined ? {} : { fresh }),
      ...(entry.defaults === undefined ? {} : { defaults: entry.defaults }),
      ...(entry.defaultsMessage === undefined ? {} : { defaultsMessage: entry.defaultsMessage }),
      ...(entry.slow ? { slow: true, firstMs: entry.firstMs } : {}),
      ...(entry.killed ? { stoppedAtCap: true } : {}),
      ...(entry.error === undefined ? {} : { error: entry.error }),
    });
  }
  const warmMean = geometricMean(entries.flatMap((entry) => (entry.warm ? [entry.warm.ratio] : [])));
  const freshMean = geometricMean(entries.flatMap((entry) => (entry.fresh ? [entry.fresh.ratio] : [])));
  const meanOf = (mode, key) =>
    geometricMean(entries.flatMap((entry) => (entry[mode]?.[key] === undefined ? [] : [entry[mode][key]])));
  const warmGeneralMean = meanOf("warm", "generalRatio");
  const freshGeneralMean = meanOf("fresh", "generalRatio");
  const quickjsMean = meanOf("fresh", "quickjsRatio");
  const quickjsOverLisp = meanOf("fresh", "quickjsOverLisp");
  // Fresh Lisp against warm JS: how far a new program is from code compiled once and run often.
  const freshVersusWarmJs = geometricMean(
    entries.flatMap((entry) => (entry.fresh && entry.warm ? [entry.fresh.lispMs / entry.warm.jsMs] : [])),
  );
  const lowerBound = entries.some((entry) => entry.killed) ? "≥ " : "";
  const failing = entries.filter((entry) => entry.defaults?.startsWith("fails")).length;
  console.log(
    `${"geometric mean".padEnd(26)}${pad(warmMode ? `${lowerBound}${ratioText(warmMean)}` : "", 28)}${pad(ratioText(warmGeneralMean), 9)}${pad(freshMode ? `${lowerBound}${ratioText(freshMean)}` : "", 30)}${pad(ratioText(freshGeneralMean), 9)}${pad(ratioText(quickjsMean), 18)}   ${failing} of ${entries.length} fail`,
  );
  if (!Number.isNaN(quickjsOverLisp))
    console.log(`${"quickjs / fresh lisp".padEnd(26)}${pad(ratioText(quickjsOverLisp), 58)}`);
  if (freshMode && warmMode) {
    console.log(
      `${"fresh lisp / warm js".padEnd(26)}${pad(`${lowerBound}${ratioText(freshVersusWarmJs)}`, 58)}`,
    );
  }
  if (entries.some((entry) => entry.slow)) {
    console.log(
      `* first run over ${slowMs / 1000} s: that one fresh run stands for both Lisp columns` +
        `${lowerBound === "" ? "" : `; > stopped at the ${capMs / 1000} s cap, so its ratios (and the means) are lower bounds`}`,
    );
  }
  summary.push({
    rows,
    warm: warmMean,
    fresh: freshMean,
    warmGeneral: warmGeneralMean,
    freshGeneral: freshGeneralMean,
    quickjs: quickjsMean,
    quickjsOverLisp,
    freshVersusWarmJs,
    failingUnderDefaults: failing,
    cases: entries.length,
  });
}

const failing = results.filter((result) => result.defaults?.startsWith("fails"));
if (failing.length > 0) {
  console.log("\nunder DEFAULT_LIMITS:");
  for (const result of failing)
    console.log(`  ${result.rows} rows, ${result.case}: ${result.defaultsMessage}`);
}
if (problems.length > 0) console.error(`\n${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
machine.loadAtEnd = os.loadavg().map((load) => Number(load.toFixed(2)));
console.log(`\nload at the end ${machine.loadAtEnd.join(" ")}`);
const out = option("json");
if (out !== undefined) {
  writeFileSync(out, JSON.stringify({ machine, mode, warmupMs, geometricMeans: summary, results }, null, 2));
}
