/**
 * A script that awaits a run, where nothing but the run's own timers keeps Node alive: a run whose
 * provider answers 429 first waits before its retry (the failed call's connection is idle), and a
 * model that hangs without any I/O waits for the mission deadline. Those timers must hold the
 * process open; unref'd, they let Node exit in the middle of the run, with exit code 13 (an
 * unsettled top-level await) and no result. The scripts run in another process, as a user's
 * would; the server answering them runs in this one.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, expect, it } from "vitest";

const directory = mkdtempSync(join(tmpdir(), "ptc-agent-retry-"));
const source = (path: string) => JSON.stringify(fileURLToPath(new URL(path, import.meta.url)));

/** Bundles `contents` (imports resolved from this folder, from source) and runs it with `env`. */
async function runScript(name: string, contents: string, env: Record<string, string> = {}) {
  const script = join(directory, name);
  await build({
    stdin: { contents, resolveDir: fileURLToPath(new URL(".", import.meta.url)), loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: ["@ptc/source"],
    outfile: script,
    logLevel: "warning",
  });
  // Not spawnSync: the server answering the script lives in this process.
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env } });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout: stdout.trim() };
}

const RETRY_SCRIPT = `
import { createAgent, run } from ${source("../index.ts")};
import { createOpenAIModel } from ${source("./index.ts")};

const agent = createAgent({ prompt: "Say hello.", output: "text", llmRetry: { maxAttempts: 2, baseDelayMs: 10 } });
const result = await run(agent, { llm: createOpenAIModel({ model: "test-model", baseURL: process.env.BASE_URL }) });
console.log(JSON.stringify({ answer: result.step.return, fail: result.step.fail ?? null }));
`;

let server: Server;
let requests = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      requests += 1;
      if (requests === 1) {
        response.writeHead(429, { "content-type": "application/json", "retry-after-ms": "300" });
        response.end(JSON.stringify({ error: { message: "slow down" } }));
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "hello" } }] }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(directory, { recursive: true, force: true });
});

it("a script's run waits out a Retry-After and answers, instead of exiting mid-run", {
  timeout: 60_000,
}, async () => {
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  expect(await runScript("retry.mjs", RETRY_SCRIPT, { BASE_URL: baseURL })).toEqual({
    code: 0,
    stdout: JSON.stringify({ answer: "hello", fail: null }),
  });
  expect(requests).toBe(2);
});

const HUNG_MODEL_SCRIPT = `
import { createAgent, run } from ${source("../index.ts")};
import { fromLanguageModel } from ${source("../ai-sdk/index.ts")};

// A LanguageModelV3 whose stream never sends a part, and which holds no socket or timer.
const model = {
  specificationVersion: "v3",
  provider: "hung",
  modelId: "hung",
  supportedUrls: {},
  doGenerate: () => new Promise(() => {}),
  doStream: async () => ({ stream: new ReadableStream({}) }),
};
const agent = createAgent({ prompt: "Say hello.", output: "text", missionTimeout: 300 });
const result = await run(agent, { llm: fromLanguageModel(model), onChunk: () => {} });
console.log(JSON.stringify({ fail: result.step.fail?.reason }));
`;

it("a script's run on a model that hangs without I/O ends at its mission timeout, instead of exiting", {
  timeout: 60_000,
}, async () => {
  expect(await runScript("hung.mjs", HUNG_MODEL_SCRIPT)).toEqual({
    code: 0,
    stdout: JSON.stringify({ fail: "mission_timeout" }),
  });
});
