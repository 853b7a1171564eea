/**
 * A turn of the content transport: the model replies with one fenced program, the program runs,
 * and the outcome decides the turn (spec'd order): an error or a missing/duplicated block is
 * fed back; `(return v)` ends the run when `v` fits the signature; `(fail v)` ends it as a
 * failure; otherwise the memory limit is checked and the program's output is fed back.
 */
import { format } from "@ptc/lisp";
import type { NormalizedResponse } from "../model/normalize-response.js";
import { extractCode, stripThinking } from "../parsing/extract-code.js";
import type { TurnContext, TurnOutcome } from "./drive-turns.js";
import { executeProgram } from "./execute-program.js";
import { errorFeedback, executionFeedback, successFeedback } from "./feedback.js";
import { failure } from "./finish.js";
import { isNoValue, toHostValue } from "./host-value.js";
import { checkReturn, memoryOverLimit } from "./program-checks.js";
import type { LoopState, Run } from "./run-types.js";

export const NO_CODE_MESSAGE =
  "Error: No valid PTC-Lisp code found in response. Please provide code in a ```clojure or ```lisp code block, or as a raw s-expression starting with '('.";

export function multipleBlocksMessage(count: number): string {
  return `Error: Found ${count} code blocks in your response, but exactly ONE is required. Combine all your code into a single \`\`\`clojure block. Variables defined in separate blocks are NOT shared.`;
}

export function rollbackMessage(size: number, limit: number): string {
  return `Memory limit exceeded (${size} bytes > ${limit} bytes). Your last turn's memory changes have been rolled back. Try a different strategy to reduce memory usage, for example by using recursion or processing data in smaller batches.`;
}

export async function contentTurn(
  run: Run,
  response: NormalizedResponse,
  state: LoopState,
  context: TurnContext,
): Promise<TurnOutcome> {
  const { agent } = run;
  const raw = response.content ?? "";
  const extracted = extractCode(raw);
  if (!extracted.ok) {
    const message = extracted.reason === "no_code" ? NO_CODE_MESSAGE : multipleBlocksMessage(extracted.count);
    state.lastFail = null;
    return {
      kind: "continue",
      append: [
        { role: "assistant", content: raw },
        { role: "user", content: errorFeedback(run, state, message) },
      ],
      record: {
        rawResponse: raw,
        program: null,
        result: { error: message },
        prints: [],
        toolCalls: [],
        success: false,
      },
    };
  }
  const program = extracted.code;
  const stored = stripThinking(raw);
  const outcome = await executeProgram(run, state, program, {
    turn: state.turn,
    inventory: [...run.tools.values()],
    parentSpanId: context.spanId,
  });
  if (outcome.pause !== undefined) return { kind: "pause", pause: outcome.pause };
  const { result } = outcome;
  const base = { rawResponse: raw, program, prints: result.prints, toolCalls: outcome.toolCalls };
  state.journal = outcome.journal;

  if (!result.ok && result.error.reason !== "fail") {
    const fail = { reason: result.error.reason, message: result.error.message };
    const feedback = errorFeedback(run, state, `Error: ${locate(fail.message, result.error.line)}`);
    state.lastFail = fail;
    return {
      kind: "continue",
      append: [
        { role: "assistant", content: stored },
        { role: "user", content: feedback },
      ],
      record: { ...base, result: { error: fail }, success: false },
    };
  }

  if (!result.ok) {
    // (fail v): checked before the single-shot rule, so a one-turn agent's fail is never an answer.
    const value = result.error.value;
    return {
      kind: "stop",
      ending: failure("failed", format(value)),
      record: { ...base, result: toHostValue(value, agent.floatPrecision), success: false },
      finish: { finalMessages: [{ role: "assistant", content: stored }] },
    };
  }

  const value = toHostValue(result.value, agent.floatPrecision);
  if (result.returned) {
    const validation = checkReturn(run, value);
    if (validation.ok) {
      state.memory = outcome.memory;
      state.summaries = { ...state.summaries, ...outcome.summaries };
      return {
        kind: "stop",
        ending: { ok: true, value },
        record: { ...base, result: value, success: true },
        finish: { finalMessages: [{ role: "assistant", content: raw }], memory: outcome.memory },
      };
    }
    const { message } = validation;
    state.memory = outcome.memory;
    state.lastFail = null;
    return {
      kind: "continue",
      append: [
        { role: "assistant", content: stored },
        { role: "user", content: errorFeedback(run, state, message) },
      ],
      record: {
        ...base,
        result: {
          reason: "return_validation_failed",
          message,
          actualValue: value,
          errors: validation.errors,
        },
        success: false,
      },
    };
  }

  if (agent.completionMode === "implicit" && agent.maxTurns === 1 && agent.retryTurns === 0) {
    state.memory = outcome.memory;
    return {
      kind: "stop",
      ending: { ok: true, value },
      record: { ...base, result: value, success: true },
      finish: { finalMessages: [{ role: "assistant", content: raw }], memory: outcome.memory },
    };
  }
  if (agent.completionMode === "explicit" && context.type !== "normal") {
    return {
      kind: "stop",
      ending: failure("must_return_missing", "Final turn must call (return value) or (fail reason)"),
      record: { ...base, result: value, success: false },
      finish: { finalMessages: [{ role: "assistant", content: stored }] },
    };
  }

  const over = memoryOverLimit(run, outcome.memory);
  if (over !== undefined) {
    const { size, limit } = over;
    if (agent.memoryStrategy === "strict") {
      return {
        kind: "stop",
        ending: failure("memory_limit_exceeded", `Memory limit exceeded: ${size} bytes > ${limit} bytes`),
        record: { ...base, result: value, success: false },
        finish: { finalMessages: [{ role: "assistant", content: raw }] },
      };
    }
    state.lastFail = null;
    return {
      kind: "continue",
      append: [
        { role: "assistant", content: stored },
        { role: "user", content: rollbackMessage(size, limit) },
      ],
      record: { ...base, result: value, success: false },
    };
  }

  const execution = executionFeedback(
    run,
    result.value,
    result.prints,
    outcome.memory,
    state.memory,
    result.warnings,
  );
  const summaries = { ...state.summaries, ...outcome.summaries };
  const feedback = successFeedback(run, state, execution, summaries, outcome.toolCalls);
  state.memory = outcome.memory;
  state.summaries = summaries;
  state.history = outcome.history;
  state.lastFail = null;
  if (!isNoValue(result.value)) state.lastSuccess = { value, memory: outcome.memory };
  return {
    kind: "continue",
    append: [
      { role: "assistant", content: stored },
      { role: "user", content: feedback },
    ],
    record: { ...base, result: value, success: true },
  };
}

/** Adds the line to an error message when the program reported one. */
export function locate(message: string, line: number | undefined): string {
  return line === undefined || message.includes(`line ${line}`) ? message : `${message} (line ${line})`;
}
