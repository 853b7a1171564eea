/**
 * The content transport's replies: a judged program's verdict as user-role feedback (framed
 * errors, the return-type report, the program's output with the budget line and progress) or the
 * end of the run, and a reply that holds no program. A verdict's reply reads the state as it was
 * before the program: call it before `keepVerdict`.
 */
import type { Message } from "../model/model-types.js";
import type { TurnOutcome } from "./drive-turns.js";
import type { ProgramOutcome } from "./execute-program.js";
import { errorFeedback, programFeedback, successFeedback } from "./feedback.js";
import { type Ending, failure } from "./finish.js";
import type { ProgramVerdict } from "./judge-program.js";
import { memoryLimitFailure, rollbackMessage } from "./memory-limit-texts.js";
import type { ContentRead } from "./read-content.js";
import type { LoopState, Run } from "./run-types.js";
import { verdictRecord } from "./verdict-record.js";

export const MUST_RETURN_MESSAGE = "Final turn must call (return value) or (fail reason)";

export function replyContent(
  run: Run,
  state: LoopState,
  read: ContentRead & { readonly kind: "program" },
  outcome: ProgramOutcome,
  verdict: ProgramVerdict,
): TurnOutcome {
  const { result } = outcome;
  const record = verdictRecord(
    { rawResponse: read.raw, program: read.program, prints: result.prints, toolCalls: outcome.toolCalls },
    verdict,
  );
  const feedback = (text: string): TurnOutcome => ({
    kind: "continue",
    append: [
      { role: "assistant", content: read.stored },
      { role: "user", content: text },
    ],
    record,
  });
  // An answer keeps the whole reply; a failure keeps it without its thinking.
  const stop = (ending: Ending, last: Message, memory?: ProgramOutcome["memory"]): TurnOutcome => ({
    kind: "stop",
    ending,
    record,
    finish: { finalMessages: [last], ...(memory === undefined ? {} : { memory }) },
  });
  const raw: Message = { role: "assistant", content: read.raw };
  const stored: Message = { role: "assistant", content: read.stored };
  switch (verdict.kind) {
    case "error":
      return feedback(errorFeedback(run, state, `Error: ${locate(verdict.message, verdict.line)}`));
    case "fail":
      return stop(failure("failed", verdict.text), stored);
    case "answer":
      return stop({ ok: true, value: verdict.value }, raw, outcome.memory);
    case "invalid_return":
      return feedback(errorFeedback(run, state, verdict.message));
    case "must_return_missing":
      return stop(failure("must_return_missing", MUST_RETURN_MESSAGE), stored);
    case "memory_limit":
      return verdict.strategy === "strict"
        ? stop(failure("memory_limit_exceeded", memoryLimitFailure(verdict.size, verdict.limit)), raw)
        : feedback(rollbackMessage(verdict.size, verdict.limit));
    case "continue": {
      const execution = programFeedback(run, state, outcome, { value: verdict.programValue });
      const summaries = { ...state.summaries, ...outcome.summaries };
      return feedback(successFeedback(run, state, execution, summaries, outcome.toolCalls));
    }
  }
}

/** A reply without one program: the problem fed back, and `data/fail` cleared (no program ran). */
export function replyContentProblem(
  run: Run,
  state: LoopState,
  read: ContentRead & { readonly kind: "problem" },
): TurnOutcome {
  state.lastFail = null;
  return {
    kind: "continue",
    append: [
      { role: "assistant", content: read.raw },
      { role: "user", content: errorFeedback(run, state, read.message) },
    ],
    record: {
      rawResponse: read.raw,
      program: null,
      result: { error: read.message },
      prints: [],
      toolCalls: [],
      success: false,
    },
  };
}

/** Adds the line to an error message when the program reported one. */
export function locate(message: string, line: number | undefined): string {
  return line === undefined || message.includes(`line ${line}`) ? message : `${message} (line ${line})`;
}
