/**
 * A program that exhausts memory under worker isolation ends as a failed program the model sees
 * (memory_exceeded), and the host lives on. The agent runs in a child Node process (the agent
 * bundled from its sources), so a host crash fails the test instead of killing the test runner.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, expect, inject, it } from "vitest";

const directory = mkdtempSync(join(tmpdir(), "ptc-agent-isolation-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const source = (path: string) => JSON.stringify(fileURLToPath(new URL(path, import.meta.url)));

const SCRIPT = `
import { createAgent, run } from ${source("../index.ts")};
import { createScriptedModel } from ${source("../testing/index.ts")};
import { createWorkerIsolation } from ${source("./index.ts")};

const fence = (program) => "\`\`\`clojure\\n" + program + "\\n\`\`\`";
const model = createScriptedModel([
  fence("(count (into [] (range 30000000)))"),
  fence('(count (reduce (fn [s _] (pr-str s)) "a" (range 28)))'),
  fence("(return :alive)"),
]);
const agent = createAgent({
  prompt: "p",
  timeout: 120000,
  limits: { maxMemoryBytes: Number.POSITIVE_INFINITY },
  isolation: createWorkerIsolation({ workerUrl: process.env.PTC_WORKER_URL, heapMb: 64 }),
});
const result = await run(agent, { llm: model.llm });
console.log(JSON.stringify({
  answer: result.step.return,
  reasons: result.step.turns.map((turn) => turn.result?.error?.reason ?? null),
  told: /heap limit \\d+ bytes exceeded/.test(model.calls[1].messages.at(-1).content),
}));
`;

it("a program that exhausts memory is a failed turn; the host lives on", { timeout: 300_000 }, async () => {
  const outfile = join(directory, "agent-run.mjs");
  await build({
    stdin: { contents: SCRIPT, resolveDir: fileURLToPath(new URL(".", import.meta.url)), loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: ["@ptc/source"],
    outfile,
    logLevel: "warning",
  });
  const child = spawnSync(process.execPath, [outfile], {
    encoding: "utf8",
    timeout: 240_000,
    env: { ...process.env, PTC_WORKER_URL: inject("isolationWorker").workerUrl },
  });
  expect(child.stderr).not.toMatch(/FATAL|Fatal/);
  expect(child.status).toBe(0);
  expect(JSON.parse(child.stdout)).toEqual({
    answer: "alive",
    reasons: ["memory_exceeded", "memory_exceeded", null],
    told: true,
  });
});
