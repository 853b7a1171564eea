/**
 * A turn of the text tool variant (pure and combined): native tool calls are executed and answered,
 * `lisp_eval` (combined mode only) runs a program whose result is a tool result, and content
 * without tool calls is the final answer, parsed per the signature and retried while turns remain.
 */
import { format } from "@ptc/lisp";
import {
  classifyErrorReason,
  LISP_EVAL_TOOL_NAME,
  MIXED_WITH_LISP_EVAL_MESSAGE,
  MULTIPLE_TOOL_CALLS_MESSAGE,
  renderError,
  renderProtocolError,
  renderSuccess,
  validateProgram,
} from "@ptc/protocol";
import { filterByExpose, normalizeKeys, parseFinalAnswer, type Signature } from "@ptc/tool";
import { newSpanId } from "../events/event-sink.js";
import { redactValues } from "../minimization/redact-values.js";
import type { Message } from "../model/model-types.js";
import type { NormalizedResponse } from "../model/normalize-response.js";
import { returnsText } from "../prompt/text-prompts.js";
import type { ToolCallRecord } from "../step/step-types.js";
import type { TurnContext, TurnOutcome } from "./drive-turns.js";
import { executeProgram } from "./execute-program.js";
import { executionFeedback } from "./feedback.js";
import { failure } from "./finish.js";
import { isNoValue, toHostValue } from "./host-value.js";
import { readJsonAnswer } from "./json-answer.js";
import { executeNativeCalls } from "./native-calls.js";
import { memoryOverLimit } from "./program-checks.js";
import type { LoopState, Run } from "./run-types.js";
import { assistantWithCalls, describeCalls, type IdentifiedCall, identify } from "./tool-call-messages.js";

export const EMPTY_RESPONSE_FEEDBACK =
  "Error: LLM returned neither content nor tool calls. Please use tools or return a final answer.";

export async function textToolTurn(
  run: Run,
  response: NormalizedResponse,
  state: LoopState,
  context: TurnContext,
): Promise<TurnOutcome> {
  const calls = response.toolCalls ?? [];
  if (calls.length > 0) return toolCallsTurn(run, state, response.content, identify(state, calls), context);
  if (response.content === null) return emptyResponse(run, state);
  return finalAnswer(run, state, response.content, context);
}

async function toolCallsTurn(
  run: Run,
  state: LoopState,
  content: string | null,
  calls: readonly IdentifiedCall[],
  context: TurnContext,
): Promise<TurnOutcome> {
  const assistant = assistantWithCalls(content, calls);
  const rawResponse = describeCalls(calls);
  const lispEvals = run.mode.lispEval ? calls.filter((call) => call.name === LISP_EVAL_TOOL_NAME).length : 0;
  if (lispEvals > 0 && calls.length > 1) {
    const [reason, message] =
      lispEvals > 1
        ? (["multiple_tool_calls", MULTIPLE_TOOL_CALLS_MESSAGE] as const)
        : (["mixed_with_lisp_eval", MIXED_WITH_LISP_EVAL_MESSAGE] as const);
    const rejection = renderProtocolError(reason, message, { includeFeedback: false });
    return {
      kind: "continue",
      append: [
        assistant,
        ...calls.map((call): Message => ({ role: "tool", toolCallId: call.id, content: rejection })),
      ],
      record: {
        rawResponse,
        program: null,
        result: { reason, message },
        prints: [],
        toolCalls: [],
        success: false,
      },
    };
  }
  if (lispEvals === 1)
    return lispEvalTurn(run, state, calls[0] as IdentifiedCall, assistant, rawResponse, context);

  const results = await executeNativeCalls(run, state, calls, context.spanId);
  if (results.pause !== undefined) return { kind: "pause", pause: results.pause };
  return {
    kind: "continue",
    append: [
      assistant,
      ...calls.map(
        (call, index): Message => ({
          role: "tool",
          toolCallId: call.id,
          content: results.contents[index] as string,
        }),
      ),
    ],
    record: {
      rawResponse,
      program: null,
      result: null,
      prints: [],
      toolCalls: results.records,
      success: true,
    },
  };
}

