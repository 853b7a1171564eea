/**
 * A judged program as the tool message that answers its `lisp_eval` call, in the PTC-Lisp
 * tool-call transport and in combined mode alike: each verdict has one rendering.
 */
import { format } from "@ptc/lisp";
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
    case "fail": {
      // `(fail v)` shows the model v, as `(return v)` would: the program chose to. A returned
      // value is shown as a bounded preview, and so is this one: v may hold all of `data/rows`.
      const text = failText(verdict);
      return renderError("fail", text, { result: text, feedback: text });
    }
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

/**
 * Characters of a `(fail v)` value the model reads (three times: as message, feedback and result).
 * The same bound as the text kept of an error a tool throws.
 */
const MAX_FAIL_CHARS = 2000;

/** The failed value's text, or its first MAX_FAIL_CHARS characters and where it was cut. */
function failText(verdict: ProgramVerdict & { readonly kind: "fail" }): string {
  return verdict.text.length > MAX_FAIL_CHARS
    ? format(verdict.failValue, { maxChars: MAX_FAIL_CHARS })
    : verdict.text;
}
