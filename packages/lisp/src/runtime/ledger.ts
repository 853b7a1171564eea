/**
 * Resumable runs. A program is pure except for its tool calls, so running it again with its
 * earlier calls answered from a record of them (the ledger) brings it back to exactly where it
 * was, without calling any tool twice. The host may also hold calls back (`pauseBefore`): a held
 * call never reaches its tool, and once nothing else of the program can move, the run ends as
 * "paused" with the calls it holds, for a person to approve or reject before the next run.
 *
 * Calls are matched to the ledger by position, not by arrival: a call's position is its place in
 * the sequence of calls of the code that made it (`"3"`: the fourth call of the program), and a
 * pmap/pcalls branch has a sequence of its own (`"1.2/0"`: the first call of branch 2 of the
 * parallel step at 1). Branches answer in whatever order their tools do, but positions do not
 * depend on it, so a replay meets every recorded call at the same position. A call that differs
 * from the ledger at its position (another tool, other arguments) ends the run with
 * `replay_diverged`: a ledger never answers a call it did not record, and a call it recorded is
 * never made again.
 *
 * This module must never call a tool, and never let a held call run.
 */

import { headOf } from "../cut-text.js";
import { LispError } from "../errors.js";
import { print } from "../format/print.js";
import { hostEquals } from "../values/equality.js";
import { isPlainObject } from "../values/plain-object.js";
import { MAP_BYTES, MAP_ENTRY_BYTES, VECTOR_BYTES, VECTOR_SLOT_BYTES } from "./allocation.js";

/** A tool call as the program made it: where, which tool, the arguments it sent. */
export interface LedgerCall {
  /** The call's place in the program (see the module comment); the same in every run of the program. */
  readonly position: string;
  readonly name: string;
  /** The arguments as the program sent them (before the tool's `validate`). */
  readonly args: Readonly<Record<string, unknown>>;
}

/**
 * One call of an earlier run of the same program, with exactly one of: `result` (the call is
 * answered with it), `error` (the call fails with it, as a tool error), or `approved: true` (a
 * held call that may now run: it runs, without asking `pauseBefore` again). A run's `toolCalls`
 * are entries of the first two kinds, so they can be passed as the next run's ledger as they are.
 */
export interface LedgerEntry extends LedgerCall {
  readonly result?: unknown;
  readonly error?: string;
  readonly approved?: boolean;
}

/** A call the host is asked about before it runs; `args` are what the tool would receive. */
export type PauseBefore = (call: LedgerCall) => boolean | PromiseLike<boolean>;

/** Thrown by a tool invocation whose call is held (by `pauseBefore`, or by a worker's host). */
export class HeldCall extends Error {
  override readonly name = "HeldCall";
}

/** Whether a tool invocation's error says the call was held; never throws (a revoked Proxy throws on instanceof). */
export function isHeldCall(error: unknown): boolean {
  try {
    return error instanceof HeldCall;
  } catch {
    return false;
  }
}

/** The ledger option, checked: entries by position. Throws LispError invalid_options. */
export function checkLedger(ledger: unknown): Map<string, LedgerEntry> {
  if (!Array.isArray(ledger)) {
    throw new LispError(
      "invalid_options",
      "ledger must be an array of earlier tool calls (a run's toolCalls)",
    );
  }
  const entries = new Map<string, LedgerEntry>();
  ledger.forEach((entry: unknown, index) => {
    const where = `ledger[${index}]`;
    if (!isPlainObject(entry)) throw invalidEntry(where, "is not an object");
    const { position, name, args } = entry as Record<string, unknown>;
    if (typeof position !== "string" || position === "") throw invalidEntry(where, "has no position");
    if (typeof name !== "string" || name === "") throw invalidEntry(where, "has no tool name");
    if (!isPlainObject(args)) throw invalidEntry(where, "has no args object");
    const kinds =
      (Object.hasOwn(entry, "result") ? 1 : 0) +
      (typeof entry.error === "string" ? 1 : 0) +
      (entry.approved === true ? 1 : 0);
    if (kinds !== 1) {
      throw invalidEntry(where, "must have exactly one of result, error (a string) or approved: true");
    }
    if (entries.has(position)) throw invalidEntry(where, `repeats position ${position}`);
    entries.set(position, entry as unknown as LedgerEntry);
  });
  return entries;
}

function invalidEntry(where: string, problem: string): LispError {
  return new LispError(
    "invalid_options",
    `${where} ${problem}; a ledger entry is { position, name, args } with result, error or approved: true`,
  );
}

const STRING_BYTES = 16;
const SCALAR_BYTES = 8;

/**
 * About how many bytes the ledger's arguments and results hold, counted with the sizes the memory
 * budget uses, stopping once past `limit` (so a huge ledger costs no more than the limit to
 * measure). A value shared by several entries counts once.
 */
