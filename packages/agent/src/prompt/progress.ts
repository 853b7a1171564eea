/**
 * The progress section: the plan as a checklist the program ticks off with
 * `(step-done "id" "summary")`, or whatever the agent's own `progress` function renders.
 */

import type { ProgressInput } from "../agent/agent-options.js";
import type { Agent } from "../agent/agent-types.js";
import { AgentError } from "../errors.js";

export function planChecklist(
  plan: readonly (readonly [string, string])[],
  summaries: Readonly<Record<string, string>>,
): string {
  if (plan.length === 0) return "";
  const lines = plan.map(([id, description]) => {
    const summary = summaries[id];
    return summary === undefined
      ? `- [ ] **${id}.** ${description}`
      : `- [x] **${id}.** ${description} — ${summary}`;
  });
  const planned = new Set(plan.map(([id]) => id));
  const extra = Object.entries(summaries).filter(([id]) => !planned.has(id));
  let text = `## Progress\nUse \`(step-done "id" "summary")\` to mark steps complete (optional).\n\n${lines.join("\n")}`;
  if (extra.length > 0) {
    text += `\n\n### Out-of-Plan Steps\n${extra.map(([id, summary]) => `- [x] ${id}: ${summary}`).join("\n")}`;
  }
  return text;
}

/** Renders progress for a turn; returns the text and the progress function's new state. */
export function renderProgress(
  agent: Agent,
  input: ProgressInput,
  state: unknown,
): { readonly text: string; readonly state: unknown } {
  if (agent.progress === undefined) return { text: planChecklist(agent.plan, input.summaries), state };
  const result = agent.progress(input, state) as unknown;
  if (!Array.isArray(result) || result.length !== 2 || typeof result[0] !== "string") {
    throw new AgentError(
      "PTC_AGENT_CALLBACK_ERROR",
      `progress must return [text, newState] with text a string, got ${String(result)}`,
      { details: { option: "progress" } },
    );
  }
  return { text: result[0], state: result[1] };
}
