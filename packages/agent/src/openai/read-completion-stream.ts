/**
 * Assembles a streamed Chat Completions response into the same `ModelResponseObject` a
 * non-streamed call returns, handing each text delta to the caller as it arrives. Tool calls
 * arrive in pieces keyed by `index`: the first piece carries the id and name, the rest append
 * argument text, and calls may interleave.
 */

import type { ModelResponseObject, TokenCounts } from "@ptc/agent";
import { ModelCallError } from "@ptc/agent";
import { isRecord } from "./is-record.js";
import { parseSse } from "./parse-sse.js";
import { providerText } from "./provider-text.js";
import type { Redact } from "./redact-secret.js";
import { toModelToolCall } from "./to-model-tool-call.js";
import { toTokenCounts } from "./to-token-counts.js";

export interface StreamReading {
  /** Receives each non-empty text delta, in order. */
  readonly onDelta: (delta: string) => void;
  /** Maps a failure to read the body (abort, timeout, dropped connection). */
  readonly guard: <T>(step: Promise<T>) => Promise<T>;
  readonly redact: Redact;
  /** Bytes of the body read before the call fails with `invalid_response`. */
  readonly maxBytes: number;
}

interface PendingToolCall {
  id?: string;
  name?: string;
  arguments: string;
}

export async function readCompletionStream(
  body: ReadableStream<Uint8Array>,
  reading: StreamReading,
): Promise<ModelResponseObject> {
  const events = parseSse(body, reading.maxBytes);
  const pending = new Map<number, PendingToolCall>();
  let content = "";
  let tokens: TokenCounts | undefined;
  let sawChunk = false;
  try {
    while (true) {
      const next = await reading.guard(events.next());
      if (next.done || next.value.data.trim() === "[DONE]") break;
      const chunk = parseChunk(next.value.data, reading.redact);
      if (next.value.event === "error" || "error" in chunk) throw streamError(chunk, reading.redact);
      sawChunk = true;
      // The usage chunk comes last, with empty `choices`, only because we ask for `include_usage`.
      tokens = toTokenCounts(chunk.usage) ?? tokens;
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      const delta = isRecord(choice) && isRecord(choice.delta) ? choice.delta : {};
      if (typeof delta.content === "string" && delta.content !== "") {
        content += delta.content;
        reading.onDelta(delta.content);
      }
      if (Array.isArray(delta.tool_calls)) collectToolCalls(pending, delta.tool_calls);
    }
  } finally {
    // Not awaited: after an abort the generator may still sit in a read the body never settles.
    events.return().catch(() => {});
  }
  if (!sawChunk) {
    throw new ModelCallError("invalid_response", "OpenAI stream ended without a completion chunk");
  }
  const toolCalls = [...pending.entries()]
    .sort(([left], [right]) => left - right)
    .map(([, call]) => toModelToolCall(call.id, call.name, call.arguments));
  return {
    // Matches the non-streamed shape: a call-only turn has `content: null`.
    content: content === "" && toolCalls.length > 0 ? null : content,
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    ...(tokens === undefined ? {} : { tokens }),
  };
}

function collectToolCalls(pending: Map<number, PendingToolCall>, deltas: readonly unknown[]): void {
  deltas.forEach((delta, position) => {
    if (!isRecord(delta)) return;
    // `index` is always present on OpenAI; the position is a fallback for looser servers.
    const index = typeof delta.index === "number" ? delta.index : position;
    const call = pending.get(index) ?? { arguments: "" };
    pending.set(index, call);
    if (call.id === undefined && typeof delta.id === "string" && delta.id !== "") call.id = delta.id;
    const fn = isRecord(delta.function) ? delta.function : {};
    if (call.name === undefined && typeof fn.name === "string" && fn.name !== "") call.name = fn.name;
    if (typeof fn.arguments === "string") call.arguments += fn.arguments;
  });
}

function parseChunk(data: string, redact: Redact): Record<string, unknown> {
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    // No `cause`: V8's SyntaxError quotes the data, which the redactor has not seen.
    throw new ModelCallError(
      "invalid_response",
      `OpenAI stream sent invalid JSON: ${providerText(data, redact)}`,
    );
  }
  if (!isRecord(chunk)) {
    throw new ModelCallError(
      "invalid_response",
      `OpenAI stream sent a non-object chunk: ${providerText(data, redact)}`,
    );
  }
  return chunk;
}

/** OpenAI reports failures after the 200 status as an `error` payload inside the stream. */
function streamError(chunk: Record<string, unknown>, redact: Redact): ModelCallError {
  const error = chunk.error;
  const raw = isRecord(error) ? error.message : typeof error === "string" ? error : chunk.message;
  const providerMessage = providerText(typeof raw === "string" ? raw : JSON.stringify(chunk), redact);
  return new ModelCallError("server_error", `OpenAI stream failed: ${providerMessage}`, { providerMessage });
}
