/**
 * What the loop keeps of a judged program, the same for every transport that loops: the memory,
 * summaries and history a program made, `data/fail` for the next program, and the last good value
 * (the fallback answer when turns run out). A verdict that ends the run keeps what `finish` reports.
 */
import type { ProgramOutcome } from "./execute-program.js";
import { isNoValue } from "./host-value.js";
import type { ProgramVerdict } from "./judge-program.js";
import type { LoopState } from "./run-types.js";

export function keepVerdict(state: LoopState, outcome: ProgramOutcome, verdict: ProgramVerdict): void {
  const { result } = outcome;
  state.journal = outcome.journal;
  switch (verdict.kind) {
    case "error":
      // The next program reads what went wrong as `data/fail`.
      state.lastFail = { reason: verdict.reason, message: verdict.message };
      return;
    case "fail":
      state.lastFail = null;
      return;
    case "answer":
      state.memory = outcome.memory;
      // A one-turn agent's value is an answer, not a completed step: its summaries are not kept.
      if (verdict.returned) state.summaries = { ...state.summaries, ...outcome.summaries };
      return;
    case "invalid_return":
      state.memory = outcome.memory;
      state.lastFail = null;
      return;
    case "must_return_missing":
      return;
    case "memory_limit":
      // Rolled back: the memory stays as it was before the program.
      if (verdict.strategy === "rollback") state.lastFail = null;
      return;
    case "continue":
      state.memory = outcome.memory;
      state.summaries = { ...state.summaries, ...outcome.summaries };
      // `*1 *2 *3` follow values; a returned one (combined mode goes on after it) was an answer.
      if (!(result.ok && result.returned)) state.history = outcome.history;
      state.lastFail = null;
      // A nil (or a `def`'s var) is no answer to fall back on when the turns run out.
      if (!isNoValue(verdict.programValue))
        state.lastSuccess = { value: verdict.value, memory: outcome.memory };
      return;
  }
}
