/**
 * A judged program as the tool message that answers its `lisp_eval` call, in the PTC-Lisp
 * tool-call transport and in combined mode alike: each verdict has one rendering.
 */
import { classifyErrorReason, type ExecutionFeedback, renderError, renderSuccess } from "@ptc/protocol";
import type { ProgramVerdict } from "./judge-program.js";
import { memoryLimitToolMessage, rolledBackToolMessage } from "./memory-limit-texts.js";
import { MUST_RETURN_MESSAGE } from "./reply-content.js";

export interface LispEvalMessageOptions {
  /** What the program's value and output show; built only for the verdicts that show them. */
  readonly execution: () => ExecutionFeedback;
  /** The error as the model may read it (combined mode takes hidden values out); the verdict's by default. */
  readonly shownError?: string | undefined;
}

export function lispEvalMessage(verdict: ProgramVerdict, options: LispEvalMessageOptions): string {
  switch (verdict.kind) {
    case "error":
      return renderError(classifyErrorReason(verdict.reason), options.shownError ?? verdict.message);
    case "fail":
      // `(fail v)` shows the model v, as `(return v)` would: the program chose to.
      return renderError("fail", verdict.text, { result: verdict.text, feedback: verdict.text });
    case "answer":
    case "continue":
      return renderSuccess({ value: verdict.programValue }, { execution: options.execution() });
    case "invalid_return":
      // The same reason @ptc/mcp gives a value that does not fit its output_schema.
      return renderError("validation_error", verdict.message);
    case "must_return_missing":
      return renderError("validation_error", MUST_RETURN_MESSAGE);
    case "memory_limit":
      return renderError(
        "memory_limit",
        verdict.strategy === "strict"
          ? memoryLimitToolMessage(verdict.size, verdict.limit)
          : rolledBackToolMessage(verdict.size, verdict.limit),
      );
  }
}
