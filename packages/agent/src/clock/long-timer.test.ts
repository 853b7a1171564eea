import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_TIMER_DELAY_MS, startTimer } from "./long-timer.js";

describe("startTimer", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("waits the whole of a delay longer than a timer holds, in steps", () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    startTimer(fired, MAX_TIMER_DELAY_MS * 2 + 5);
    vi.advanceTimersByTime(MAX_TIMER_DELAY_MS * 2);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it("sets no timer for Infinity, and a cleared timer never fires, even between steps", () => {
    vi.useFakeTimers();
    const never = vi.fn();
    startTimer(never, Number.POSITIVE_INFINITY);
    expect(vi.getTimerCount()).toBe(0);
    const cleared = vi.fn();
    const timer = startTimer(cleared, MAX_TIMER_DELAY_MS + 10);
    vi.advanceTimersByTime(MAX_TIMER_DELAY_MS);
    timer.clear();
    vi.advanceTimersByTime(100);
    expect(cleared).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
