/**
 * Wraps any model function to keep every request it was sent and every response it gave, in
 * order. The token summary counts exactly these requests, the live view prints from them, and the
 * transcript writes them: it works the same for the scripted model and a live provider.
 */
import type { ModelFunction, ModelRequest, ModelResponse } from "@ptc/agent";

/** A request as sent, minus its signal and stream callback. */
export type RecordedRequest = Omit<ModelRequest, "signal" | "stream">;

export interface ModelExchange {
  readonly request: RecordedRequest;
  readonly response?: ModelResponse;
  readonly error?: string;
  readonly durationMs: number;
}

export interface ModelListener {
  onRequest?(request: RecordedRequest): void;
  onResponse?(response: ModelResponse, request: RecordedRequest): void;
}

export interface RecordingModel {
  readonly llm: ModelFunction;
  readonly exchanges: readonly ModelExchange[];
}

export function createRecordingModel(
  llm: ModelFunction,
  listeners: readonly ModelListener[] = [],
): RecordingModel {
  const exchanges: ModelExchange[] = [];
  const recording: ModelFunction = async (request) => {
    const { signal: _signal, stream: _stream, ...recorded } = request;
    // The loop passes a fresh array per call; the messages in it are never changed afterwards.
    const snapshot: RecordedRequest = { ...recorded, messages: [...recorded.messages] };
    for (const listener of listeners) listener.onRequest?.(snapshot);
    const started = performance.now();
    try {
      const response = await llm(request);
      exchanges.push({ request: snapshot, response, durationMs: performance.now() - started });
      for (const listener of listeners) listener.onResponse?.(response, snapshot);
      return response;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      exchanges.push({ request: snapshot, error: message, durationMs: performance.now() - started });
      throw error;
    }
  };
  return { llm: recording, exchanges };
}
