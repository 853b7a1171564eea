/**
 * The worker's replies, with the worker's global scope stood in for (Node has no Web Worker): a
 * value the worker cannot show must come back as a run error that says why, never as a refusal
 * of the options.
 */
import { beforeAll, describe, expect, test } from "vitest";
import type { RunReply, RunRequest, WorkerReply } from "./run-protocol.js";

const replies: WorkerReply[] = [];
let onMessage: ((event: { data: unknown }) => void) | undefined;

beforeAll(async () => {
  const scope = globalThis as unknown as Record<string, unknown>;
  scope.postMessage = (message: WorkerReply) => replies.push(message);
  scope.addEventListener = (type: string, listener: (event: { data: unknown }) => void) => {
    if (type === "message") onMessage = listener;
  };
  await import("./run-worker.js");
});

let nextId = 1;
async function runInWorker(program: string): Promise<RunReply> {
  const id = nextId++;
  const request: RunRequest = {
    type: "run",
    id,
    program,
    context: {},
    tools: {},
    limits: { timeoutMs: 5000, maxIterations: 1_000_000, maxMemoryBytes: 64_000_000, maxDepth: 1000 },
    codeGeneration: "auto",
  };
  onMessage?.({ data: request });
  for (;;) {
    const found = replies.find((reply) => reply.type === "result" && reply.id === id);
    if (found !== undefined) return found as RunReply;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("run-worker", () => {
  test("answers a program's value as text and JSON", async () => {
    expect(await runInWorker("{:a [1 2]}")).toMatchObject({ ok: true, value: "{:a [1 2]}" });
  });

  test("a value nested too deep for JSON is a recursion_limit_exceeded error, not invalid_options", async () => {
    const reply = await runInWorker("(reduce (fn [v _] [v]) [] (range 100000))");
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error.reason).toBe("recursion_limit_exceeded");
  });
});
