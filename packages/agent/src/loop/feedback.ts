/**
 * The user-role feedback of PTC-Lisp loops: errors framed as untrusted data with the turn-budget
 * line after them, the report of a return value that does not match the signature, and the
 * success feedback of the content transport (result, prints, memory, budget, progress).
 */
import { format } from "@ptc/lisp";
import {
  buildErrorFeedback,
  buildExecutionFeedback,
  type ExecutionFeedback,
  UNTRUSTED_PREAMBLE,
  wrapUntrusted,
} from "@ptc/protocol";
import { renderType, type Signature, toLispKey, type ValidationIssue } from "@ptc/tool";
import { headOf } from "../cut-text.js";
import { renderProgress } from "../prompt/progress.js";
import { turnInfo } from "../prompt/turn-info.js";
import type { ProgramOutcome } from "./execute-program.js";
import type { LoopState, Run } from "./run-types.js";

export function budgetLine(run: Run, state: LoopState): string {
  return turnInfo({
    turn: state.turn,
    maxTurns: run.agent.maxTurns,
    retryTurns: run.agent.retryTurns,
    workRemaining: state.workRemaining,
    retryRemaining: state.retryRemaining,
    minimal: run.agent.formatOptions.minimalTurnInfo,
  });
}

/** An error for the model: framed, capped, followed by the turn-budget line. */
export function errorFeedback(run: Run, state: LoopState, message: string): string {
  return (
    buildErrorFeedback(message, { feedbackMaxChars: run.agent.formatOptions.feedbackMaxChars }) +
    budgetLine(run, state)
  );
}

/** Why a `(return v)` does not match the signature, in the shape the model is taught to fix. */
/**
 * Issues a return validation lists, and characters of each. A vector of 300,000 wrong items has
 * 300,000 issues; the message goes back to the model (whole over the tool-call transport: 22 MB),
 * and the first few say what is wrong as well as all of them.
 */
const MAX_LISTED_ISSUES = 20;
const MAX_ISSUE_CHARS = 300;

function shortLine(line: string): string {
  return line.length > MAX_ISSUE_CHARS
    ? `${headOf(line, MAX_ISSUE_CHARS)}... (${line.length} characters)`
    : line;
}

export function returnValidationMessage(
  signature: Signature,
  value: unknown,
  errors: readonly ValidationIssue[],
): string {
  const received = format(value);
  const lines = errors.slice(0, MAX_LISTED_ISSUES).map((error) => {
    const path =
      error.path.length === 0
        ? "root"
        : `[${error.path.map((part) => (typeof part === "string" ? toLispKey(part) : String(part))).join(".")}]`;
    return shortLine(`- ${path}: ${error.message}`);
  });
  if (errors.length > MAX_LISTED_ISSUES)
    lines.push(`- ... (${errors.length - MAX_LISTED_ISSUES} more errors)`);
  return [
    "Return type validation failed.",
    `Expected: ${renderType(signature.returns, { keyStyle: "lisp_prompt" })}`,
    `Received: ${received.length > 200 ? headOf(received, 200) : received}`,
    "Errors:",
    ...lines,
    "Please fix and call (return ...) with a correctly typed value.",
  ].join("\n");
}

/**
 * What a successful program shows the model, in every transport. Warnings (what the run let pass,
 * such as a `data/` key the context lacks, read as nil) follow the output, framed as data: they
 * quote names the program wrote. `shapeOnly` names the bindings previewed without their values.
 */
export function executionFeedback(
  run: Run,
  shown: {
    readonly value: unknown;
    readonly prints: readonly string[];
    readonly memory: Readonly<Record<string, unknown>>;
    readonly previousMemory: Readonly<Record<string, unknown>>;
    readonly warnings: readonly string[];
    readonly shapeOnly?: ReadonlySet<string> | undefined;
  },
): ExecutionFeedback {
  const { value, prints, memory, previousMemory, warnings, shapeOnly } = shown;
  const execution = buildExecutionFeedback(
    { value, prints, memory },
    {
      previousMemory,
      maxTurns: run.agent.maxTurns,
      feedbackMaxChars: run.agent.formatOptions.feedbackMaxChars,
      previewMaxChars: run.agent.formatOptions.previewMaxChars,
      ...(shapeOnly === undefined ? {} : { shapeOnly }),
    },
  );
  if (warnings.length === 0) return execution;
  const block = wrapUntrusted(warnings.map((warning) => `- ${warning}`).join("\n"), "warnings");
  const feedback =
    execution.feedback === "" ? `${UNTRUSTED_PREAMBLE}\n\n${block}` : `${execution.feedback}\n\n${block}`;
  return { ...execution, feedback, notes: [...(execution.notes ?? []), block] };
}

/**
 * The execution feedback of a program that ran: its value (by default the run's own), its output
 * and warnings, and its memory against the memory from before it, so call it before the verdict
 * is kept.
 */
export function programFeedback(
  run: Run,
  state: LoopState,
  outcome: ProgramOutcome,
  shown: { readonly value?: unknown; readonly shapeOnly?: ReadonlySet<string> | undefined } = {},
): ExecutionFeedback {
  const { result } = outcome;
  return executionFeedback(run, {
    value: "value" in shown ? shown.value : result.ok ? result.value : null,
    prints: result.prints,
    memory: outcome.memory,
    previousMemory: state.memory,
    warnings: result.ok ? result.warnings : [],
    shapeOnly: shown.shapeOnly,
  });
}

/** Success feedback of the content transport: execution feedback, budget line, progress. */
export function successFeedback(
  run: Run,
  state: LoopState,
  execution: ExecutionFeedback,
  summaries: Readonly<Record<string, string>>,
  toolCalls: readonly unknown[],
): string {
  let text = execution.feedback + budgetLine(run, state);
  const progress = renderProgress(
    run.agent,
    { plan: run.agent.plan, summaries, toolCalls, turn: state.turn, phase: "continuation" },
    state.progressState,
  );
  state.progressState = progress.state;
  if (progress.text !== "") text += `\n\n${progress.text}`;
  return text;
}
