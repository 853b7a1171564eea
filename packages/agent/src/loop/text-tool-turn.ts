/**
 * A turn of the text tool variant (pure and combined): the reply is read (read-text-tools.ts);
 * native tool calls are executed and answered, `lisp_eval` (combined mode only) runs a program
 * whose verdict is a tool result (lisp-eval-turn.ts), and content without tool calls is the final
 * answer, parsed per the signature and retried while turns remain (answer-outcome.ts).
 */
import { renderProtocolError } from "@ptc/protocol";
import { normalizeKeys, parseFinalAnswer, type Signature } from "@ptc/tool";
import type { Message } from "../model/model-types.js";
import type { NormalizedResponse } from "../model/normalize-response.js";
import { returnsText } from "../prompt/text-prompts.js";
import { answerOutcome } from "./answer-outcome.js";
import type { TurnContext, TurnOutcome } from "./drive-turns.js";
import { failure } from "./finish.js";
import { readJsonAnswer } from "./json-answer.js";
import { lispEvalTurn } from "./lisp-eval-turn.js";
import { executeNativeCalls } from "./native-calls.js";
import { readTextTools, type TextToolsRead } from "./read-text-tools.js";
import type { LoopState, Run } from "./run-types.js";

export const EMPTY_RESPONSE_FEEDBACK =
  "Error: LLM returned neither content nor tool calls. Please use tools or return a final answer.";

export async function textToolTurn(
  run: Run,
  response: NormalizedResponse,
  state: LoopState,
  context: TurnContext,
): Promise<TurnOutcome> {
  const read = readTextTools(run, state, response);
  switch (read.kind) {
    case "answer":
      return finalAnswer(run, state, read.content, context);
    case "empty":
      return emptyResponse(run, state);
    case "lisp_eval":
      return lispEvalTurn(run, state, context, read);
    case "rejected": {
      const rejection = renderProtocolError(read.reason, read.message, { includeFeedback: false });
      return {
        kind: "continue",
        append: [
          read.assistant,
          ...read.calls.map((call): Message => ({ role: "tool", toolCallId: call.id, content: rejection })),
        ],
        record: {
          rawResponse: read.rawResponse,
          program: null,
          result: { reason: read.reason, message: read.message },
          prints: [],
          toolCalls: [],
          success: false,
        },
      };
    }
    case "native_calls":
      return nativeCallsTurn(run, state, read, context);
  }
}

async function nativeCallsTurn(
  run: Run,
  state: LoopState,
  read: TextToolsRead & { readonly kind: "native_calls" },
  context: TurnContext,
): Promise<TurnOutcome> {
  const results = await executeNativeCalls(run, state, read.calls, context.spanId);
  if (results.pause !== undefined) return { kind: "pause", pause: results.pause };
  return {
    kind: "continue",
    append: [
      read.assistant,
      ...read.calls.map(
        (call, index): Message => ({
          role: "tool",
          toolCallId: call.id,
          content: results.contents[index] as string,
        }),
      ),
    ],
    record: {
      rawResponse: read.rawResponse,
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
  if (rawText) {
    if (!context.streamed) deliverChunk(run, content);
    return answerOutcome(run, state, content, { ok: true, value: content }, () => "");
  }
  if (!combined || isStructured(signature)) {
    return answerOutcome(
      run,
      state,
      content,
      readJsonAnswer(content, signature),
      (message) =>
        `Error: ${message}. Please return a valid JSON object matching the expected output format.`,
    );
  }
  const parsed = parseFinalAnswer(content, signature);
  return answerOutcome(
    run,
    state,
    content,
    parsed.ok
      ? { ok: true, value: normalizeKeys(parsed.value) }
      : { ok: false, kind: "validation_error", message: parsed.error },
    (message) => `Error: ${message}. Please return a valid value matching the expected output.`,
  );
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
