/**
 * Every reason the agent itself ends a run with (`loop/finish.ts` takes no other; a test reads the
 * sources for any reason written elsewhere). A run can also end with a PTC-Lisp reason (the
 * single-shot path passes its program's failure through, and a value the host cannot take ends
 * with the sandbox's reason), or with a reason a program or a callback chose (`(fail {:reason
 * "not_found"})` on the single-shot path, a `continuationGuard`'s stop). The table of what each
 * means, and what the model reads instead, is in docs/limits.md.
 */
export const AGENT_FAIL_REASONS = [
  // Before the first turn
  "llm_required",
  "invalid_llm_registry",
  "chained_failure",
  "max_depth_exceeded",
  "turn_budget_exhausted",
  // Budgets and time
  "mission_timeout",
  "max_turns_exceeded",
  "budget_exhausted",
  "budget_callback_exceeded",
  "memory_limit_exceeded",
  "aborted",
  // The model's replies
  "llm_error",
  "no_code_found",
  "failed",
  "must_return_missing",
  "validation_error",
  "json_parse_error",
  "empty_response",
  // Approvals
  "paused",
  "replay_diverged",
  "invalid_state",
  "state_expired",
  // A `continuationGuard` stop without a reason of its own
  "stopped",
  // A program's value the host cannot take (a turn's handling met the limit)
  "recursion_limit_exceeded",
  "memory_exceeded",
  // A bug of the agent: a turn whose handling threw
  "internal_error",
] as const;

export type AgentFailReason = (typeof AGENT_FAIL_REASONS)[number];
