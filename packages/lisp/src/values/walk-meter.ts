/**
 * The meter of walks over values: `=`, hashing, `compare`, printing, JSON and the tool boundary
 * charge the nodes they visit here. A value with shared structure is cheap to build and enormous
 * to walk (a map whose two fields are the same map, doubled 40 times, has 2^40 leaves), so no walk
 * may run unmetered:
 * - inside a run, a walk charges the running program's meters: its clock (the run's timeout
 *   fires) and, for text it builds, its memory budget;
 * - a call from the host (`format`, `toJson`, `equals`... after a run) runs under `hostWalk`,
 *   with a budget of nodes of its own, and fails with a clear error past it.
 * Walks that happen outside both (internal bookkeeping between runs) are not metered.
 *
 * Charge per collection visited (its size), not per element: the hot paths pay one call per
 * collection. This module must never charge a run that has finished (a value printed by the host
 * after its run is the host's walk, not the run's).
 */
import { isLispError, LispError } from "../errors.js";
import { hostDataMayHaveChanged } from "./host-epoch.js";
import { hostCallError } from "./unreadable-host-data.js";

/** What a running program exposes to walks: its clock and memory meters (runtime/context.ts). */
export interface WalkTarget {
  work(units: number): void;
  allocate(bytes: number): void;
  readonly finished: boolean;
}

let current: WalkTarget | undefined;
/** Units left to the host call in progress, or -1 when no host call is in progress. */
let hostBudget = -1;
let hostLimit = 0;

/** Called by the runtime whenever the running program changes (runtime/context.ts `enter`). */
export function setWalkTarget(target: WalkTarget | undefined): void {
  current = target;
}

/** Charges a walk for visiting `units` nodes (a collection and its items). */
export function chargeWalk(units: number): void {
  if (hostBudget >= 0) {
    hostBudget -= units;
    if (hostBudget < 0) throw hostWalkError(hostLimit);
    return;
  }
  const target = current;
  if (target !== undefined && !target.finished) target.work(units);
}

/** Charges text a walk builds as a program value (`str` of a collection) to the run's memory. */
export function chargeText(chars: number): void {
  if (hostBudget >= 0) return;
  const target = current;
  if (target !== undefined && !target.finished) target.allocate(chars);
}

/**
 * Charges the running program's clock for escaping or scanning `chars` characters of text (one
 * unit per character, as the builtins that scan text charge). A call from the host is bounded by
 * its own character cap instead, so it is not charged: its node budget counts nodes, not text.
 */
export function chargeTextWork(chars: number): void {
  if (hostBudget >= 0) return;
  const target = current;
  if (target !== undefined && !target.finished) target.work(chars);
}

/** Nodes a host call (`equals`, `format`, `toJson`...) may visit. */
export const HOST_WALK_NODES = 10_000_000;

/**
 * Runs `body` as a call from the host: its walks are charged to a budget of `limit` nodes (never to
 * a run that happens to be waiting on a tool), and a value nested deeper than the JS stack allows
 * is a LispError, not a raw RangeError. Whatever else the walk throws that is not a LispError (host
 * data that cannot be read) becomes one too (see hostCallError; `values` are what the call walks).
 * Nested host calls share the outer budget.
 */
export function hostWalk<T>(
  body: () => T,
  limit: number = HOST_WALK_NODES,
  values: readonly unknown[] = [],
): T {
  if (hostBudget >= 0) return body();
  // The host may have changed its objects since a run read them.
  hostDataMayHaveChanged();
  hostBudget = limit;
  hostLimit = limit;
  try {
    return body();
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new LispError(
        "recursion_limit_exceeded",
        "the value is nested too deeply to walk (the host stack ran out)",
        undefined,
        { cause: error },
      );
    }
    if (isLispError(error)) throw error;
    // A getter that throws, a revoked Proxy: the host still gets one of our errors, naming where.
    throw hostCallError(error, values);
  } finally {
    hostBudget = -1;
  }
}

function hostWalkError(limit: number): LispError {
  return new LispError(
    "memory_exceeded",
    `the value is too large to walk: more than ${limit} nodes (shared structure counts once per path: a map whose fields are the same map, nested n times, has 2^n leaves)`,
  );
}