/** Combined mode: a program's outcome, whatever it is, is a tool result; only strict memory ends the run. */
async function lispEvalTurn(
  run: Run,
  state: LoopState,
  call: IdentifiedCall,
  assistant: Message,
  rawResponse: string,
  context: TurnContext,
): Promise<TurnOutcome> {
  const { agent } = run;
  const started = Date.now();
  // lisp_eval is a tool call of the turn; the program's own tool calls nest under it.
  const evalSpan = newSpanId();
  const answer = (
    content: string,
    record: {
      program: string | null;
      result: unknown;
      prints: readonly string[];
      toolCalls: readonly ToolCallRecord[];
      success: boolean;
      error?: string;
    },
  ): TurnOutcome => {
    const lispEvalRecord: ToolCallRecord = {
      name: LISP_EVAL_TOOL_NAME,
      args: call.args,
      durationMs: Date.now() - started,
      cached: false,
      exposureLayer: "native",
      id: call.id,
      turn: state.turn,
      ...(record.error === undefined ? { result: record.result } : { error: record.error }),
    };
    run.events.emit(evalSpan, context.spanId, {
      type: "tool-call-end",
      toolName: LISP_EVAL_TOOL_NAME,
      exposureLayer: "native",
      cached: false,
      error: record.error !== undefined,
      durationMs: lispEvalRecord.durationMs,
      turn: state.turn,
      ...(record.error === undefined ? {} : { errorMessage: record.error }),
      ...(run.events.payloads
        ? { args: call.args, ...(record.error === undefined ? { result: record.result } : {}) }
        : {}),
    });
    return {
      kind: "continue",
      append: [assistant, { role: "tool", toolCallId: call.id, content }],
      record: {
        rawResponse,
        program: record.program,
        result: record.result,
        prints: record.prints,
        toolCalls: [lispEvalRecord, ...record.toolCalls],
        success: record.success,
      },
    };
  };
  run.events.emit(evalSpan, context.spanId, {
    type: "tool-call-start",
    toolName: LISP_EVAL_TOOL_NAME,
    exposureLayer: "native",
    turn: state.turn,
  });

  const argsProblem =
    call.argsError !== undefined
      ? `Invalid tool arguments: ${call.argsError}`
      : (() => {
          const checked = validateProgram(call.args.program);
          return checked.ok ? undefined : checked.message;
        })();
  if (argsProblem !== undefined) {
    return answer(renderError("args_error", argsProblem), {
      program: null,
      result: null,
      prints: [],
      toolCalls: [],
      success: false,
      error: argsProblem,
    });
  }
  const program = call.args.program as string;
  const inventory = filterByExpose([...run.tools.values()], agent, ["ptc_lisp", "both"]);
  const outcome = await executeProgram(run, state, program, {
    turn: state.turn,
    inventory,
    parentSpanId: evalSpan,
  });
  // Paused: lisp_eval is not answered yet; the resumed turn runs the program again and answers it.
  if (outcome.pause !== undefined) return { kind: "pause", pause: outcome.pause };
  const { result } = outcome;
  state.journal = outcome.journal;
  const base = { program, prints: result.prints, toolCalls: outcome.toolCalls };
  // Which of what the program made holds data the model may not see (docs/combined-mode.md).
  const origins = state.provenance?.assess(program, outcome.toolCalls);
  if (origins !== undefined) state.provenance?.keepJournal(origins);

  if (!result.ok && result.error.reason !== "fail") {
    state.lastFail = { reason: result.error.reason, message: result.error.message };
    if (origins !== undefined) state.provenance?.commitFailure(origins);
    // The host keeps the whole message (step, events); the model reads it without hidden values.
    const shown =
      origins?.hidden === true
        ? redactValues(
            result.error.message,
            [...origins.hiddenResults, ...(state.provenance?.hiddenValues(state.memory) ?? [])],
            { printed: result.error.reason !== "tool_error" },
          )
        : result.error.message;
    return answer(renderError(classifyErrorReason(result.error.reason), shown), {
      ...base,
      result: { error: state.lastFail },
      success: false,
      error: result.error.message,
    });
  }
  if (!result.ok) {
    // `(fail v)` shows the model v, as `(return v)` would: the program chose to.
    const text = format(result.error.value);
    state.lastFail = null;
    if (origins !== undefined) state.provenance?.commitFailure(origins);
    return answer(renderError("fail", text, { result: text, feedback: text }), {
      ...base,
      result: toHostValue(result.error.value, agent.floatPrecision),
      success: false,
      error: text,
    });
  }
  const value = toHostValue(result.value, agent.floatPrecision);
  const over = memoryOverLimit(run, outcome.memory);
  if (over !== undefined) {
    const message = `Memory limit exceeded (${over.size} bytes > ${over.limit} bytes).`;
    if (agent.memoryStrategy === "strict") {
      return {
        kind: "stop",
        ending: failure("memory_limit_exceeded", message),
        record: { rawResponse, ...base, result: value, success: false },
        finish: {
          finalMessages: [
            assistant,
            { role: "tool", toolCallId: call.id, content: renderError("memory_limit", message) },
          ],
        },
      };
    }
    return answer(renderError("memory_limit", `${message} Last turn rolled back.`), {
      ...base,
      result: value,
      success: false,
      error: message,
    });
  }
  if (origins !== undefined) state.provenance?.commitSuccess(origins, result.defined, !result.returned);
  const execution = executionFeedback(
    run,
    result.value,
    result.prints,
    outcome.memory,
    state.memory,
    result.warnings,
    state.provenance?.shapeOnly(Object.keys(outcome.memory)),
  );
  state.memory = outcome.memory;
  state.summaries = { ...state.summaries, ...outcome.summaries };
  // Unlike the reference, a success clears `data/fail`: it describes the last program only.
  state.lastFail = null;
  if (!result.returned) state.history = outcome.history;
  if (!isNoValue(result.value)) state.lastSuccess = { value, memory: outcome.memory };
  return answer(renderSuccess({ value: result.value }, { execution }), {
    ...base,
    result: value,
    success: true,
  });
}

