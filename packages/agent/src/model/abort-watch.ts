/**
 * One listener on an AbortSignal, however many calls wait on it. A run makes many calls at once (a
 * pmap over a tool, nested pmaps, child agents); a listener of each call's own on the run's signal
 * would pile dozens onto the caller's signal, and Node warns past ten (MaxListenersExceededWarning).
 * So the run attaches once and its calls subscribe here; a call drops its subscription when it
 * ends, and the run drops its subscription when it ends. Nothing here may keep a listener on the
 * watched signal after `dispose`.
 *
 * Many runs may share one caller's signal too, so the watch does not listen on it directly: it
 * subscribes through abort-fanout.ts (one listener for all the runs on that signal), and hands
 * the model and programs a signal of the run's own, which aborts with the caller's reason right
 * after the watch's subscribers have heard it. Their listeners (a program's, a model call's, the
 * `fetch` of an adapter) then sit on the run's signal and are gone with the run.
 */

import { subscribeAbort } from "./abort-fanout.js";

export interface AbortWatch {
  /**
   * The run's own signal, following the watched one (undefined when there is none): what the
   * model, programs and child runs are handed.
   */
  readonly signal: AbortSignal | undefined;
  readonly aborted: boolean;
  readonly reason: unknown;
  /**
   * Calls `listener` once when the signal aborts; returns the function that cancels the
   * subscription. A signal that has already aborted calls nobody: check `aborted` first.
   */
  onAbort(listener: (reason: unknown) => void): () => void;
  /** Drops the subscription to the signal; subscribers are never called after it. */
  dispose(): void;
}

const noop = () => {};

const UNWATCHED: AbortWatch = {
  signal: undefined,
  aborted: false,
  reason: undefined,
  onAbort: () => noop,
  dispose: noop,
};

export function watchAbort(signal: AbortSignal | undefined): AbortWatch {
  if (signal === undefined) return UNWATCHED;
  const listeners = new Set<(reason: unknown) => void>();
  const own = new AbortController();
  let unsubscribe = noop;
  if (signal.aborted) own.abort(signal.reason);
  else {
    unsubscribe = subscribeAbort(signal, (reason) => {
      const waiting = [...listeners];
      listeners.clear();
      for (const listener of waiting) listener(reason);
      own.abort(reason);
    });
  }
  return {
    signal: own.signal,
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason;
    },
    onAbort(listener) {
      if (signal.aborted) return noop;
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      listeners.clear();
      unsubscribe();
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
