/**
 * The turn-budget line appended to feedback in PTC-Lisp loops (`Turn 2 of 5 (4 remaining)`, the
 * final-turn warnings, the retry counters). Its wording is part of the contract: models key on it
 * to decide when to `(return ...)`.
 */
export interface TurnBudget {
  readonly turn: number;
  readonly maxTurns: number;
  readonly retryTurns: number;
  /** Work turns left before this turn's decrement. */
  readonly workRemaining: number;
  readonly retryRemaining: number;
  readonly minimal: boolean;
}

export function turnInfo(budget: TurnBudget): string {
  if (budget.maxTurns <= 1) return "";
  const next = budget.turn + 1;
  const after = budget.workRemaining - 1;
  const retries = budget.retryRemaining;
  if (budget.minimal) {
    if (budget.workRemaining <= 0) return `\n\n;; ${retries} retry turns remaining — call (return value) now`;
    const left = Math.max(after, 0);
    return left <= 2 ? `\n\n;; ${left} turns remaining — call (return value) soon` : "";
  }
  if (budget.workRemaining <= 0) {
    const attempt = budget.retryTurns - retries + 1;
    if (retries === 1) {
      return `\n\n⚠️ FINAL RETRY ${attempt}/${budget.retryTurns}: call \`(return result)\` or \`(fail response)\`.`;
    }
    return `\n\nTurn ${next} retry ${attempt}/${budget.retryTurns}; ${retries} left.`;
  }
  if (after === 1) {
    const corrections = retries > 0 ? ` ${retries} correction attempt(s) if invalid.` : "";
    return `\n\n⚠️ FINAL WORK TURN: no tools. Call \`(return result)\` or \`(fail response)\`.${corrections}`;
  }
  if (retries > 0) return `\n\nTurn ${next} (${after} work turns + ${retries} retry turns remaining)`;
  if (after === 2) {
    return `\n\nTurn ${next} of ${budget.maxTurns} (2 remaining) — next turn is your LAST, start preparing your (return ...) now.`;
  }
  return `\n\nTurn ${next} of ${budget.maxTurns} (${after} remaining)`;
}
