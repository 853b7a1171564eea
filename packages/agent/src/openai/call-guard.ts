/**
 * The cancellation of one call: joins the caller's `AbortSignal` with the optional timeout, and
 * names the failure of any network step (fetch, reading the body) after its real cause: the caller
 * aborted (`aborted`), the timeout fired (`timeout`), or the network broke (`network_error`).
 *
 * An abort rejects with `ModelCallError("aborted")`, not the raw `AbortError`, so callers match one
 * error class; the signal's reason stays reachable as `cause`.
 */
import { ModelCallError } from "@ptc/agent";
import { startTimer } from "../clock/long-timer.js";
import { providerText } from "./provider-text.js";
import type { Redact } from "./redact-secret.js";

export interface CallGuard {
  /** The signal to hand to `fetch`. */
  readonly signal: AbortSignal | undefined;
  /** Awaits a network step, turning its failure into a `ModelCallError`. */
  guard<T>(step: Promise<T>): Promise<T>;
  /** Stops the timer and detaches from the caller's signal. */
  dispose(): void;
}

export interface CallGuardSettings {
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
  readonly redact: Redact;
}

export function createCallGuard(settings: CallGuardSettings): CallGuard {
  const { signal: callerSignal, timeoutMs, redact } = settings;
  let timedOut = false;
  let signal = callerSignal;
  let dispose = () => {};
  if (timeoutMs !== undefined) {
    // Joined by hand: `AbortSignal.any` is missing from Node 20.0-20.2, which `engines` allows.
    const controller = new AbortController();
    const forward = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) forward();
    else callerSignal?.addEventListener("abort", forward, { once: true });
    // A long timer: past 2^31-1 ms a plain `setTimeout` fires after 1 ms, and Infinity sets none.
    const timer = startTimer(() => {
      timedOut = true;
      controller.abort(new Error(`Timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    signal = controller.signal;
    dispose = () => {
      timer.clear();
      callerSignal?.removeEventListener("abort", forward);
    };
  }

  const failure = (error: unknown): ModelCallError => {
    if (error instanceof ModelCallError) return error;
    if (callerSignal?.aborted) {
      return new ModelCallError("aborted", "OpenAI request was aborted", { cause: callerSignal.reason });
    }
    if (timedOut) return new ModelCallError("timeout", `OpenAI request timed out after ${timeoutMs} ms`);
    const described = describe(error);
    const description = providerText(described, redact);
    // A custom fetch may put request details in its error; keep it only when it is key-free.
    const cause = redact(described) === described ? error : undefined;
    return new ModelCallError("network_error", `OpenAI request failed: ${description}`, { cause });
  };

  return {
    signal,
    async guard(step) {
      try {
        return await (signal === undefined ? step : untilAborted(step, signal));
      } catch (error) {
        throw failure(error);
      }
    },
    dispose,
  };
}

/**
 * Settles with the step or, first, with the signal's abort: a custom `fetch` or body that ignores
 * the signal must not keep a cancelled run waiting.
 */
function untilAborted<T>(step: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    step.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Node's fetch says only "fetch failed"; the useful part (ECONNREFUSED, ENOTFOUND) is the cause. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  if (cause === undefined || cause === null) return error.message;
  const code = typeof cause === "object" && "code" in cause ? cause.code : undefined;
  const detail = typeof code === "string" ? code : cause instanceof Error ? cause.message : String(cause);
  return detail === "" ? error.message : `${error.message} (${detail})`;
}
