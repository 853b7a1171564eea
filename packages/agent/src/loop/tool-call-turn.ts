/**
 * A turn of the PTC-Lisp tool-call transport, in phases: read the reply (read-tool-call.ts); run the
 * program of a `lisp_eval` call, judge its outcome (judge-program.ts), reply (reply-tool-call.ts)
 * and keep what the verdict keeps (keep-verdict.ts). A reply without a program to run is answered
 * as it is read: a direct answer, or a problem on every call's tool message.
 */
import type { MessageToolCall } from "../model/model-types.js";
import type { NormalizedResponse } from "../model/normalize-response.js";
import type { TurnContext, TurnOutcome } from "./drive-turns.js";
import { executeProgram } from "./execute-program.js";
import { judgeProgram, rulesOf } from "./judge-program.js";
import { keepVerdict } from "./keep-verdict.js";
import { readToolCall, type ToolCallRead } from "./read-tool-call.js";
import { replyDirectAnswer, replyToolCall, replyToolCallProblem } from "./reply-tool-call.js";
import type { LoopState, Run } from "./run-types.js";

export async function toolCallTurn(
  run: Run,
  response: NormalizedResponse,
  state: LoopState,
  context: TurnContext,
): Promise<TurnOutcome> {
  const read = readToolCall(state, response);
  switch (read.kind) {
    case "answer":
      return replyDirectAnswer(run, state, read.content);
    case "rejected":
    case "args_problem":
      return replyToolCallProblem(run, state, read);
    case "program":
      return runLispEval(run, state, context, read);
  }
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
  const verdict = judgeProgram(run, outcome.result, outcome.memory, rulesOf(run, "tool_call", context.type));
  // The reply reads the memory from before the program: it goes first.
  const reply = replyToolCall(run, state, read, outcome, verdict);
  keepVerdict(state, outcome, verdict);
  return reply;
}

export type { MessageToolCall };
