/**
 * A turn of the PTC-Lisp tool-call transport: read the reply (read-tool-call.ts); a direct answer
 * is parsed in the signature's shape, a problem is answered on every call's tool message, and a
 * program runs, is judged (judge-program.ts) and answered with its verdict as the `lisp_eval` tool
 * message (lisp-eval-message.ts), ending the run or going on. Every native call id is answered by
 * one tool message before the loop goes on or ends.
 */
import { renderError, renderProtocolError } from "@ptc/protocol";
import { normalizeKeys, parseFinalAnswer } from "@ptc/tool";
import type { Message, MessageToolCall } from "../model/model-types.js";
import type { NormalizedResponse } from "../model/normalize-response.js";
import { hasFencedProgram } from "../parsing/extract-code.js";
import type { TurnContext, TurnOutcome, TurnRecord } from "./drive-turns.js";
import { executeProgram } from "./execute-program.js";
import { errorFeedback, executionFeedback } from "./feedback.js";
import { type Ending, failure } from "./finish.js";
import { judgeProgram, rulesOf } from "./judge-program.js";
import { keepVerdict } from "./keep-verdict.js";
import { lispEvalMessage } from "./lisp-eval-message.js";
import { memoryLimitToolMessage } from "./memory-limit-texts.js";
import { readToolCall, type ToolCallRead } from "./read-tool-call.js";
import { MUST_RETURN_MESSAGE } from "./reply-content.js";
import type { LoopState, Run } from "./run-types.js";
import { verdictRecord } from "./verdict-record.js";

export const NO_CONTENT_MESSAGE =
  "Assistant turn returned no content and no tool calls. Either call lisp_eval or return the final answer directly.";
export const FENCED_CONTENT_MESSAGE =
  "In ptc_transport: :tool_call, call the lisp_eval tool with the program instead of returning fenced code.";

export async function toolCallTurn(
  run: Run,
  response: NormalizedResponse,
  state: LoopState,
  context: TurnContext,
): Promise<TurnOutcome> {
  const read = readToolCall(state, response);
  switch (read.kind) {
    case "answer":
      return directAnswer(run, state, read.content);
    case "rejected":
      return {
        kind: "continue",
        append: [
          read.assistant,
          ...read.calls.map(
            (call): Message => ({
              role: "tool",
              toolCallId: call.id,
              content: renderProtocolError(read.reason, read.message),
            }),
          ),
          { role: "user", content: errorFeedback(run, state, read.message) },
        ],
        record: failedRecord(read.rawResponse, { reason: read.reason, message: read.message }),
      };
    case "args_problem":
      return {
        kind: "continue",
        append: [
          read.assistant,
          { role: "tool", toolCallId: read.call.id, content: renderError("args_error", read.message) },
          { role: "user", content: errorFeedback(run, state, read.message) },
        ],
        record: failedRecord(read.rawResponse, { reason: "args_error", message: read.message }),
      };
    case "program":
      return runLispEval(run, state, context, read);
  }
}

function failedRecord(rawResponse: string, result: unknown): TurnRecord {
  return { rawResponse, program: null, result, prints: [], toolCalls: [], success: false };
}

async function runLispEval(
  run: Run,
  state: LoopState,
  context: TurnContext,
  read: ToolCallRead & { readonly kind: "program" },
): Promise<TurnOutcome> {
  const outcome = await executeProgram(run, state, read.program, {
    turn: state.turn,
    inventory: [...run.tools.values()],
    parentSpanId: context.spanId,
  });
  if (outcome.pause !== undefined) return { kind: "pause", pause: outcome.pause };
  const { result } = outcome;
  const verdict = judgeProgram(run, result, outcome.memory, rulesOf(run, "tool_call", context.type));
  // Shown against the memory from before the program: built before the verdict is kept.
  const execution = () =>
    executionFeedback(run, {
      value: result.ok ? result.value : null,
      prints: result.prints,
      memory: outcome.memory,
      previousMemory: state.memory,
      warnings: result.ok ? result.warnings : [],
    });
  const messages: Message[] = [
    read.assistant,
    { role: "tool", toolCallId: read.call.id, content: lispEvalMessage(verdict, { execution }) },
  ];
  const record = verdictRecord(
    {
      rawResponse: read.rawResponse,
      program: read.program,
      prints: result.prints,
      toolCalls: outcome.toolCalls,
    },
    verdict,
  );
  keepVerdict(state, outcome, verdict);
  const ending = endingOf(verdict);
  if (ending === undefined) return { kind: "continue", append: messages, record };
  const memory = verdict.kind === "answer" ? { memory: outcome.memory } : {};
  return { kind: "stop", ending, record, finish: { finalMessages: messages, ...memory } };
}

/** The verdicts that end a run of this transport, and how; the others go on. */
function endingOf(verdict: ReturnType<typeof judgeProgram>): Ending | undefined {
  switch (verdict.kind) {
    case "answer":
      return { ok: true, value: verdict.value };
    case "fail":
      return failure("failed", verdict.text);
    case "must_return_missing":
      return failure("must_return_missing", MUST_RETURN_MESSAGE);
    case "memory_limit":
      return verdict.strategy === "strict"
        ? failure("memory_limit_exceeded", memoryLimitToolMessage(verdict.size, verdict.limit))
        : undefined;
    case "error":
    case "invalid_return":
    case "continue":
      return undefined;
  }
}

/** No tool call: the content is the final answer, unless it is empty or a fenced program. */
function directAnswer(run: Run, state: LoopState, content: string | null): TurnOutcome {
  const problem =
    content === null ? NO_CONTENT_MESSAGE : hasFencedProgram(content) ? FENCED_CONTENT_MESSAGE : undefined;
  const raw = content ?? "";
  const parsed = problem === undefined ? parseFinalAnswer(raw, run.agent.parsedSignature) : undefined;
  if (parsed?.ok === true) {
    const value = normalizeKeys(parsed.value);
    return {
      kind: "stop",
      ending: { ok: true, value },
      record: { rawResponse: raw, program: null, result: value, prints: [], toolCalls: [], success: true },
      finish: { finalMessages: [{ role: "assistant", content: raw }] },
    };
  }
  const message = problem ?? (parsed as { error: string }).error;
  return {
    kind: "continue",
    append: [
      { role: "assistant", content: raw },
      { role: "user", content: errorFeedback(run, state, message) },
    ],
    record: {
      rawResponse: raw,
      program: null,
      result: { reason: "direct_final_invalid", message },
      prints: [],
      toolCalls: [],
      success: false,
    },
  };
}

export type { MessageToolCall };