function emptyResponse(run: Run, state: LoopState): TurnOutcome {
  const record = { rawResponse: "", program: null, result: null, prints: [], toolCalls: [], success: false };
  if (state.turn >= run.agent.maxTurns) {
    return {
      kind: "stop",
      ending: failure("empty_response", "LLM returned neither content nor tool calls"),
      record,
    };
  }
  return { kind: "continue", append: [{ role: "user", content: EMPTY_RESPONSE_FEEDBACK }], record };
}

/** The final answer: raw text, or JSON/scalar per the signature, retried while turns remain. */
function finalAnswer(run: Run, state: LoopState, content: string, context: TurnContext): TurnOutcome {
  const signature = run.agent.parsedSignature;
  const combined = run.mode.name === "combined";
  const rawText = returnsText(signature) || (combined && signature?.returns === "any");
  const record = { rawResponse: content, program: null, prints: [], toolCalls: [] };
  let outcome:
    | { ok: true; value: unknown }
    | { ok: false; kind: "json_parse_error" | "validation_error"; message: string; retry: string };
  if (rawText) {
    outcome = { ok: true, value: content };
  } else if (!combined || isStructured(signature)) {
    const read = readJsonAnswer(content, signature);
    outcome = read.ok
      ? read
      : {
          ...read,
          retry: `Error: ${read.message}. Please return a valid JSON object matching the expected output format.`,
        };
  } else {
    const parsed = parseFinalAnswer(content, signature);
    outcome = parsed.ok
      ? { ok: true, value: normalizeKeys(parsed.value) }
      : {
          ok: false,
          kind: "validation_error",
          message: parsed.error,
          retry: `Error: ${parsed.error}. Please return a valid value matching the expected output.`,
        };
  }
  if (outcome.ok) {
    if (rawText && !context.streamed) deliverChunk(run, content);
    return {
      kind: "stop",
      ending: { ok: true, value: outcome.value },
      record: { ...record, result: outcome.value, success: true },
      finish: { finalMessages: [{ role: "assistant", content }] },
    };
  }
  if (state.turn >= run.agent.maxTurns) {
    return {
      kind: "stop",
      ending: failure(outcome.kind, outcome.message),
      record: { ...record, result: { error: outcome.message }, success: false },
      finish: { finalMessages: [{ role: "assistant", content }] },
    };
  }
  return {
    kind: "continue",
    append: [
      { role: "assistant", content },
      { role: "user", content: outcome.retry },
    ],
    record: { ...record, result: { error: outcome.message }, success: false },
  };
}

function isStructured(signature: Signature | undefined): boolean {
  const returns = signature?.returns;
  return typeof returns === "object" && (returns.kind === "map" || returns.kind === "list");
}

export function deliverChunk(run: Run, content: string): void {
  const onChunk = run.options.onChunk;
  if (onChunk === undefined || content === "") return;
  try {
    onChunk({ delta: content });
  } catch {
    // A failing consumer must not fail the run.
  }
}
