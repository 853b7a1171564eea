/**
 * A script that awaits a run whose provider answers 429 first: the run waits before its retry,
 * and nothing else keeps Node alive then (the failed call's connection is idle). The wait must
 * hold the process open; an unref'd timer let Node exit in the middle of the run, with exit code
 * 13 (an unsettled top-level await) and no result. The server runs in this process, the script in
 * another, as a user's would.
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

const SCRIPT = `
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
  const script = join(directory, "retry.mjs");
  await build({
    stdin: { contents: SCRIPT, resolveDir: fileURLToPath(new URL(".", import.meta.url)), loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: ["@ptc/source"],
    outfile: script,
    logLevel: "warning",
  });
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  // Not spawnSync: the server answering the script lives in this process.
  const child = spawn(process.execPath, [script], { env: { ...process.env, BASE_URL: baseURL } });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect({ code, stdout: stdout.trim() }).toEqual({
    code: 0,
    stdout: JSON.stringify({ answer: "hello", fail: null }),
  });
  expect(requests).toBe(2);
});
