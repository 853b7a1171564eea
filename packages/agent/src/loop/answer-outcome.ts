/**
 * A text answer read against the signature, as the turn's outcome, for every text variant that
 * reads one (JSON answers, and the tool variant's final answer): a good answer ends the run; a bad
 * one is fed back to retry while turns remain, and on the last turn ends the run with its reason.
 */
import type { TurnOutcome } from "./drive-turns.js";
import { failure } from "./finish.js";
import type { JsonAnswer } from "./json-answer.js";
import type { LoopState, Run } from "./run-types.js";

export function answerOutcome(
  run: Run,
  state: LoopState,
  content: string,
  answer: JsonAnswer,
  /** The feedback that asks for a better answer. */
  retry: (message: string) => string,
): TurnOutcome {
  const record = { rawResponse: content, program: null, prints: [], toolCalls: [] };
  if (answer.ok) {
    return {
      kind: "stop",
      ending: { ok: true, value: answer.value },
      record: { ...record, result: answer.value, success: true },
      finish: { finalMessages: [{ role: "assistant", content }] },
    };
  }
  const failed = { ...record, result: { error: answer.message }, success: false };
  if (state.turn >= run.agent.maxTurns) {
    return {
      kind: "stop",
      ending: failure(answer.kind, answer.message),
      record: failed,
      finish: { finalMessages: [{ role: "assistant", content }] },
    };
  }
  return {
    kind: "continue",
    append: [
      { role: "assistant", content },
      { role: "user", content: retry(answer.message) },
    ],
    record: failed,
  };
}
