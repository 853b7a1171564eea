/**
 * One signal that aborts when any of the given ones does, with a `dispose` that detaches it again.
 * Written by hand because `AbortSignal.any` is missing from Node 20.0–20.2, which `engines` allows,
 * and because a joined signal must not keep listeners on a long-lived parent signal after use.
 */
export interface JoinedSignal {
  readonly signal: AbortSignal;
  readonly dispose: () => void;
}

export function joinSignals(signals: readonly AbortSignal[]): JoinedSignal {
  const controller = new AbortController();
  const listeners: [AbortSignal, () => void][] = [];
  const dispose = () => {
    for (const [signal, listener] of listeners) signal.removeEventListener("abort", listener);
    listeners.length = 0;
  };
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      dispose();
      break;
    }
    const listener = () => {
      controller.abort(signal.reason);
      dispose();
    };
    signal.addEventListener("abort", listener, { once: true });
    listeners.push([signal, listener]);
  }
  return { signal: controller.signal, dispose };
}
