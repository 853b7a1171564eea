/**
 * A turn of the text tool variant (pure and combined): native tool calls are executed and answered,
 * `lisp_eval` (combined mode only) runs a program whose result is a tool result, and content
 * without tool calls is the final answer, parsed per the signature and retried while turns remain.
 */
import {
  LISP_EVAL_TOOL_NAME,
  MIXED_WITH_LISP_EVAL_MESSAGE,
  MULTIPLE_TOOL_CALLS_MESSAGE,
  renderProtocolError,
} from "@ptc/protocol";
import { normalizeKeys, parseFinalAnswer, type Signature } from "@ptc/tool";
import type { Message } from "../model/model-types.js";
import type { NormalizedResponse } from "../model/normalize-response.js";
import { returnsText } from "../prompt/text-prompts.js";
import type { TurnContext, TurnOutcome } from "./drive-turns.js";
import { failure } from "./finish.js";
import { readJsonAnswer } from "./json-answer.js";
import { lispEvalTurn } from "./lisp-eval-turn.js";
import { executeNativeCalls } from "./native-calls.js";
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
    return lispEvalTurn(run, state, context, { call: calls[0] as IdentifiedCall, assistant, rawResponse });

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