export function ledgerBytes(entries: Iterable<LedgerEntry>, limit: number): number {
  let total = 0;
  const seen = new Set<object>();
  const stack: unknown[] = [];
  for (const entry of entries) {
    total += MAP_BYTES + 3 * MAP_ENTRY_BYTES + STRING_BYTES + entry.position.length + entry.name.length;
    stack.push(entry.args, entry.result, entry.error);
    while (stack.length > 0) {
      if (total > limit) return total;
      const value = stack.pop();
      if (typeof value === "string") total += STRING_BYTES + value.length;
      else if (typeof value !== "object" || value === null) total += SCALAR_BYTES;
      else if (!seen.has(value)) {
        seen.add(value);
        if (Array.isArray(value)) {
          total += VECTOR_BYTES + VECTOR_SLOT_BYTES * value.length;
          for (const item of value) stack.push(item);
        } else {
          const keys = Object.keys(value);
          total += MAP_BYTES + MAP_ENTRY_BYTES * keys.length;
          for (const key of keys) {
            total += STRING_BYTES + key.length;
            stack.push((value as Record<string, unknown>)[key]);
          }
        }
      }
    }
  }
  return total;
}

const SHOWN_CHARS = 120;

/** A call as the program would write it: `(tool/refund {:id 7})` (arguments cut to a line). */
function describeCall(name: string, args: Readonly<Record<string, unknown>>): string {
  const entries = Object.keys(args).map((key) => `:${key} ${print(args[key], { maxChars: SHOWN_CHARS })}`);
  const text = `{${entries.join(", ")}}`;
  return `(tool/${name} ${text.length > SHOWN_CHARS ? `${headOf(text, SHOWN_CHARS)}...}` : text})`;
}

/**
 * A run's replay state, shared by all its branches: the ledger, the calls held back, and how
 * many calls are running now. The run pauses once calls are held and none runs: then nothing
 * else of the program can move (it only ever waits on tools), so every call it can reach without
 * a decision has been reached.
 */
export class Replay {
  readonly held: LedgerCall[] = [];
  private readonly consumed = new Set<string>();
  private running = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly entries: ReadonlyMap<string, LedgerEntry>,
    readonly pauseBefore: PauseBefore | undefined,
    private readonly pause: (error: LispError) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  values(): Iterable<LedgerEntry> {
    return this.entries.values();
  }

  /**
   * The entry recorded at `position`, after checking that the program made the same call there;
   * undefined when the ledger has none (the call is new).
   */
  recorded(position: string, name: string, args: Readonly<Record<string, unknown>>): LedgerEntry | undefined {
    const entry = this.entries.get(position);
    if (entry === undefined) return undefined;
    this.consumed.add(position);
    if (entry.name !== name || !hostEquals(entry.args, args)) {
      throw new LispError(
        "replay_diverged",
        `the program no longer makes the calls its earlier run made: at call ${position} it called ${describeCall(name, args)}, where the earlier run called ${describeCall(entry.name, entry.args)}. A resumed program must make the same calls in the same order; something it reads has changed (the time, its context or memory)`,
      );
    }
    return entry;
  }

  /** The recorded calls the program has not made (at its end, a sign it took another path). */
  unconsumed(): LedgerEntry[] {
    return [...this.entries.values()].filter((entry) => !this.consumed.has(entry.position));
  }

  /** A live call starts. */
  begin(): void {
    this.running++;
  }

  /** A live call has settled. */
  end(): void {
    this.running--;
    this.schedule();
  }

  /** A live call turned out to be held: it no longer runs, and waits until the run pauses. */
  hold(call: LedgerCall): void {
    this.held.push(call);
    this.end();
  }

  /**
   * Pauses the run once nothing runs and something is held. Checked after the current turn of the
   * event loop: a settled call's continuation (a microtask) may still start the next call.
   */
  private schedule(): void {
    if (this.held.length === 0 || this.running > 0 || this.timer !== undefined) return;
    // Not unref'd: when only held calls remain, this timer is what settles the run, so it must
    // keep the host process alive until it fires.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.running === 0 && this.held.length > 0) this.pause(pausedError(this.held));
    }, 0);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function pausedError(held: readonly LedgerCall[]): LispError {
  const calls = held.map((call) => `${describeCall(call.name, call.args)} at ${call.position}`);
  return new LispError(
    "paused",
    `the program paused: ${held.length === 1 ? "a tool call waits" : `${held.length} tool calls wait`} for a decision by the host: ${calls.join(", ")}`,
  );
}

/** The failure of a run that ended without making calls its ledger recorded. */
export function unconsumedError(missing: readonly LedgerEntry[]): LispError {
  const first = missing[0] as LedgerEntry;
  return new LispError(
    "replay_diverged",
    `the program ended without making ${missing.length} of the calls its earlier run made (the first: ${describeCall(first.name, first.args)} at ${first.position}). A resumed program must make the same calls in the same order; something it reads has changed (the time, its context or memory)`,
  );
}

/** The failure of a resumed run whose ledger alone is larger than its memory budget. */
export function ledgerTooLarge(count: number, limit: number): LispError {
  return new LispError(
    "memory_exceeded",
    `the ledger of ${count} tool calls this run replays holds more than its memory limit of ${limit} bytes; a resumed program holds its ledger for the whole run. Raise limits.maxMemoryBytes, or let the program pause before it gathers so much`,
  );
}
