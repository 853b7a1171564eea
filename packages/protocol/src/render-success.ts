/**
 * The JSON a successful `lisp_eval` call returns: status, the `user=> ...` preview, printed
 * lines, feedback for the model, truncation flags and (for multi-turn loops, where `def`s
 * persist) what changed in memory. Key sets are fixed, except that `result` is left out when
 * there is no value to show: nil, or the var a `def` returns (its binding shows in `memory`).
 * The reference sends `"result": null` for a def; a null preview would read as "the program
 * returned nil", so we leave it out (docs/differences.md).
 *
 * Every text the program produced is framed as untrusted data, in its own field as in
 * `feedback`: the result preview, the printed output (one block: a block per line would cost the
 * model more than the lines) and each memory preview. Only what the agent itself writes stays
 * bare: status, flags and binding names (which the model wrote in its program).
 */

import type { ExecutionFeedback } from "./execution-feedback-types.js";
import { MAX_LISTED_VARS, quotedName } from "./quoted-name.js";
import { UNTRUSTED_PREAMBLE, wrapUntrusted } from "./untrusted.js";

export interface SuccessStep {
  /** The program's value; `null`/`undefined` when it had none. (The preview in `execution` decides what is shown.) */
  readonly value: unknown;
}

export interface RenderSuccessOptions {
  readonly execution: ExecutionFeedback;
  /** Default true. One-shot callers leave memory out: nothing persists between their calls. */
  readonly includeMemory?: boolean;
  /** A signature-validated return value (JSON), surfaced as `validated` when given. */
  readonly validated?: unknown;
}

/**
 * The reference repeats the result, printed output and memory blocks in `feedback`. Here each of
 * those fields is framed already, so `feedback` keeps the preamble that says how to read the
 * frames, plus the notes no other field carries: a program's value reaches the model once
 * (docs/differences.md).
 */
function jsonFeedback(execution: ExecutionFeedback): string {
  const notes = execution.notes ?? [];
  if (notes.length > 0) return `${UNTRUSTED_PREAMBLE}\n\n${notes.join("\n\n")}`;
  return execution.feedback === "" ? "" : UNTRUSTED_PREAMBLE;
}

export function renderSuccess(_step: SuccessStep, options: RenderSuccessOptions): string {
  const { execution } = options;
  const includeMemory = options.includeMemory ?? true;
  const payload: Record<string, unknown> = { status: "ok" };
  if (execution.result !== null) payload.result = wrapUntrusted(execution.result, "result");
  payload.prints =
    execution.prints.length === 0 ? [] : [wrapUntrusted(execution.prints.join("\n"), "println")];
  payload.feedback = jsonFeedback(execution);
  // Without memory in the payload, a clipped memory preview must not make visible output look cut.
  payload.truncated = includeMemory ? execution.truncated : execution.visibleTruncated;
  if (includeMemory) {
    const changed: Record<string, string> = {};
    for (const [name, preview] of Object.entries(execution.memory.changed)) {
      Object.defineProperty(changed, quotedName(name), {
        value: wrapUntrusted(preview, "memory"),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    payload.memory = {
      changed,
      // At most MAX_LISTED_VARS names; `truncated` says when there are more.
      stored_keys: execution.memory.storedKeys.slice(0, MAX_LISTED_VARS).map(quotedName),
      truncated: execution.memory.truncated,
    };
  }
  if (Object.hasOwn(options, "validated")) payload.validated = options.validated;
  return JSON.stringify(payload);
}
