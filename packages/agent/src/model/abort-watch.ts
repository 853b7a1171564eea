/**
 * One listener on an AbortSignal, however many calls wait on it. A run makes many calls at once (a
 * pmap over a tool, nested pmaps, child agents); a listener of each call's own on the run's signal
 * would pile dozens onto the caller's signal, and Node warns past ten (MaxListenersExceededWarning).
 * So the run attaches once and its calls subscribe here; a call drops its subscription when it
 * ends, and the run drops the one listener when it ends. Nothing here may keep a listener on the
 * watched signal after `dispose`.
 */

export interface AbortWatch {
  /** The watched signal, if any (handed on as it is to the model and to programs). */
  readonly signal: AbortSignal | undefined;
  readonly aborted: boolean;
  readonly reason: unknown;
  /**
   * Calls `listener` once when the signal aborts; returns the function that cancels the
   * subscription. A signal that has already aborted calls nobody: check `aborted` first.
   */
  onAbort(listener: (reason: unknown) => void): () => void;
  /** Removes the listener from the signal; subscribers are never called after it. */
  dispose(): void;
}

const noop = () => {};

export function watchAbort(signal: AbortSignal | undefined): AbortWatch {
  const listeners = new Set<(reason: unknown) => void>();
  const fire = () => {
    const waiting = [...listeners];
    listeners.clear();
    for (const listener of waiting) listener(signal?.reason);
  };
  const attached = signal !== undefined && !signal.aborted;
  if (attached) signal.addEventListener("abort", fire, { once: true });
  return {
    signal,
    get aborted() {
      return signal?.aborted === true;
    },
    get reason() {
      return signal?.reason;
    },
    onAbort(listener) {
      if (signal === undefined || signal.aborted) return noop;
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      listeners.clear();
      if (attached) signal.removeEventListener("abort", fire);
    },
  };
}

export interface LinkedSignal {
  readonly signal: AbortSignal;
  readonly dispose: () => void;
}

/**
 * A signal of its own that aborts when any watched signal does, for a child that passes its
 * signal on (a child agent run); undefined when no watch has a signal to follow. `dispose` drops
 * the subscriptions.
 */
export function linkedSignal(watches: readonly (AbortWatch | undefined)[]): LinkedSignal | undefined {
  const sources = watches.filter((watch): watch is AbortWatch => watch?.signal !== undefined);
  if (sources.length === 0) return undefined;
  const controller = new AbortController();
  const unsubscribes: (() => void)[] = [];
  const dispose = () => {
    for (const unsubscribe of unsubscribes) unsubscribe();
    unsubscribes.length = 0;
  };
  for (const source of sources) {
    if (source.aborted) {
      controller.abort(source.reason);
      dispose();
      break;
    }
    unsubscribes.push(
      source.onAbort((reason) => {
        controller.abort(reason);
        dispose();
      }),
    );
  }
  return { signal: controller.signal, dispose };
}
