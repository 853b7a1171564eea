/**
 * One-shot success rendering straight from a run result, for callers without a loop (an MCP-like
 * server, a single `lisp_eval` call): feedback as for a single-turn agent, no memory field.
 */
import { buildExecutionFeedback, type ProgramStep } from "./execution-feedback.js";
import { renderSuccess } from "./render-success.js";

export interface RenderSuccessFromStepOptions {
  readonly validated?: unknown;
}

export function renderSuccessFromStep(step: ProgramStep, options: RenderSuccessFromStepOptions = {}): string {
  const execution = buildExecutionFeedback(step, { maxTurns: 1 });
  return renderSuccess(step, {
    execution,
    includeMemory: false,
    ...(Object.hasOwn(options, "validated") ? { validated: options.validated } : {}),
  });
}
