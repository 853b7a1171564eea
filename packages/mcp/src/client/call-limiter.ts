/**
 * At most N calls in flight on one server; the others wait their turn in order. A `pmap` over a
 * tool of a server that handles one request at a time would otherwise send it every request at
 * once. A call whose signal fires while it waits leaves the queue without ever being sent.
 */

export interface CallLimiter {
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Calls running now and calls waiting, for tests and diagnostics. */
  readonly running: number;
  readonly waiting: number;
}

export function createCallLimiter(maxConcurrency: number): CallLimiter {
  let running = 0;
  const queue: (() => void)[] = [];

  const release = () => {
    running--;
    const next = queue.shift();
    if (next !== undefined) next();
  };

  const acquire = (signal: AbortSignal | undefined): Promise<void> => {
    if (running < maxConcurrency) {
      running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener("abort", onAbort);
        running++;
        resolve();
      };
      const onAbort = () => {
        const index = queue.indexOf(start);
        if (index >= 0) queue.splice(index, 1);
        reject(signal?.reason);
      };
      queue.push(start);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  };

  return {
    async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      signal?.throwIfAborted();
      await acquire(signal);
      try {
        return await task();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
  };
}
