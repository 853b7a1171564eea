/**
 * At most N calls in flight on one server; the others wait their turn in order. A `pmap` over a
 * tool of a server that handles one request at a time would otherwise send it every request at
 * once. A call whose signal fires while it waits leaves the queue without ever being sent.
 */

import { subscribeAbort } from "./abort-fanout.js";

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
      let unsubscribe = () => {};
      const start = () => {
        unsubscribe();
        running++;
        resolve();
      };
      queue.push(start);
      // Through the fan-out: dozens of waiting calls often share one caller's signal.
      if (signal !== undefined) {
        unsubscribe = subscribeAbort(signal, (reason) => {
          const index = queue.indexOf(start);
          if (index >= 0) queue.splice(index, 1);
          reject(reason);
        });
      }
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
