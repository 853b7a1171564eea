/**
 * `setTimeout` for any delay. Timers keep their delay in a signed 32-bit integer: past 2^31-1 ms
 * (about 24.8 days) Node fires them after 1 ms instead (with a TimeoutOverflowWarning), and
 * browsers do the same. A timeout set that high, or `Infinity` for none, must not fire at once:
 * a longer delay waits in steps of the longest one a timer holds, and an infinite one sets no
 * timer at all.
 */

/** The longest delay a timer holds, in milliseconds. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

export interface LongTimer {
  /** Cancels the timer; the callback is then never called. */
  clear(): void;
}

/**
 * Calls `callback` once after `delayMs`. `unref`: a pending timer does not keep the process alive
 * (for deadlines nobody may be waiting on; a tool's timeout is what settles a hung call, so it is
 * kept alive).
 */
export function startTimer(
  callback: () => void,
  delayMs: number,
  options: { readonly unref?: boolean } = {},
): LongTimer {
  let handle: ReturnType<typeof setTimeout> | undefined;
  let cleared = false;
  const arm = (remaining: number) => {
    if (cleared || remaining === Number.POSITIVE_INFINITY) return;
    const step = Math.min(remaining, MAX_TIMER_DELAY_MS);
    handle = setTimeout(() => {
      handle = undefined;
      if (remaining > MAX_TIMER_DELAY_MS) arm(remaining - MAX_TIMER_DELAY_MS);
      else callback();
    }, step);
    if (options.unref === true) (handle as { unref?: () => void }).unref?.();
  };
  arm(delayMs);
  return {
    clear() {
      cleared = true;
      if (handle !== undefined) clearTimeout(handle);
      handle = undefined;
    },
  };
}
