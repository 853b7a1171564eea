/**
 * Values or promises. Pure computation never allocates a promise: only a tool call (or a branch of
 * pmap/pcalls) returns one, and everything above it switches to its asynchronous path only then.
 *
 * Every continuation re-enters the run's context before running user code: runs that await tools
 * interleave on the event loop, and `active` must always name the run whose code is executing. A
 * continuation of a run that has ended, or must stop (its deadline passed while it waited, its
 * signal fired), runs none of its code: a tool that answers late must not wake up a program that
 * the host already has the result of.
 */
import { locate } from "./call-site.js";
import { active, enter } from "./context.js";
import { CHECK_EVERY, CHECK_MASK } from "./interruptible.js";

export type MaybePromise<T> = T | Promise<T>;

export function isPromise(value: unknown): value is Promise<unknown> {
  return value instanceof Promise;
}

/** `k(value)`: now if `value` is ready, or once it resolves (in the current run's context). */
export function after<T, R>(value: MaybePromise<T>, k: (value: T) => MaybePromise<R>): MaybePromise<R> {
  if (value instanceof Promise) {
    const context = active;
    return value.then((resolved: T) => {
      enter(context);
      if (context.abortReason !== undefined) throw context.abortReason;
      try {
        return k(resolved);
      } catch (error) {
        throw locate(error);
      }
    });
  }
  return k(value);
}

/** Resolves a promise in the current run's context (use with `await`). */
export async function settle<T>(value: Promise<T>): Promise<T> {
  const context = active;
  let resolved: T;
  try {
    resolved = await value;
  } finally {
    enter(context);
  }
  if (context.abortReason !== undefined) throw context.abortReason;
  return resolved;
}

/**
 * Calls `call(i)` for i in [start, end) in order, handing each result to `accept`, which returns
 * false to stop early. Synchronous until a call returns a promise; from then on each result is
 * awaited before the next call (calls never overlap, so tool calls stay in program order).
 */
export function eachResult(
  start: number,
  end: number,
  call: (index: number) => unknown,
  accept: (index: number, result: unknown) => boolean | undefined,
): MaybePromise<void> {
  for (let index = start; index < end; index++) {
    const result = call(index);
    if (result instanceof Promise) return continueEach(index, result, end, call, accept);
    if (accept(index, result) === false) return undefined;
    // A builtin callback (keep, map-indexed... with inc or vector) takes no evaluation steps:
    // the loop itself reads the clock.
    if ((index & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
  }
  return undefined;
}

/**
 * eachResult from item `first` on, whose call returned `pending`: for a caller that ran the
 * synchronous part of the loop itself.
 */
export const eachResultFrom = continueEach;

async function continueEach(
  first: number,
  pending: Promise<unknown>,
  end: number,
  call: (index: number) => unknown,
  accept: (index: number, result: unknown) => boolean | undefined,
): Promise<void> {
  try {
    if (accept(first, await settle(pending)) === false) return;
    for (let index = first + 1; index < end; index++) {
      let result = call(index);
      if (result instanceof Promise) result = await settle(result);
      if (accept(index, result) === false) return;
      if ((index & CHECK_MASK) === CHECK_MASK) active.work(CHECK_EVERY);
    }
  } catch (error) {
    throw locate(error);
  }
}
