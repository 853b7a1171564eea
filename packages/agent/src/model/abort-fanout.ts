/**
 * One listener of ours on a caller's AbortSignal, however many runs share that signal.
 *
 * A host commonly hands one signal (its shutdown signal, a request's signal) to many runs at once.
 * If each run added its own `abort` listener, fifty runs would put fifty listeners on it, and Node
 * warns past ten (MaxListenersExceededWarning), which reads as a leak to whoever runs the host.
 * So every run subscribes here instead: the first subscriber on a signal attaches the one real
 * listener, each subscriber leaves when its run ends, and the last one to leave removes the real
 * listener, so a long-lived signal keeps nothing of ours between runs. The map is weak: it keeps
 * no signal alive.
 *
 * The same file is in @ptc/lisp (src/runtime/abort-fanout.ts) and @ptc/mcp
 * (src/client/abort-fanout.ts): importing one package's copy from another would make it public API.
 * So each package puts at most one listener on a signal.
 */

interface Fanout {
  readonly subscribers: Set<(reason: unknown) => void>;
  readonly fire: () => void;
}

const fanouts = new WeakMap<AbortSignal, Fanout>();

/**
 * Calls `listener` once, with the signal's reason, when `signal` aborts; returns the function that
 * unsubscribes (safe to call more than once). A signal that has already aborted calls nobody: the
 * caller checks `signal.aborted` first. Like listeners of the signal's own, subscribers are called
 * in the order they subscribed, and one that unsubscribes before its turn comes is not called.
 */
export function subscribeAbort(signal: AbortSignal, listener: (reason: unknown) => void): () => void {
  if (signal.aborted) return () => {};
  let fanout = fanouts.get(signal);
  if (fanout === undefined) fanout = attach(signal);
  // A wrapper of its own, so that the same function subscribed twice is two subscriptions.
  const entry = (reason: unknown) => listener(reason);
  const { subscribers, fire } = fanout;
  subscribers.add(entry);
  return () => {
    if (!subscribers.delete(entry) || subscribers.size > 0) return;
    signal.removeEventListener("abort", fire);
    if (fanouts.get(signal)?.fire === fire) fanouts.delete(signal);
  };
}

function attach(signal: AbortSignal): Fanout {
  const subscribers = new Set<(reason: unknown) => void>();
  const fire = () => {
    fanouts.delete(signal);
    for (const subscriber of [...subscribers]) {
      if (!subscribers.delete(subscriber)) continue;
      // Each run's listener used to be a listener of its own, which another run's failure could
      // not skip: so a throw skips nobody here either. Every subscriber is this package's own code
      // and none is meant to throw, so a throw is a bug: it is reported on the console, not lost.
      // It is not rethrown (from a microtask, say): that would be an uncaught exception, which
      // ends a Node host that has no handler for it, and with it every other run it serves.
      try {
        subscriber(signal.reason);
      } catch (error) {
        console.error(
          "@ptc/agent: a listener of an AbortSignal threw (the other runs on the signal were still aborted); this is a bug, please report it:",
          error,
        );
      }
    }
  };
  const fanout = { subscribers, fire };
  fanouts.set(signal, fanout);
  signal.addEventListener("abort", fire, { once: true });
  return fanout;
}
