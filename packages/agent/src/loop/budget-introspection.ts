/**
 * What `(budget/remaining)` shows a program: turns, work and retry turns, nesting depth and the
 * tokens spent so far. Keys are hyphenated, the way a program reads them (`(:work-turns b)`).
 */
import type { LoopState, Run } from "./run-types.js";

export function budgetIntrospection(run: Run, state: LoopState): Record<string, unknown> {
  const { tokens } = state;
  return {
    turns: state.remainingTurns,
    "work-turns": state.workRemaining,
    "retry-turns": state.retryRemaining,
    depth: { current: run.depth + 1, max: run.agent.maxDepth },
    tokens: {
      input: tokens.input,
      output: tokens.output,
      total: tokens.input + tokens.output,
      "cache-creation": tokens.cacheCreation,
      "cache-read": tokens.cacheRead,
    },
    "llm-requests": state.llmRequests,
  };
}
