/**
 * The Web Worker that runs programs, so that the page stays responsive whatever a program does:
 * the page terminates this worker when a run outlives its time limit (runner.ts). It reads the
 * code-generation setting of each request before running, so with "off" @ptc/lisp never tries
 * `new Function`, and a page under a strict Content-Security-Policy sees no violation.
 */
import {
  codeGenerationStatus,
  type ErrorReason,
  format,
  type LispError,
  type RunResult,
  run,
  setCodeGeneration,
  toJson,
} from "@ptc/lisp";
import { prettyValue } from "./pretty-value.js";
import type { RunReply, RunRequest, WorkerReply } from "./run-protocol.js";

const scope = globalThis as unknown as {
  postMessage(message: WorkerReply): void;
  addEventListener(
    type: string,
    listener: (event: MessageEvent & SecurityPolicyViolationEvent) => void,
  ): void;
};

function reply(request: RunRequest, result: RunResult): RunReply {
  const base = {
    type: "result" as const,
    id: request.id,
    prints: result.prints,
    toolCalls: result.toolCalls.map((call) => ({ name: call.name, args: toJson(call.args) })),
    warnings: result.warnings,
    durationMs: result.durationMs,
    usage: result.usage ?? null,
    codeGeneration: codeGenerationStatus(),
  };
  if (!result.ok) {
    const { reason, message, line, column } = result.error;
    return { ...base, ok: false, error: { reason, message, line: line ?? null, column: column ?? null } };
  }
  let shown: { value: string; json: string };
  try {
    shown = {
      value: prettyValue(format(result.value)),
      json: JSON.stringify(toJson(result.value), null, 2),
    };
  } catch (error) {
    return { ...base, ok: false, error: { ...unshowable(error), line: null, column: null } };
  }
  return { ...base, ok: true, ...shown, returned: result.returned };
}

/**
 * Why a value cannot be shown. toJson refuses shared structure past its bound with a LispError;
 * JSON.stringify recurses, so a value nested some thousands deep (which format and toJson walk
 * without recursing) runs it out of stack, and a huge one out of string length.
 */
function unshowable(error: unknown): { reason: ErrorReason; message: string } {
  const { reason, message } = error as Partial<LispError>;
  if (typeof reason === "string" && typeof message === "string") return { reason, message };
  if (!(error instanceof RangeError)) throw error;
  return /call stack/i.test(error.message)
    ? {
        reason: "recursion_limit_exceeded",
        message: "the value is nested too deep to show as JSON; return a flatter value",
      }
    : { reason: "memory_exceeded", message: "the value is too large to show; return a smaller value" };
}

async function runRequest(request: RunRequest): Promise<RunReply> {
  setCodeGeneration(request.codeGeneration);
  const tools = Object.fromEntries(
    Object.entries(request.tools).map(([name, result]) => [name, () => result]),
  );
  try {
    const result = await run(request.program, { context: request.context, tools, limits: request.limits });
    return reply(request, result);
  } catch (error) {
    // `run` throws only for options it refuses (a limit that is not a number, say): say which.
    const { reason, message } = error as LispError;
    return {
      type: "result",
      id: request.id,
      ok: false,
      error: { reason: reason ?? "invalid_options", message: String(message), line: null, column: null },
      prints: [],
      toolCalls: [],
      warnings: [],
      durationMs: 0,
      usage: null,
      codeGeneration: codeGenerationStatus(),
    };
  }
}

scope.addEventListener("message", (event) => {
  const request = event.data as RunRequest;
  if (request?.type !== "run") return;
  void runRequest(request).then((message) => scope.postMessage(message));
});

scope.addEventListener("securitypolicyviolation", (event) => {
  scope.postMessage({
    type: "csp-violation",
    directive: event.effectiveDirective,
    blockedURI: event.blockedURI,
  });
});

scope.postMessage({ type: "ready" });
