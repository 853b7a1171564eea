/**
 * Errors about the shape of an assistant turn rather than a program: an unknown native tool,
 * several `lisp_eval` calls, `lisp_eval` mixed with other calls. One is paired with every
 * offending tool call id. The tool-call transport repeats the message as `feedback`; combined
 * mode sends only status, reason and message.
 */
import { quotedName } from "./quoted-name.js";

export type ProtocolErrorReason = "unknown_tool" | "multiple_tool_calls" | "mixed_with_lisp_eval";

export const MULTIPLE_TOOL_CALLS_MESSAGE = "exactly one lisp_eval call per assistant turn";

export const MIXED_WITH_LISP_EVAL_MESSAGE =
  "lisp_eval is exclusive in its assistant turn; no other native tool calls may accompany it";

export interface ProtocolErrorRenderOptions {
  /** Include `feedback` (the tool-call transport does, combined mode does not). Default true. */
  readonly includeFeedback?: boolean;
}

export function renderProtocolError(
  reason: ProtocolErrorReason,
  message: string,
  options: ProtocolErrorRenderOptions = {},
): string {
  const payload: Record<string, unknown> = { status: "error", reason, message };
  if (options.includeFeedback ?? true) payload.feedback = message;
  return JSON.stringify(payload);
}

/**
 * The unknown-tool message. Over the tool-call transport the name is quoted and the model is told
 * that only `lisp_eval` exists natively; in combined mode other native tools exist, so it is not.
 */
export function unknownNativeToolMessage(
  name: string,
  options: { readonly combined?: boolean } = {},
): string {
  const shown = quotedName(name);
  if (options.combined === true) return `Unknown native tool \`${shown}\`.`;
  return `Unknown native tool \`${JSON.stringify(shown)}\`. Only \`lisp_eval\` is available natively in this transport.`;
}
