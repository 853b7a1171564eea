/**
 * Checks the options of `run` before anything starts. A wrong option is the caller's mistake and
 * throws `AgentError` naming it; what a run meets later (a model error, a budget) ends the run
 * with `step.fail` instead.
 */
import { describe, isPlainObject } from "../agent/describe.js";
import { AgentError } from "../errors.js";
import { isProgramIsolation } from "../isolation/program-isolation.js";
import { llmRetryProblem } from "../model/model-retry.js";
import { checkHostData } from "./check-host-data.js";
import type { RunOptions } from "./run-options.js";

function invalid(option: string, message: string): AgentError {
  return new AgentError("PTC_AGENT_INVALID_RUN_OPTION", message, { details: { option } });
}

const FUNCTIONS = ["budget", "continuationGuard", "onChunk", "onEvent"] as const;
const POSITIVE = ["tokenLimit", "toolTimeoutMs", "toolCacheLimitBytes", "stateTtlMs"] as const;

export function checkRunOptions(options: RunOptions): void {
  if (!isPlainObject(options))
    throw invalid("options", `run options must be an object, got ${describe(options)}`);
  for (const key of FUNCTIONS) {
    const value = options[key];
    if (value !== undefined && typeof value !== "function") {
      throw invalid(key, `${key} must be a function, got ${describe(value)}`);
    }
  }
  for (const key of POSITIVE) {
    const value = options[key];
    if (value !== undefined && (typeof value !== "number" || !(value > 0))) {
      throw invalid(key, `${key} must be a positive number, got ${describe(value)}`);
    }
  }
  const { llm, trace, signal, onBudgetExceeded, initialMessages, initialMemory, toolCache, llmRetry } =
    options;
  const { isolation, stateSecret, transcript } = options;
  if (
    transcript !== undefined &&
    typeof transcript !== "function" &&
    !(isPlainObject(transcript) && typeof transcript.write === "function")
  ) {
    throw invalid(
      "transcript",
      `transcript must be createJsonlTranscript() (or a function of each record), got ${describe(transcript)}`,
    );
  }
  if (stateSecret !== undefined && (typeof stateSecret !== "string" || stateSecret === "")) {
    throw invalid(
      "stateSecret",
      `stateSecret must be a non-empty string (a random one of 32 characters or more), got ${describe(stateSecret)}`,
    );
  }
  if (isolation !== undefined && isolation !== false && !isProgramIsolation(isolation)) {
    throw invalid(
      "isolation",
      `isolation must be a program isolation such as createWorkerIsolation() from @ptc/agent/node, or false; got ${describe(isolation)}`,
    );
  }
  if (llm !== undefined && typeof llm !== "function" && typeof llm !== "string") {
    throw invalid("llm", `llm must be a model function or a key of llmRegistry, got ${describe(llm)}`);
  }
  if (trace !== undefined && trace !== true && trace !== false && trace !== "on_error") {
    throw invalid("trace", `trace must be true, false or "on_error", got ${describe(trace)}`);
  }
  if (
    signal !== undefined &&
    (typeof signal !== "object" ||
      signal === null ||
      typeof (signal as { aborted?: unknown }).aborted !== "boolean" ||
      typeof (signal as { addEventListener?: unknown }).addEventListener !== "function" ||
      typeof (signal as { removeEventListener?: unknown }).removeEventListener !== "function")
  ) {
    throw invalid("signal", `signal must be an AbortSignal, got ${describe(signal)}`);
  }
  if (
    onBudgetExceeded !== undefined &&
    onBudgetExceeded !== "fail" &&
    onBudgetExceeded !== "return_partial"
  ) {
    throw invalid(
      "onBudgetExceeded",
      `onBudgetExceeded must be "fail" or "return_partial", got ${describe(onBudgetExceeded)}`,
    );
  }
  if (initialMessages !== undefined) {
    if (!Array.isArray(initialMessages)) {
      throw invalid(
        "initialMessages",
        `initialMessages must be an array of messages, got ${describe(initialMessages)}`,
      );
    }
    initialMessages.forEach((message, index) => {
      const ok =
        isPlainObject(message) &&
        ["system", "user", "assistant", "tool"].includes(message.role as string) &&
        typeof message.content === "string";
      if (!ok) {
        throw invalid(
          "initialMessages",
          `initialMessages[${index}] must be { role: "user" | "assistant" | "tool" | "system", content: string }, got ${describe(message)}`,
        );
      }
    });
  }
  if (initialMemory !== undefined && !isPlainObject(initialMemory)) {
    throw invalid(
      "initialMemory",
      `initialMemory must be an object of name → value, got ${describe(initialMemory)}`,
    );
  }
  if (toolCache !== undefined && !(toolCache instanceof Map) && !isPlainObject(toolCache)) {
    throw invalid(
      "toolCache",
      `toolCache must be a Map (as step.toolCache) or an object of key → { result }, got ${describe(toolCache)}`,
    );
  }
  if (llmRetry !== undefined && !isPlainObject(llmRetry)) {
    throw invalid(
      "llmRetry",
      `llmRetry must be an object such as { maxAttempts: 3 }, got ${describe(llmRetry)}`,
    );
  }
  const retryProblem = llmRetry === undefined ? undefined : llmRetryProblem(llmRetry);
  if (retryProblem !== undefined) throw invalid("llmRetry", retryProblem);
  checkHostData(options);
}
