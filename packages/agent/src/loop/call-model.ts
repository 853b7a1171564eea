/**
 * One model call of a turn, with everything around it: `llm-call-start`/`-end` events, retries
 * per `llmRetry` (only while nothing has been streamed yet, so a reader never sees text twice),
 * cancellation (the run's signal and its mission deadline end a call even when the model function
 * ignores them), streaming deltas to `onChunk`, and token accounting.
 */

import { type LongTimer, startTimer } from "../clock/long-timer.js";
import { errorMessage } from "../error-message.js";
import { newSpanId } from "../events/event-sink.js";
import type { EventBase, LlmCallEndEvent } from "../events/event-types.js";
import { classifyModelError, retryDelay } from "../model/model-retry.js";
import type { ModelRequest } from "../model/model-types.js";
import { type NormalizedResponse, normalizeResponse } from "../model/normalize-response.js";
import type { LoopState, Run } from "./run-types.js";
import { wellFormedRequest } from "./well-formed-request.js";

export type ModelCallResult =
  | { readonly ok: true; readonly response: NormalizedResponse; readonly streamed: boolean }
  | { readonly ok: false; readonly kind: "error"; readonly message: string }
  | { readonly ok: false; readonly kind: "aborted" }
  | { readonly ok: false; readonly kind: "mission_timeout" };

export class Interrupted {
  constructor(readonly kind: "aborted" | "mission_timeout") {}
}

/**
 * `instanceof` on what a model function threw: a revoked Proxy throws even when asked that. Also
 * tells why an `interruptible` wait was cut short.
 */
