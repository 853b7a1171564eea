/**
 * Where the running program is: the position of the last call a node made. Call nodes store
 * their position here just before calling a builtin (one field write, instead of a try/catch
 * around every call), so an error raised inside the builtin can be located when it is caught:
 * synchronously by the run, or by the async boundary it crosses first (async.ts), before any other
 * code can move the marker.
 */
import { isLispError } from "../errors.js";
import type { Position } from "../reader/form.js";

export const callSite: { current: Position | undefined } = { current: undefined };

/**
 * Budget errors (time, memory) happen wherever the budget runs out, and a cancelled run stops
 * wherever it happens to be; that says nothing useful about the program, so they carry no
 * position. Loop and recursion limits carry their form's.
 */
const UNLOCATED = new Set(["timeout", "memory_exceeded", "aborted"]);

/** Whether an error of this reason may be given a position (not a budget or cancellation error). */
export function locatable(reason: string): boolean {
  return !UNLOCATED.has(reason);
}

/** Gives an error without a position the position of the last call made (anything else passes). */
export function locate(error: unknown): unknown {
  if (isLispError(error) && locatable(error.reason)) error.at(callSite.current);
  return error;
}
