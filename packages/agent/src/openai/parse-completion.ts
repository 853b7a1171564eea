/**
 * Reads a non-streamed Chat Completions body into a `ModelResponseObject`: the first choice's
 * text, its tool calls and the usage. A body that is not a completion is an `invalid_response`.
 */

import type { ModelResponseObject } from "@ptc/agent";
import { ModelCallError } from "@ptc/agent";
import { isRecord } from "./is-record.js";
import { providerText } from "./provider-text.js";
import type { Redact } from "./redact-secret.js";
import { toModelToolCall } from "./to-model-tool-call.js";
import { toTokenCounts } from "./to-token-counts.js";

/** Enough of a bad body to recognise it in an error message. */
const PREVIEW_LIMIT = 200;

export function parseCompletion(text: string, redact: Redact): ModelResponseObject {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // No `cause`: V8's SyntaxError quotes the body, which the redactor has not seen.
    throw new ModelCallError(
      "invalid_response",
      `OpenAI response is not valid JSON: ${providerText(text, redact, PREVIEW_LIMIT)}`,
    );
  }
  const choice = isRecord(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = isRecord(choice) ? choice.message : undefined;
  if (!isRecord(message)) {
    const providerMessage = isRecord(body) && isRecord(body.error) ? body.error.message : undefined;
    const detail = typeof providerMessage === "string" ? `: ${providerText(providerMessage, redact)}` : "";
    throw new ModelCallError("invalid_response", `OpenAI response has no choices[0].message${detail}`);
  }
  const tokens = isRecord(body) ? toTokenCounts(body.usage) : undefined;
  const toolCalls = Array.isArray(message.tool_calls)
    ? message.tool_calls.map((call: unknown) => {
        const fn = isRecord(call) && isRecord(call.function) ? call.function : {};
        return toModelToolCall(isRecord(call) ? call.id : undefined, fn.name, fn.arguments);
      })
    : undefined;
  return {
    content: typeof message.content === "string" ? message.content : null,
    ...(toolCalls === undefined ? {} : { toolCalls }),
    ...(tokens === undefined ? {} : { tokens }),
  };
}
