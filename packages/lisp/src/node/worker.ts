/**
 * The isolation worker: runs programs with `run` inside a worker thread, so the host can stop it
 * at any instant (`terminate()`) and cap its heap (`resourceLimits`). Tools stay in the host: each
 * call becomes a message out and a reply in. With `session: true` in its setup, the worker keeps
 * one Session for all its runs.
 *
 * This module must never be imported by the host side; it only makes sense as a worker entry.
 */
import { parentPort, workerData } from "node:worker_threads";
import { LispError } from "../errors.js";
import { type RunResult, run } from "../run.js";
import type { ToolFunction } from "../runtime/context.js";
import { Session } from "../session.js";
import { decodeValue, encodeValue } from "../values/transfer.js";
import type { HostMessage, RunRequest, ToolCallReply, WorkerMessage, WorkerSetup } from "./protocol.js";

const port = parentPort;
if (port === null) throw new Error("@ptc/lisp/node worker.js must be started as a worker thread");

const setup = (workerData ?? { session: false }) as WorkerSetup;
const session = setup.session ? new Session() : undefined;

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const pendingCalls = new Map<number, PendingCall>();
/** The cancel switch of each run in progress, fired by the host's "abort" message. */
const cancellers = new Map<number, AbortController>();
let nextCall = 0;

function send(message: WorkerMessage): void {
  port?.postMessage(message);
}

function hostTool(runId: number, name: string): ToolFunction {
  return (args) =>
    new Promise((resolve, reject) => {
      const call = ++nextCall;
      pendingCalls.set(call, { resolve, reject });
      send({ type: "tool-call", run: runId, call, name, args: encodeValue(args) });
    });
}

function settleCall(reply: ToolCallReply): void {
  const pending = pendingCalls.get(reply.call);
  if (pending === undefined) return;
  pendingCalls.delete(reply.call);
  if (reply.ok) {
    try {
      pending.resolve(decodeValue(reply.value));
    } catch (error) {
      pending.reject(error);
    }
  } else if (reply.reason !== undefined) {
    pending.reject(new LispError(reply.reason, reply.message));
  } else {
    pending.reject(new Error(reply.message));
  }
}

function encodeResult(result: RunResult): unknown {
  try {
    // Its own fields as a plain object: a result's class (result-json.ts) does not cross threads.
    return encodeValue({ ...result });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const reason = error instanceof LispError ? error.reason : "runtime_error";
    return {
      ok: false,
      error: { reason, message },
      prints: result.prints,
      toolCalls: [],
      warnings: result.warnings,
      durationMs: result.durationMs,
    };
  }
}

async function execute(request: RunRequest): Promise<void> {
  const tools: Record<string, ToolFunction> = Object.create(null);
  for (const name of request.tools) tools[name] = hostTool(request.run, name);
  const canceller = new AbortController();
  cancellers.set(request.run, canceller);
  let result: RunResult;
  try {
    const context = decodeValue(request.context) as Record<string, unknown> | undefined;
    const budget = decodeValue(request.budget);
    send({ type: "started", run: request.run });
    result = await run(request.source, {
      ...(context === undefined ? {} : { context }),
      ...(budget === undefined ? {} : { budget }),
      ...(request.limits === undefined ? {} : { limits: request.limits }),
      ...(session === undefined ? {} : { session }),
      tools,
      signal: canceller.signal,
    });
  } catch (error) {
    send({
      type: "fault",
      run: request.run,
      reason: error instanceof LispError ? error.reason : undefined,
      message: error instanceof Error ? error.message : String(error),
    });
    return;
  } finally {
    cancellers.delete(request.run);
  }
  send({ type: "finished", run: request.run });
  send({ type: "result", run: request.run, result: encodeResult(result) });
}

port.on("message", (message: HostMessage) => {
  if (message.type === "run") void execute(message);
  else if (message.type === "tool-result") settleCall(message);
  else if (message.type === "abort") cancellers.get(message.run)?.abort();
});
