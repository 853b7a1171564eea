/**
 * Settles a provider promise early when the request's signal aborts. A run's cancel must not wait
 * on a provider that ignores `abortSignal` (custom and mock models often do); the abandoned
 * promise is left to settle on its own, and its result or error is dropped.
 */

export function untilAborted<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return Promise.resolve(promise);
  if (signal.aborted) {
    // The abandoned call may still reject; that rejection is ours to swallow, not unhandled.
    Promise.resolve(promise).catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}
