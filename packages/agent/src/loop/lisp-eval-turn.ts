/**
 * Combined mode's `lisp_eval` call: the program runs with the tools exposed to programs, is judged
 * (judge-program.ts) and answered as a tool result like any other tool's (lisp-eval-message.ts).
 * Whatever the verdict the loop goes on, but the strict memory limit ends the run. Data the model
 * may not see stays out of what it reads (docs/combined-mode.md): values that came from hidden
 * tools are taken out of errors, and bindings holding them are shown by shape only.
 */
import { LISP_EVAL_TOOL_NAME, renderError } from "@ptc/protocol";
import { filterByExpose } from "@ptc/tool";
import { newSpanId } from "../events/event-sink.js";
import type { ProgramOrigins } from "../minimization/data-provenance.js";
import { redactValues } from "../minimization/redact-values.js";
import type { Message } from "../model/model-types.js";
import type { ToolCallRecord } from "../step/step-types.js";
import type { TurnContext, TurnOutcome, TurnRecord } from "./drive-turns.js";
import { executeProgram, type ProgramOutcome } from "./execute-program.js";
import { programFeedback } from "./feedback.js";
import { failure } from "./finish.js";
import { judgeProgram, type ProgramVerdict, rulesOf } from "./judge-program.js";
import { keepVerdict } from "./keep-verdict.js";
import { lispEvalMessage } from "./lisp-eval-message.js";
import { memoryLimitToolMessage } from "./memory-limit-texts.js";
import { programProblem } from "./read-tool-call.js";
import type { LoopState, Run } from "./run-types.js";
import type { IdentifiedCall } from "./tool-call-messages.js";
import { verdictRecord } from "./verdict-record.js";

export async function lispEvalTurn(
  run: Run,
  state: LoopState,
  context: TurnContext,
  read: {
    readonly call: IdentifiedCall;
    /** The assistant message that carries the call. */
    readonly assistant: Message;
    readonly rawResponse: string;
  },
): Promise<TurnOutcome> {
  const { call, assistant, rawResponse } = read;
  const started = Date.now();
  // lisp_eval is a tool call of the turn; the program's own tool calls nest under it.
  const evalSpan = newSpanId();
  run.events.emit(evalSpan, context.spanId, {
    type: "tool-call-start",
    toolName: LISP_EVAL_TOOL_NAME,
    exposureLayer: "native",
    turn: state.turn,
  });
  /** Records the `lisp_eval` call (first among the turn's calls) and ends its span. */
  const answered = (record: TurnRecord, error: string | undefined): TurnRecord => {
    const lispEvalRecord: ToolCallRecord = {
      name: LISP_EVAL_TOOL_NAME,
      args: call.args,
      durationMs: Date.now() - started,
      cached: false,
      exposureLayer: "native",
      id: call.id,
      turn: state.turn,
      ...(error === undefined ? { result: record.result } : { error }),
    };
    run.events.emit(evalSpan, context.spanId, {
      type: "tool-call-end",
      toolName: LISP_EVAL_TOOL_NAME,
      exposureLayer: "native",
      cached: false,
      error: error !== undefined,
      durationMs: lispEvalRecord.durationMs,
      turn: state.turn,
      ...(error === undefined ? {} : { errorMessage: error }),
      ...(run.events.payloads
        ? { args: call.args, ...(error === undefined ? { result: record.result } : {}) }
        : {}),
    });
    return { ...record, toolCalls: [lispEvalRecord, ...record.toolCalls] };
  };
  const toolMessage = (content: string): Message[] => [
    assistant,
    { role: "tool", toolCallId: call.id, content },
  ];

  const problem = programProblem(call);
  if (problem !== undefined) {
    const record = { rawResponse, program: null, result: null, prints: [], toolCalls: [], success: false };
    return {
      kind: "continue",
      append: toolMessage(renderError("args_error", problem)),
      record: answered(record, problem),
    };
  }
  const program = call.args.program as string;
  const inventory = filterByExpose([...run.tools.values()], run.agent, ["ptc_lisp", "both"]);
  const outcome = await executeProgram(run, state, program, {
    turn: state.turn,
    inventory,
    parentSpanId: evalSpan,
  });
  // Paused: lisp_eval is not answered yet; the resumed turn runs the program again and answers it.
  if (outcome.pause !== undefined) return { kind: "pause", pause: outcome.pause };
  const { result } = outcome;
  const verdict = judgeProgram(run, result, outcome.memory, rulesOf(run, "combined", context.type));
  // Which of what the program made holds data the model may not see.
  const origins = state.provenance?.assess(program, outcome.toolCalls);
  if (origins !== undefined) commitOrigins(state, origins, outcome, verdict);
  const content = lispEvalMessage(verdict, {
    shownError: verdict.kind === "error" ? shownError(state, origins, verdict) : undefined,
    // Against the memory from before the program: built before the verdict is kept.
    execution: () =>
      programFeedback(run, state, outcome, {
        shapeOnly: state.provenance?.shapeOnly(Object.keys(outcome.memory)),
      }),
  });
  const record = answered(
    verdictRecord({ rawResponse, program, prints: result.prints, toolCalls: outcome.toolCalls }, verdict),
    errorOf(verdict),
  );
  keepVerdict(state, outcome, verdict);
  if (verdict.kind === "memory_limit" && verdict.strategy === "strict") {
    const message = memoryLimitToolMessage(verdict.size, verdict.limit);
    return {
      kind: "stop",
      ending: failure("memory_limit_exceeded", message),
      record,
      finish: { finalMessages: toolMessage(content) },
    };
  }
  return { kind: "continue", append: toolMessage(content), record };
}

/** What the provenance of the program's data keeps, per verdict (a rolled-back turn keeps nothing). */
function commitOrigins(
  state: LoopState,
  origins: ProgramOrigins,
  outcome: ProgramOutcome,
  verdict: ProgramVerdict,
): void {
  state.provenance?.keepJournal(origins);
  if (verdict.kind === "error" || verdict.kind === "fail") state.provenance?.commitFailure(origins);
  if (verdict.kind === "continue" && outcome.result.ok) {
    state.provenance?.commitSuccess(origins, outcome.result.defined, !outcome.result.returned);
  }
}

/** The host keeps the whole error (step, events); the model reads it without hidden values. */
function shownError(
  state: LoopState,
  origins: ProgramOrigins | undefined,
  verdict: ProgramVerdict & { readonly kind: "error" },
): string {
  if (origins?.hidden !== true) return verdict.message;
  return redactValues(
    verdict.message,
    [...origins.hiddenResults, ...(state.provenance?.hiddenValues(state.memory) ?? [])],
    { printed: verdict.reason !== "tool_error" },
  );
}

/** The error the `lisp_eval` record and its event carry, when the call did not succeed. */
function errorOf(verdict: ProgramVerdict): string | undefined {
  switch (verdict.kind) {
    case "error":
      return verdict.message;
    case "fail":
      return verdict.text;
    case "memory_limit":
      return memoryLimitToolMessage(verdict.size, verdict.limit);
    case "invalid_return":
      return verdict.message;
    case "must_return_missing":
    case "answer":
    case "continue":
      return undefined;
  }
}
