/**
 * What an abort must do, beyond the boundary checks (docs/agents.md: the signal "cancels the model
 * call in flight, the running program and every tool; the run ends with reason aborted"):
 *
 * - no model call and no tool starts once the signal has fired;
 * - a run aborted while surely at work (before it started, or inside a model call that never
 *   answers) fails with reason `aborted`;
 * - the run leaves no listener on the host's signal.
 */
import { BoundaryBroken } from "./boundary-checks.js";
import type { Scenario, ScenarioOutcome } from "./scenario.js";

/** "ok", or the failure's reason, of the run (or of the last chat exchange). */
function endingOf(outcome: ScenarioOutcome): string | undefined {
  if (outcome.result !== undefined) return outcome.result.ok ? "ok" : outcome.result.step.fail?.reason;
  const reply = outcome.replies.at(-1);
  return reply === undefined ? undefined : reply.ok ? "ok" : reply.error.reason;
}

export function expectAbortObeyed(recipe: Scenario, outcome: ScenarioOutcome): void {
  if (outcome.toolsAfterAbort.length > 0) {
    throw new BoundaryBroken(`tools started after the abort: ${outcome.toolsAfterAbort.join(", ")}`);
  }
  if (outcome.modelCallsAfterAbort > 0) {
    throw new BoundaryBroken(`${outcome.modelCallsAfterAbort} model call(s) after the abort`);
  }
  // Where the run was surely still at work when the signal fired (before it started, or inside a
  // model call that never answers), it must end as aborted. An abort from an event listener or a
  // timer may come as the run is already ending for another reason, which then stands.
  const surelyAtWork =
    outcome.abortedBeforeEnd &&
    (recipe.abort?.kind === "before-run" || recipe.abort?.kind === "in-model-call");
  if (surelyAtWork && endingOf(outcome) !== "aborted") {
    throw new BoundaryBroken(`the run was aborted while at work, yet ended with ${endingOf(outcome)}`);
  }
  if (outcome.abortListeners > 0) {
    throw new BoundaryBroken(`${outcome.abortListeners} abort listener(s) left on the host's signal`);
  }
}
