/**
 * A turn of the PTC-Lisp tool-call transport: the model either calls `lisp_eval` once with a
 * program, or answers directly in the signature's shape. Every native call id is answered by one
 * tool message (protocol errors included) before the loop goes on or ends.
 */
import { format } from "@ptc/lisp";
import {
  classifyErrorReason,
  LISP_EVAL_TOOL_NAME,
  MULTIPLE_TOOL_CALLS_MESSAGE,
  renderError,
  renderProtocolError,
  renderSuccess,
  unknownNativeToolMessage,
  validateProgram,
} from "@ptc/protocol";
import { normalizeKeys, parseFinalAnswer } from "@ptc/tool";
import type { Message, MessageToolCall } from "../model/model-types.js";
import type { NormalizedResponse, NormalizedToolCall } from "../model/normalize-response.js";
import { hasFencedProgram } from "../parsing/extract-code.js";
import type { TurnContext, TurnOutcome, TurnRecord } from "./drive-turns.js";
import { executeProgram } from "./execute-program.js";
import { errorFeedback, executionFeedback } from "./feedback.js";
import { failure } from "./finish.js";
import { isNoValue, toHostValue } from "./host-value.js";
import { checkReturn, memoryOverLimit } from "./program-checks.js";
import type { LoopState, Run } from "./run-types.js";
import { assistantWithCalls, describeCalls, identify } from "./tool-call-messages.js";

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
  const calls = response.toolCalls ?? [];
  const content = response.content;
  if (calls.length === 0) return directAnswer(run, state, content);

  const identified = identify(state, calls);
  const assistant = assistantWithCalls(content, identified);
  const rawResponse = `${content ?? ""}\n${describeCalls(identified)}`;
  const reject = (reason: "multiple_tool_calls" | "unknown_tool", message: string): TurnOutcome => ({
    kind: "continue",
    append: [
      assistant,
      ...identified.map(
        (call): Message => ({
          role: "tool",
          toolCallId: call.id,
          content: renderProtocolError(reason, message),
        }),
      ),
      { role: "user", content: errorFeedback(run, state, message) },
    ],
    record: failedRecord(rawResponse, { reason, message }),
  });

  if (identified.length > 1) return reject("multiple_tool_calls", MULTIPLE_TOOL_CALLS_MESSAGE);
  const call = identified[0] as NormalizedToolCall & { id: string };
  if (call.name !== LISP_EVAL_TOOL_NAME) return reject("unknown_tool", unknownNativeToolMessage(call.name));

  const argsProblem =
    call.argsError === undefined
      ? validateProgramArgument(call.args)
      : `Invalid tool arguments: ${call.argsError}`;
  if (argsProblem !== undefined) {
    return {
      kind: "continue",
      append: [
        assistant,
        { role: "tool", toolCallId: call.id, content: renderError("args_error", argsProblem) },
        { role: "user", content: errorFeedback(run, state, argsProblem) },
      ],
      record: failedRecord(rawResponse, { reason: "args_error", message: argsProblem }),
    };
  }
  return runLispEval(run, state, context, call, assistant, rawResponse);
}

function validateProgramArgument(args: Readonly<Record<string, unknown>>): string | undefined {
  const checked = validateProgram(args.program);
  return checked.ok ? undefined : checked.message;
}

function failedRecord(rawResponse: string, result: unknown): TurnRecord {
  return { rawResponse, program: null, result, prints: [], toolCalls: [], success: false };
}

async function runLispEval(
  run: Run,
  state: LoopState,
  context: TurnContext,
  call: NormalizedToolCall & { id: string },
  assistant: Message,
  rawResponse: string,
): Promise<TurnOutcome> {
  const { agent } = run;
  const program = call.args.program as string;
  const outcome = await executeProgram(run, state, program, {
    turn: state.turn,
    inventory: [...run.tools.values()],
    parentSpanId: context.spanId,
  });
  if (outcome.pause !== undefined) return { kind: "pause", pause: outcome.pause };
  const { result } = outcome;
  state.journal = outcome.journal;
  const base = { rawResponse, program, prints: result.prints, toolCalls: outcome.toolCalls };
  const answer = (toolContent: string): Message[] => [
    assistant,
    { role: "tool", toolCallId: call.id, content: toolContent },
  ];

  if (!result.ok && result.error.reason !== "fail") {
    state.lastFail = { reason: result.error.reason, message: result.error.message };
    return {
      kind: "continue",
      append: answer(renderError(classifyErrorReason(result.error.reason), result.error.message)),
      record: { ...base, result: { error: state.lastFail }, success: false },
    };
  }
  if (!result.ok) {
    const text = format(result.error.value);
    return {
      kind: "stop",
      ending: failure("failed", text),
      record: { ...base, result: toHostValue(result.error.value, agent.floatPrecision), success: false },
      finish: { finalMessages: answer(renderError("fail", text, { result: text, feedback: text })) },
    };
  }

  const value = toHostValue(result.value, agent.floatPrecision);
  const execution = executionFeedback(
    run,
    result.value,
    result.prints,
    outcome.memory,
    state.memory,
    result.warnings,
  );
  if (result.returned) {
    const validation = checkReturn(run, value);
    state.memory = outcome.memory;
    if (validation.ok) {
      state.summaries = { ...state.summaries, ...outcome.summaries };
      return {
        kind: "stop",
        ending: { ok: true, value },
        record: { ...base, result: value, success: true },
        finish: {
          finalMessages: answer(renderSuccess({ value: result.value }, { execution })),
          memory: outcome.memory,
        },
      };
    }
    const { message } = validation;
    state.lastFail = null;
    return {
      kind: "continue",
      // The same reason @ptc/mcp gives a value that does not fit its output_schema.
      append: answer(renderError("validation_error", message)),
      record: {
        ...base,
        result: { reason: "return_validation_failed", message, actualValue: value },
        success: false,
      },
    };
  }
  if (agent.maxTurns === 1 && agent.retryTurns === 0) {
    state.memory = outcome.memory;
    return {
      kind: "stop",
      ending: { ok: true, value },
      record: { ...base, result: value, success: true },
      finish: {
        finalMessages: answer(renderSuccess({ value: result.value }, { execution })),
        memory: outcome.memory,
      },
    };
  }
  const over = memoryOverLimit(run, outcome.memory);
  if (over !== undefined) {
    const message = `Memory limit exceeded (${over.size} bytes > ${over.limit} bytes).`;
    if (agent.memoryStrategy === "strict") {
      return {
        kind: "stop",
        ending: failure("memory_limit_exceeded", message),
        record: { ...base, result: value, success: false },
        finish: { finalMessages: answer(renderError("memory_limit", message)) },
      };
    }
    state.lastFail = null;
    return {
      kind: "continue",
      append: answer(renderError("memory_limit", `${message} Last turn rolled back.`)),
      record: { ...base, result: value, success: false },
    };
  }
  state.memory = outcome.memory;
  state.summaries = { ...state.summaries, ...outcome.summaries };
  state.history = outcome.history;
  state.lastFail = null;
  if (!isNoValue(result.value)) state.lastSuccess = { value, memory: outcome.memory };
  return {
    kind: "continue",
    append: answer(renderSuccess({ value: result.value }, { execution })),
    record: { ...base, result: value, success: true },
  };
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
