/**
 * Reading a reply of the PTC-Lisp tool-call transport: no call is a direct answer (its content);
 * one `lisp_eval` call with a valid `program` is a program; anything else is a problem answered
 * on every call's tool message (several calls, an unknown tool, arguments that do not hold a program).
 */
import {
  LISP_EVAL_TOOL_NAME,
  MULTIPLE_TOOL_CALLS_MESSAGE,
  unknownNativeToolMessage,
  validateProgram,
} from "@ptc/protocol";
import type { Message } from "../model/model-types.js";
import type { NormalizedResponse } from "../model/normalize-response.js";
import type { LoopState } from "./run-types.js";
import { assistantWithCalls, describeCalls, type IdentifiedCall, identify } from "./tool-call-messages.js";

/** What every read with calls has: the assistant message that carries them and the turn's raw text. */
interface CallsRead {
  readonly calls: readonly IdentifiedCall[];
  readonly assistant: Message;
  readonly rawResponse: string;
}

export type ToolCallRead =
  | { readonly kind: "answer"; readonly content: string | null }
  /** Several calls or another tool than `lisp_eval`: a protocol error on every call. */
  | (CallsRead & {
      readonly kind: "rejected";
      readonly reason: "multiple_tool_calls" | "unknown_tool";
      readonly message: string;
    })
  /** One `lisp_eval` call whose arguments hold no valid program. */
  | (CallsRead & { readonly kind: "args_problem"; readonly call: IdentifiedCall; readonly message: string })
  | (CallsRead & { readonly kind: "program"; readonly call: IdentifiedCall; readonly program: string });

export function readToolCall(state: LoopState, response: NormalizedResponse): ToolCallRead {
  const received = response.toolCalls ?? [];
  const content = response.content;
  if (received.length === 0) return { kind: "answer", content };
  const calls = identify(state, received);
  const read = {
    calls,
    assistant: assistantWithCalls(content, calls),
    rawResponse: `${content ?? ""}\n${describeCalls(calls)}`,
  };
  if (calls.length > 1) {
    return { ...read, kind: "rejected", reason: "multiple_tool_calls", message: MULTIPLE_TOOL_CALLS_MESSAGE };
  }
  const call = calls[0] as IdentifiedCall;
  if (call.name !== LISP_EVAL_TOOL_NAME) {
    return {
      ...read,
      kind: "rejected",
      reason: "unknown_tool",
      message: unknownNativeToolMessage(call.name),
    };
  }
  const problem = programProblem(call);
  if (problem !== undefined) return { ...read, kind: "args_problem", call, message: problem };
  return { ...read, kind: "program", call, program: call.args.program as string };
}

/** Why a `lisp_eval` call's arguments hold no program to run, if they do not. */
export function programProblem(call: IdentifiedCall): string | undefined {
  if (call.argsError !== undefined) return `Invalid tool arguments: ${call.argsError}`;
  const checked = validateProgram(call.args.program);
  return checked.ok ? undefined : checked.message;
}
