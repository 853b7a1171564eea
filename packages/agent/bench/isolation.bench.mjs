#!/usr/bin/env node
// What worker isolation costs an agent, per program and per run, against running programs on the
// host's thread. Run after `pnpm build` (it loads the built packages):
//   node packages/agent/bench/isolation.bench.mjs [--rounds 20] [--json out.json]
// Prints medians (and the 90th percentile) in milliseconds, with the machine's load, for:
//   - a worker's start: the first program of a run (thread start, loading @ptc/lisp in it);
//   - one more program on a run's worker: a trivial one, one over 1k/10k/100k context rows, and
//     the same with the context copied for every program (what reuseContext avoids);
//   - a tool call's round trip from a program to the host and back;
//   - a whole agent run (3 turns, tools, memory) with and without isolation;
//   - how long `signal` takes to stop a CPU-bound program (on the host's thread it cannot).
// See docs/isolation.md ("Costs") for the figures and what they decided.
import { writeFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
};
const rounds = Number(option("rounds") ?? 20);
const jsonPath = option("json");

const { createSession, run: runOnHost } = await import("@ptc/lisp");
const { createIsolatedRunner, runIsolated } = await import("@ptc/lisp/node");
const { createAgent, run } = await import("@ptc/agent");
const { createScriptedModel } = await import("@ptc/agent/testing");
const { createWorkerIsolation } = await import("@ptc/agent/node");

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9), n: sorted.length };
}

async function measure(body, n = rounds) {
  await body(); // warm-up
  const samples = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await body();
    samples.push(performance.now() - started);
  }
  return stats(samples);
}

const results = [];
function report(name, value) {
  results.push({ name, ...value });
  console.log(
    `${name.padEnd(58)} ${value.median.toFixed(2).padStart(9)} ms  (p90 ${value.p90.toFixed(2)}, n ${value.n})`,
  );
}

const rows = (n) =>
  Array.from({ length: n }, (_, i) => ({ id: i, amount: i % 100, region: `r${i % 7}`, ok: i % 3 === 0 }));
const DATA_PROGRAM = "(->> data/rows (filter :ok) (map :amount) (reduce +))";

console.log(
  `node ${process.version}, ${os.cpus().length} cpus (${os.cpus()[0]?.model ?? "?"}), load average ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(" ")}, ${rounds} rounds`,
);

// A worker's start: what the first program of an isolated run pays.
report(
  "worker start + first program (createIsolatedRunner)",
  await measure(async () => {
    const runner = createIsolatedRunner();
    await runner.run("(+ 1 2)");
    await runner.close();
  }),
);
report("runIsolated (a worker per program)", await measure(() => runIsolated("(+ 1 2)")));

// One more program on a run's worker.
{
  const runner = createIsolatedRunner({ reuseContext: true });
  report(
    "trivial program: host thread",
    await measure(() => runOnHost("(+ 1 2)", { session: createSession() })),
  );
  report(
    "trivial program: run's worker",
    await measure(() => runner.run("(+ 1 2)", { session: createSession() })),
  );
  for (const size of [1_000, 10_000, 100_000]) {
    const context = { rows: rows(size) };
    const copying = createIsolatedRunner();
    const n = size >= 100_000 ? Math.min(rounds, 8) : rounds;
    report(`${size} rows: host thread`, await measure(() => runOnHost(DATA_PROGRAM, { context }), n));
    report(
      `${size} rows: run's worker, context reused`,
      await measure(() => runner.run(DATA_PROGRAM, { context }), n),
    );
    report(
      `${size} rows: run's worker, context copied each time`,
      await measure(() => copying.run(DATA_PROGRAM, { context }), n),
    );
    await copying.close();
  }
  // A tool call's round trip: 100 calls in one program, per call.
  const tools = { echo: ({ x }) => x };
  const program = "(reduce + (map (fn [i] (tool/echo {:x i})) (range 100)))";
  const host = await measure(() => runOnHost(program, { tools }));
  const worker = await measure(() => runner.run(program, { tools }));
  report("tool call: host thread (per call)", scale(host, 1 / 100));
  report("tool call: run's worker (per call)", scale(worker, 1 / 100));
  await runner.close();
}

function scale(value, factor) {
  return { median: value.median * factor, p90: value.p90 * factor, n: value.n };
}

// A whole agent run: three turns over a 10k-row context, a tool, memory carried across turns.
{
  const fence = (program) => `\`\`\`clojure\n${program}\n\`\`\``;
  const context = { rows: rows(10_000) };
  const script = () =>
    createScriptedModel([
      fence("(def ok-rows (filter :ok data/rows)) (count ok-rows)"),
      fence("(defn total [rs] (reduce + (map :amount rs))) (def t (total ok-rows)) (tool/lookup {:id 1})"),
      fence("(return {:total t :n (count ok-rows)})"),
    ]);
  const tools = { lookup: ({ id }) => ({ id, name: "Ada" }) };
  const onHost = createAgent({ prompt: "p", tools });
  const isolated = createAgent({ prompt: "p", tools, isolation: createWorkerIsolation() });
  const n = Math.min(rounds, 12);
  report(
    "agent run, 3 turns, 10k rows: host thread",
    await measure(() => run(onHost, { llm: script().llm, context }), n),
  );
  report(
    "agent run, 3 turns, 10k rows: worker isolation",
    await measure(() => run(isolated, { llm: script().llm, context }), n),
  );
}

// How long `signal` takes to stop a CPU-bound program under isolation.
{
  const samples = [];
  for (let i = 0; i < Math.min(rounds, 10); i++) {
    const runner = createIsolatedRunner();
    const controller = new AbortController();
    let abortedAt = 0;
    const tools = {
      go: () => {
        setTimeout(() => {
          abortedAt = performance.now();
          controller.abort();
        }, 20);
        return true;
      },
    };
    const result = await runner.run("(tool/go {}) (loop [i 0] (recur (inc i)))", {
      tools,
      signal: controller.signal,
      limits: { timeoutMs: 600_000, maxIterations: Number.POSITIVE_INFINITY },
    });
    samples.push(performance.now() - abortedAt);
    if (result.ok || result.error.reason !== "aborted") throw new Error("the program was not aborted");
    await runner.close();
  }
  report("abort of a CPU-bound program: signal to settled", stats(samples));
}

if (jsonPath !== undefined) {
  writeFileSync(jsonPath, JSON.stringify({ node: process.version, load: os.loadavg(), results }, null, 2));
}
