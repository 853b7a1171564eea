/**
 * A paused run's state written to a file, and resumed by another Node process that builds the
 * same agent definition: the calls made before the pause are not made again, the approved calls
 * run once, and the state's signature is checked over there. The calls of both processes go to
 * one log file, which counts them.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, expect, it } from "vitest";
import { run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { REFUND_PROGRAM, refundAgent } from "./__fixtures__/refund-agent.js";
import { fence } from "./__fixtures__/refund-tools.js";

const directory = mkdtempSync(join(tmpdir(), "ptc-agent-approvals-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const SECRET = "a-secret-both-processes-know-0123456789";
const source = (path: string) => JSON.stringify(fileURLToPath(new URL(path, import.meta.url)));

/** The other process: reads the state file, resumes with every pending call approved. */
const RESUMER = `
import { readFileSync } from "node:fs";
import { resume } from ${source("../index.ts")};
import { createScriptedModel } from ${source("../testing/index.ts")};
import { refundAgent } from ${source("./__fixtures__/refund-agent.ts")};

const state = JSON.parse(readFileSync(process.env.STATE_FILE, "utf8"));
const agent = refundAgent(process.env.LOG_FILE);
const model = createScriptedModel([]);
const result = await resume(agent, state, {
  llm: model.llm,
  approve: state.pending.map((call) => call.id),
  stateSecret: process.env.STATE_SECRET,
});
console.log(JSON.stringify({ ok: result.ok, answer: result.step.return, fail: result.step.fail, pid: process.pid }));
`;

it("resumes in a new process with the same agent definition; every call runs exactly once", {
  timeout: 120_000,
}, async () => {
  const logFile = join(directory, "calls.jsonl");
  const stateFile = join(directory, "state.json");
  writeFileSync(logFile, "");
  const model = createScriptedModel([fence(REFUND_PROGRAM)]);
  const first = await run(refundAgent(logFile), { llm: model.llm, stateSecret: SECRET });
  if (!first.paused) throw new Error(`expected a pause, got ${JSON.stringify(first.step.fail)}`);
  expect(first.pending.map((call) => call.args)).toEqual([
    { id: 7, amount: 70 },
    { id: 9, amount: 15 },
  ]);
  writeFileSync(stateFile, JSON.stringify(first.state));

  const script = join(directory, "resume.mjs");
  await build({
    stdin: { contents: RESUMER, resolveDir: fileURLToPath(new URL(".", import.meta.url)), loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: ["@ptc/source"],
    outfile: script,
    logLevel: "warning",
  });
  const child = spawnSync(process.execPath, [script], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, STATE_FILE: stateFile, LOG_FILE: logFile, STATE_SECRET: SECRET },
  });
  expect(child.stderr).toBe("");
  expect(child.status).toBe(0);
  const resumed = JSON.parse(child.stdout);
  expect(resumed).toMatchObject({ ok: true, answer: [{ refunded: 7 }, { refunded: 9 }] });
  expect(resumed.pid).not.toBe(process.pid);

  const calls = readFileSync(logFile, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const here = (pid: number) => (pid === process.pid ? "this process" : "the other process");
  expect(calls.map((call) => [call.tool, call.args.id, here(call.pid)]).sort()).toEqual([
    ["get_order", 7, "this process"],
    ["get_order", 9, "this process"],
    ["refund", 7, "the other process"],
    ["refund", 9, "the other process"],
  ]);
});
