/**
 * The PTC-Lisp tool-call transport's replies: a judged program as its `lisp_eval` tool message
 * (lisp-eval-message.ts), ending the run or going on; a reply that holds no program to run, as a
 * tool message on every call plus feedback; and a direct answer, read in the signature's shape.
 * Every native call id is answered by one tool message before the loop goes on or ends.
 */
import { renderError, renderProtocolError } from "@ptc/protocol";
import { normalizeKeys, parseFinalAnswer } from "@ptc/tool";
import type { Message } from "../model/model-types.js";
import { hasFencedProgram } from "../parsing/extract-code.js";
import type { TurnOutcome, TurnRecord } from "./drive-turns.js";
import type { ProgramOutcome } from "./execute-program.js";
import { errorFeedback, programFeedback } from "./feedback.js";
import { type Ending, failure } from "./finish.js";
import type { ProgramVerdict } from "./judge-program.js";
import { lispEvalMessage } from "./lisp-eval-message.js";
import { memoryLimitToolMessage } from "./memory-limit-texts.js";
import type { ToolCallRead } from "./read-tool-call.js";
import { MUST_RETURN_MESSAGE } from "./reply-content.js";
import type { LoopState, Run } from "./run-types.js";
import { verdictRecord } from "./verdict-record.js";

export const NO_CONTENT_MESSAGE =
  "Assistant turn returned no content and no tool calls. Either call lisp_eval or return the final answer directly.";
export const FENCED_CONTENT_MESSAGE =
  "In ptc_transport: :tool_call, call the lisp_eval tool with the program instead of returning fenced code.";

/** A judged program. It reads the state as it was before the program: call it before `keepVerdict`. */
export function replyToolCall(
  run: Run,
  state: LoopState,
  read: ToolCallRead & { readonly kind: "program" },
  outcome: ProgramOutcome,
  verdict: ProgramVerdict,
): TurnOutcome {
  const { result } = outcome;
  const execution = () => programFeedback(run, state, outcome);
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
  const ending = endingOf(verdict);
  if (ending === undefined) return { kind: "continue", append: messages, record };
  const memory = verdict.kind === "answer" ? { memory: outcome.memory } : {};
  return { kind: "stop", ending, record, finish: { finalMessages: messages, ...memory } };
}

/** Calls that hold no program to run: a protocol error on each call, and the problem as feedback. */
export function replyToolCallProblem(
  run: Run,
  state: LoopState,
  read: ToolCallRead & { readonly kind: "rejected" | "args_problem" },
): TurnOutcome {
  const reason = read.kind === "rejected" ? read.reason : "args_error";
  const toolMessages = read.calls.map(
    (call): Message => ({
      role: "tool",
      toolCallId: call.id,
      content:
        read.kind === "rejected"
          ? renderProtocolError(read.reason, read.message)
          : renderError("args_error", read.message),
    }),
  );
  return {
    kind: "continue",
    append: [
      read.assistant,
      ...toolMessages,
      { role: "user", content: errorFeedback(run, state, read.message) },
    ],
    record: failedRecord(read.rawResponse, { reason, message: read.message }),
  };
}

function failedRecord(rawResponse: string, result: unknown): TurnRecord {
  return { rawResponse, program: null, result, prints: [], toolCalls: [], success: false };
}

/** The verdicts that end a run of this transport, and how; the others go on. */
function endingOf(verdict: ProgramVerdict): Ending | undefined {
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
export function replyDirectAnswer(run: Run, state: LoopState, content: string | null): TurnOutcome {
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
