/**
 * Reads a V3 stream into one response: text deltas go to `request.stream` as they arrive and are
 * collected, tool calls are assembled from their input deltas (and replaced by the final
 * `tool-call` part when the provider sends one), `finish` gives the usage, and an `error` part
 * fails the call. Calls the provider executed itself are left out: the loop must not run them.
 */
import type { LanguageModelV3StreamPart, LanguageModelV3Usage } from "@ai-sdk/provider";
import type { ModelResponseObject, ModelToolCall } from "@ptc/agent";
import { ModelCallError } from "@ptc/agent";
import { toModelCallError } from "./to-model-call-error.js";
import { toTokenCounts } from "./to-token-counts.js";
import { toToolCall } from "./to-tool-call.js";

interface PendingToolCall {
  toolName: string;
  input: string;
  providerExecuted: boolean;
}

/** Thrown by `request.stream` itself: the caller's bug, rethrown as is rather than as a model error. */
class ChunkHandlerError {
  constructor(readonly error: unknown) {}
}

export interface ReadStreamOptions {
  /** Receives each non-empty text delta, in order. */
  readonly onText: (delta: string) => void;
  readonly signal?: AbortSignal | undefined;
}

export async function readStream(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  { onText, signal }: ReadStreamOptions,
): Promise<ModelResponseObject> {
  const reader = stream.getReader();
  // Cancelling the reader ends a stream whose provider ignores the signal; the abort is then
  // reported from the signal below.
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  let text = "";
  let sawText = false;
  const toolCalls = new Map<string, PendingToolCall>();
  let usage: LanguageModelV3Usage | undefined;
  try {
    for (;;) {
      signal?.throwIfAborted();
      // A stream that fails after the provider accepted the call (a dropped connection, a
      // provider's bug) failed while answering, like an `error` part: `server_error` unless the
      // error says more.
      const { done, value: part } = await reader.read().catch((error: unknown) => {
        throw toModelCallError(error, signal, "stream-part");
      });
      if (done) break;
      if (typeof part !== "object" || part === null) {
        throw new ModelCallError(
          "invalid_response",
          `The model's stream sent ${part === null ? "null" : typeof part} where a stream part belongs`,
        );
      }
      switch (part.type) {
        case "text-delta":
          sawText = true;
          text += part.delta;
          if (part.delta !== "") {
            try {
              onText(part.delta);
            } catch (error) {
              throw new ChunkHandlerError(error);
            }
          }
          break;
        case "tool-input-start":
          toolCalls.set(part.id, {
            toolName: part.toolName,
            input: "",
            providerExecuted: part.providerExecuted === true,
          });
          break;
        case "tool-input-delta": {
          const pending = toolCalls.get(part.id);
          // Text only: `+=` would write a hand-written model's `undefined` into the arguments.
          const delta: unknown = part.delta;
          if (typeof delta !== "string") break;
          if (pending === undefined) {
            toolCalls.set(part.id, { toolName: "", input: delta, providerExecuted: false });
          } else {
            pending.input += delta;
          }
          break;
        }
        case "tool-call": {
          // The final part is authoritative: it has the complete, JSON-encoded input.
          const existing = toolCalls.get(part.toolCallId);
          toolCalls.set(part.toolCallId, {
            toolName: part.toolName,
            input: part.input,
            providerExecuted: part.providerExecuted === true || existing?.providerExecuted === true,
          });
          break;
        }
        case "finish":
          usage = part.usage;
          break;
        case "error":
          throw toModelCallError(part.error, signal, "stream-part");
        default:
          // Reasoning, sources, files, metadata and raw chunks carry nothing the loop reads.
          break;
      }
    }
    signal?.throwIfAborted();
  } catch (error) {
    await reader.cancel().catch(() => {});
    if (error instanceof ChunkHandlerError) throw error.error;
    throw toModelCallError(error, signal);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
  const calls: ModelToolCall[] = [];
  for (const [id, pending] of toolCalls) {
    if (!pending.providerExecuted) calls.push(toToolCall(id, pending.toolName, pending.input));
  }
  const tokens = toTokenCounts(usage);
  return {
    content: sawText ? text : null,
    ...(calls.length > 0 ? { toolCalls: calls } : {}),
    ...(tokens === undefined ? {} : { tokens }),
  };
}
