import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, test } from "vitest";
import { createAgent, createJsonlTranscript, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

// `gc` is not exposed to tests by default; this turns it on for this process.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const fence = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;
const rows = Array.from({ length: 500 }, (_, id) => ({ id, level: id % 7 === 0 ? "error" : "info" }));

function oneRun() {
  const model = createScriptedModel([
    fence('(def errors (filter #(= (:level %) "error") (tool/logs {})))\n(println (count errors))'),
    fence("(return (count errors))"),
  ]);
  const agent = createAgent({ prompt: "Count errors", signature: ":int", tools: { logs: () => rows } });
  return run(agent, { llm: model.llm, collectMessages: true, onEvent: () => undefined });
}

test("300 runs in one process leave no heap growth behind after GC", async () => {
  for (let i = 0; i < 20; i++) await oneRun(); // warm up: compiled programs, JIT, caches
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 300; i++) {
    const result = await oneRun();
    expect(result.step.return).toBe(72);
  }
  gc();
  const growth = process.memoryUsage().heapUsed - before;
  // A leak of even one step per run (messages, turns, a 500-row tool result) would be well over this.
  expect(growth).toBeLessThan(8 * 1024 * 1024);
});

test("a transcript is complete on a failure path: every request, the failure and the final step", async () => {
  const transcript = createJsonlTranscript();
  const model = createScriptedModel([fence("(def x 1)"), new Error("upstream 503")]);
  const result = await run(createAgent({ prompt: "p" }), { llm: model.llm, transcript: transcript.write });
  expect(result.step.fail?.reason).toBe("llm_error");
  const records = transcript.lines.map((line) => JSON.parse(line));
  expect(records.filter((record) => record.type === "request")).toHaveLength(2);
  expect(records.filter((record) => record.type === "response")).toHaveLength(1);
  expect(records.find((record) => record.type === "model-error")?.message).toContain("upstream 503");
  const last = records.at(-1);
  expect(last.type).toBe("step");
  expect(last.ok).toBe(false);
  expect(last.step.turns).toHaveLength(1);
  expect(last.step.fail.reason).toBe("llm_error");
});
