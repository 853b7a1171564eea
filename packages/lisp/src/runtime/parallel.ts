/**
 * pmap and pcalls. Each branch runs in its own branch context: it sees the user defs of
 * the moment, its own defs are discarded, its prints are dropped. Branches that wait on tools wait
 * concurrently, at most `parallelConcurrency` at a time, under one deadline shared by nested
 * parallel operations. Results keep input order; the first branch to fail fails the call with its
 * own error, and the others' results are ignored.
 */
import { isLispError, LispError } from "../errors.js";
import type { Position } from "../reader/form.js";
import { vectorBytes } from "./allocation.js";
import { type MaybePromise, settle } from "./async.js";
import { toCallable } from "./call.js";
import { now } from "./clock.js";
import { active, enter, type RunContext } from "./context.js";
import { type LongTimer, startTimer } from "./long-timer.js";
import { seqOf } from "./sequences.js";

const ignore = (): undefined => undefined;

function runBranch(
  parent: RunContext,
  path: string,
  body: () => unknown,
): { context: RunContext; result: unknown } {
  const context = parent.branch(path);
  enter(context);
  try {
    return { context, result: body() };
  } finally {
    enter(parent);
  }
}

function runBranches(
  count: number,
  body: (index: number) => unknown,
  position: Position,
): MaybePromise<unknown[]> {
  const parent = active;
  const results = new Array<unknown>(count);
  // The step's place among its context's calls; each branch numbers its own calls under it.
  const step = parent.nextPosition();
  const pathOf = (index: number) => `${step}.${index}/`;
  const outerDeadline = parent.parallelDeadline;
  if (parent.parallelDepth === 0) parent.parallelDeadline = now() + parent.limits.parallelTimeoutMs;
  parent.parallelDepth++;
  const restore = () => {
    parent.parallelDepth--;
    if (parent.parallelDepth === 0) parent.parallelDeadline = outerDeadline;
  };

  const pending = new Set<Promise<void>>();
  let index = 0;
  try {
    for (; index < count; index++) {
      const { context, result } = runBranch(parent, pathOf(index), () => body(index));
      if (result instanceof Promise) {
        const slot = index;
        const waiting = result.then((value: unknown) => {
          results[slot] = value;
          parent.absorb(context);
        });
        // Failures are observed through the race below; this only keeps a late one from being unhandled.
        waiting.catch(ignore);
        pending.add(waiting);
        if (pending.size >= parent.limits.parallelConcurrency) {
          index++;
          return continueAsync(parent, index, count, body, pathOf, results, pending, position, restore);
        }
      } else {
        results[index] = result;
        parent.absorb(context);
      }
    }
  } catch (error) {
    restore();
    for (const promise of pending) promise.catch(ignore);
    throw isLispError(error) ? error.at(position) : error;
  }
  if (pending.size === 0) {
    restore();
    parent.allocate(vectorBytes(count));
    return results;
  }
  return continueAsync(parent, count, count, body, pathOf, results, pending, position, restore);
}

async function continueAsync(
  parent: RunContext,
  start: number,
  count: number,
  body: (index: number) => unknown,
  pathOf: (index: number) => string,
  results: unknown[],
  pending: Set<Promise<void>>,
  position: Position,
  restore: () => void,
): Promise<unknown[]> {
  const deadline = parent.parallelDeadline;
  let timer: LongTimer | undefined;
  const timeout = new Promise<never>((_, reject) => {
    // A deadline past what a timer holds (Infinity: none) must not fire at once (long-timer.ts).
    timer = startTimer(
      () =>
        reject(
          new LispError(
            "timeout",
            `parallel operation exceeded its ${parent.limits.parallelTimeoutMs}ms deadline`,
            position,
          ),
        ),
      Math.max(0, deadline - now()),
      { unref: true },
    );
  });
  timeout.catch(() => undefined);
  const track = (promise: Promise<void>) => {
    const tracked: Promise<void> = promise.finally(() => pending.delete(tracked));
    tracked.catch(ignore);
    pending.add(tracked);
  };
  // Re-wrap the ones already running so they leave the set when done.
  const initial = [...pending];
  pending.clear();
  for (const promise of initial) track(promise);
  try {
    for (let index = start; index < count; index++) {
      while (pending.size >= parent.limits.parallelConcurrency) {
        await settle(Promise.race([...pending, timeout, parent.interrupted()]));
      }
      const { context, result } = runBranch(parent, pathOf(index), () => body(index));
      if (result instanceof Promise) {
        const slot = index;
        track(
          result.then((value: unknown) => {
            results[slot] = value;
            parent.absorb(context);
          }),
        );
      } else {
        results[index] = result;
        parent.absorb(context);
      }
    }
    while (pending.size > 0)
      await settle(Promise.race([Promise.all(pending), timeout, parent.interrupted()]));
    parent.allocate(vectorBytes(count));
    return results;
  } catch (error) {
    throw isLispError(error) ? error.at(position) : error;
  } finally {
    timer?.clear();
    restore();
  }
}

export function runParallelMap(
  fn: unknown,
  collection: unknown,
  position: Position,
): MaybePromise<unknown[]> {
  const callable = toCallable(fn, "the pmap function");
  const items = seqOf(collection, "pmap");
  return runBranches(items.length, (index) => callable(items[index]), position);
}

export function runParallelCalls(thunks: readonly unknown[], position: Position): MaybePromise<unknown[]> {
  const callables = thunks.map((thunk) => toCallable(thunk, "a pcalls thunk"));
  return runBranches(callables.length, (index) => (callables[index] as () => unknown)(), position);
}
