/**
 * Reading a reply of the text tool variant (native tools, and in combined mode `lisp_eval`): native
 * calls to run, one `lisp_eval` call, calls refused together (`lisp_eval` with other calls, or
 * several `lisp_eval`s), nothing at all, or content without calls, which is the answer.
 */
import {
  LISP_EVAL_TOOL_NAME,
  MIXED_WITH_LISP_EVAL_MESSAGE,
  MULTIPLE_TOOL_CALLS_MESSAGE,
} from "@ptc/protocol";
import type { Message } from "../model/model-types.js";
import type { NormalizedResponse } from "../model/normalize-response.js";
import type { LoopState, Run } from "./run-types.js";
import { assistantWithCalls, describeCalls, type IdentifiedCall, identify } from "./tool-call-messages.js";

/** What every read with calls has: the assistant message that carries them and the turn's raw text. */
interface CallsRead {
  readonly calls: readonly IdentifiedCall[];
  readonly assistant: Message;
  readonly rawResponse: string;
}

export type TextToolsRead =
  | { readonly kind: "answer"; readonly content: string }
  | { readonly kind: "empty" }
  | (CallsRead & { readonly kind: "native_calls" })
  | (CallsRead & { readonly kind: "lisp_eval"; readonly call: IdentifiedCall })
  | (CallsRead & {
      readonly kind: "rejected";
      readonly reason: "multiple_tool_calls" | "mixed_with_lisp_eval";
      readonly message: string;
    });

export function readTextTools(run: Run, state: LoopState, response: NormalizedResponse): TextToolsRead {
  const received = response.toolCalls ?? [];
  if (received.length === 0) {
    return response.content === null ? { kind: "empty" } : { kind: "answer", content: response.content };
  }
  const calls = identify(state, received);
  const read = {
    calls,
    assistant: assistantWithCalls(response.content, calls),
    rawResponse: describeCalls(calls),
  };
  const lispEvals = run.mode.lispEval ? calls.filter((call) => call.name === LISP_EVAL_TOOL_NAME).length : 0;
  if (lispEvals > 1) {
    return { ...read, kind: "rejected", reason: "multiple_tool_calls", message: MULTIPLE_TOOL_CALLS_MESSAGE };
  }
  if (lispEvals === 1 && calls.length > 1) {
    return {
      ...read,
      kind: "rejected",
      reason: "mixed_with_lisp_eval",
      message: MIXED_WITH_LISP_EVAL_MESSAGE,
    };
  }
  if (lispEvals === 1) return { ...read, kind: "lisp_eval", call: calls[0] as IdentifiedCall };
  return { ...read, kind: "native_calls" };
}