export function interruption(error: unknown): Interrupted | undefined {
  try {
    return error instanceof Interrupted ? error : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves with `promise`, or rejects with `Interrupted` when the run is aborted or out of time. */
export function interruptible<T>(run: Run, promise: Promise<T>): Promise<T> {
  const racers: Promise<T>[] = [promise];
  const cleanups: (() => void)[] = [];
  if (run.signal !== undefined) {
    racers.push(
      new Promise<T>((_, reject) => {
        if (run.abort.aborted) reject(new Interrupted("aborted"));
        cleanups.push(run.abort.onAbort(() => reject(new Interrupted("aborted"))));
      }),
    );
  }
  if (run.deadline !== undefined) {
    const remaining = Math.max(0, run.deadline - Date.now());
    racers.push(
      new Promise<T>((_, reject) => {
        // Not `unref`, like a tool's deadline: a model that hangs without I/O (a hand-written
        // one) holds nothing else open, and a script awaiting the run would exit before it ends.
        // The timer is cleared as soon as the wait settles.
        const timer = startTimer(() => reject(new Interrupted("mission_timeout")), remaining);
        cleanups.push(() => timer.clear());
      }),
    );
  }
  if (racers.length === 1) return promise;
  promise.catch(() => undefined);
  return Promise.race(racers).finally(() => {
    for (const cleanup of cleanups) cleanup();
  });
}

/**
 * The wait before a retry. A long timer, since a provider's `retryAfterMs` may ask for more than a
 * plain `setTimeout` holds (it would fire after 1 ms). Not `unref`: the run is waiting on it, and
 * a script that awaits the run must not exit in the middle of it (nothing else may keep the
 * process alive then: the failed call's connection is closed or idle).
 */
function sleep(run: Run, ms: number): Promise<void> {
  let timer: LongTimer | undefined;
  return interruptible(
    run,
    new Promise<void>((resolve) => {
      timer = startTimer(resolve, ms);
    }),
  ).finally(() => timer?.clear());
}

/**
 * The signal of one model call. With a mission deadline it is a signal of the call's own, aborted
 * when the run's signal aborts and when the deadline passes: the run stops waiting on the call
 * then, and the model must stop too (close its connection, stop reading an endless body) rather
 * than go on in the background. Without a deadline the run's own signal serves.
 */
function callSignal(run: Run): { readonly signal: AbortSignal | undefined; expire(): void; dispose(): void } {
  if (run.deadline === undefined) return { signal: run.signal, expire() {}, dispose() {} };
  const controller = new AbortController();
  const unsubscribe = run.abort.onAbort((reason) => controller.abort(reason));
  return {
    signal: controller.signal,
    expire: () => controller.abort(new DOMException("The mission timed out.", "TimeoutError")),
    dispose: unsubscribe,
  };
}

export async function callModel(
  run: Run,
  state: LoopState,
  request: Omit<ModelRequest, "signal" | "stream" | "cache">,
  parentSpanId: string,
): Promise<ModelCallResult> {
  const { events, options } = run;
  let streamed = false;
  // Streaming is for the text modes' answers; PTC-Lisp replies are programs, not text for a reader.
  const onChunk = run.mode.ptc ? undefined : options.onChunk;
  const fullRequest: ModelRequest = {
    ...wellFormedRequest(request),
    ...(options.cache === undefined ? {} : { cache: options.cache }),
    ...(run.signal === undefined ? {} : { signal: run.signal }),
    ...(onChunk === undefined
      ? {}
      : {
          stream: (chunk: string | { delta: string }) => {
            const delta = typeof chunk === "string" ? chunk : chunk?.delta;
            if (typeof delta !== "string" || delta === "") return;
            streamed = true;
            try {
              onChunk({ delta });
            } catch {
              // A failing consumer must not fail the run.
            }
          },
        }),
  };

  for (let attempt = 1; ; attempt++) {
    // A listener of `turn-start` (or of the last attempt's events) may have aborted the run.
    if (run.abort.aborted) return { ok: false, kind: "aborted" };
    const spanId = newSpanId();
    events.emit(spanId, parentSpanId, {
      type: "llm-call-start",
      turn: request.turn,
      attempt,
      messageCount: fullRequest.messages.length,
      ...(events.payloads ? { system: fullRequest.system, messages: fullRequest.messages } : {}),
    });
    const started = Date.now();
    const { signal: _signal, stream, ...recorded } = fullRequest;
    events.record({
      type: "request",
      agentId: run.agentId,
      request: { ...recorded, ...(stream === undefined ? {} : { stream: true }) },
    });
    const end = (
      fields: Omit<LlmCallEndEvent, keyof EventBase | "type" | "turn" | "attempt" | "durationMs">,
    ) =>
      events.emit(spanId, parentSpanId, {
        type: "llm-call-end",
        turn: request.turn,
        attempt,
        durationMs: Date.now() - started,
        ...fields,
      });
    // The listener of `llm-call-start` may abort too: the model must then not be called at all.
    if (run.abort.aborted) {
      end({ ok: false, error: "aborted" });
      return { ok: false, kind: "aborted" };
    }
    let failure: unknown;
    let raw: unknown;
    const signal = callSignal(run);
    const callRequest = signal.signal === undefined ? fullRequest : { ...fullRequest, signal: signal.signal };
    try {
      raw = await interruptible(
        run,
        Promise.resolve().then(() => run.llm(callRequest)),
      );
    } catch (error) {
      const interrupted = interruption(error);
      if (interrupted !== undefined) {
        if (interrupted.kind === "mission_timeout") signal.expire();
        end({ ok: false, error: interrupted.kind === "aborted" ? "aborted" : "mission timeout" });
        return { ok: false, kind: interrupted.kind };
      }
      failure = error;
    } finally {
      signal.dispose();
    }
    const normalized = failure === undefined ? readResponse(raw) : undefined;
    if (normalized?.ok === true) {
      events.record({ type: "response", agentId: run.agentId, response: raw });
      const { tokens } = normalized.response;
      if (tokens !== null) {
        state.tokens.reported = true;
        state.tokens.input += tokens.input ?? 0;
        state.tokens.output += tokens.output ?? 0;
        state.tokens.cacheCreation += tokens.cacheCreation ?? 0;
        state.tokens.cacheRead += tokens.cacheRead ?? 0;
      }
      state.llmRequests += 1;
      end({
        ok: true,
        ...(tokens?.input === undefined ? {} : { inputTokens: tokens.input }),
        ...(tokens?.output === undefined ? {} : { outputTokens: tokens.output }),
        ...(events.payloads
          ? { response: { content: normalized.response.content, toolCalls: normalized.response.toolCalls } }
          : {}),
      });
      return { ok: true, response: normalized.response, streamed };
    }
    const message = failure === undefined ? (normalized as { error: string }).error : errorMessage(failure);
    events.record({ type: "model-error", agentId: run.agentId, message });
    end({ ok: false, error: message });
    const kind = failure === undefined ? "invalid_response" : classifyModelError(failure);
    const retryable =
      attempt < run.retry.maxAttempts && !streamed && run.retry.retryableErrors.includes(kind);
    if (!retryable) return { ok: false, kind: "error", message };
    const delay = retryDelay(run.retry, attempt, failure);
    if (delay > run.retry.maxDelayMs) {
      return { ok: false, kind: "error", message: `${message}${tooLongToWait(delay, run.retry.maxDelayMs)}` };
    }
    // Even `maxDelayMs: Infinity` cannot wait for ever: no retry would follow, and an endless wait
    // holds no timer, so a script awaiting the run would exit with the run never settled.
    if (delay === Number.POSITIVE_INFINITY) {
      return {
        ok: false,
        kind: "error",
        message: `${message} (not retried: the provider asked to wait without end)`,
      };
    }
    // A wait that ends past the mission deadline would only end in a mission timeout: the
    // provider's own error says more, and says it now.
    if (run.deadline !== undefined && Date.now() + delay >= run.deadline)
      return { ok: false, kind: "error", message };
    try {
      await sleep(run, delay);
    } catch (error) {
      const interrupted = interruption(error);
      if (interrupted !== undefined) return { ok: false, kind: interrupted.kind };
      throw error;
    }
  }
}

/** Why a provider's error was not retried although `llmRetry` would have: it asked to wait too long. */
function tooLongToWait(asked: number, longest: number): string {
  const ms = (value: number) => `${Math.round(value).toLocaleString("en-US")} ms`;
  return ` (not retried: the provider asked to wait ${ms(asked)}, longer than llmRetry.maxDelayMs, ${ms(longest)}; raise it, or Infinity, to wait)`;
}

/** A response that cannot even be read (a revoked Proxy, a throwing getter) is a model error. */
function readResponse(raw: unknown): ReturnType<typeof normalizeResponse> {
  try {
    return normalizeResponse(raw);
  } catch (error) {
    return { ok: false, error: `the model's response could not be read: ${errorMessage(error)}` };
  }
}
