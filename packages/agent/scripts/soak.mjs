#!/usr/bin/env node
// Soak: many agent runs in one process, then the heap after garbage collection. Run after
// `pnpm build`:  node --expose-gc packages/agent/scripts/soak.mjs [--runs 1000]
// Prints the heap before and after and exits non-zero if it grew by more than --max-mb (default 16).
import { createAgent, run } from "../dist/index.js";
import { createScriptedModel } from "../dist/testing/index.js";

const argument = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const runs = argument("runs", 1000);
const maxMb = argument("max-mb", 16);
if (typeof globalThis.gc !== "function") {
  console.error("run with node --expose-gc");
  process.exit(2);
}
const fence = (program) => `\`\`\`clojure\n${program}\n\`\`\``;
const rows = Array.from({ length: 1000 }, (_, id) => ({ id, level: id % 7 === 0 ? "error" : "info" }));

async function oneRun(i) {
  const model = createScriptedModel([
    fence('(def errors (filter #(= (:level %) "error") (tool/logs {})))\n(println (count errors))'),
    fence("(return (count errors))"),
  ]);
  const agent = createAgent({ prompt: "Count errors", signature: ":int", tools: { logs: () => rows } });
  const combined = createAgent({
    prompt: "Count errors",
    output: "text",
    ptcTransport: "tool_call",
    tools: { logs: { execute: () => rows, expose: "both", cache: true } },
  });
  const text = createScriptedModel([
    { toolCalls: [{ name: "logs", args: {} }] },
    { toolCalls: [{ name: "lisp_eval", args: { program: "(count (tool/logs {}))" } }] },
    "1000 rows.",
  ]);
  const [a, b] = await Promise.all([
    run(agent, { llm: model.llm, collectMessages: true }),
    run(combined, { llm: text.llm, collectMessages: true }),
  ]);
  if (a.step.return !== 143 || b.step.return !== "1000 rows.") throw new Error(`run ${i} answered wrongly`);
}

for (let i = 0; i < 50; i++) await oneRun(i);
globalThis.gc();
const before = process.memoryUsage().heapUsed;
const started = Date.now();
for (let i = 0; i < runs; i++) await oneRun(i);
globalThis.gc();
const after = process.memoryUsage().heapUsed;
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `${runs} × 2 runs in ${((Date.now() - started) / 1000).toFixed(1)} s; heap after GC ${mb(before)} MB → ${mb(after)} MB (${mb(after - before)} MB)`,
);
process.exit(after - before > maxMb * 1024 * 1024 ? 1 : 0);
