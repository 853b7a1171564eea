/**
 * What a run's failure says when its worker stopped before the program could answer, and what a
 * session says when its state went with the worker. Each message says what happened and what to
 * do instead; hosts match on the run's `reason`, never on this text.
 */

/** Why a worker stopped before its run could answer. */
export type StopReason =
  | "timeout"
  | "aborted"
  | "memory_exceeded"
  | "stalled"
  | "unreadable"
  | "crashed"
  | "closed";

/** Where a run was when its worker stopped: starting it, running it, or copying its result out. */
export type Phase = "starting" | "running" | "copying";

/** What the host knows about its worker. */
export interface StopFacts {
  readonly heapMb: number;
  readonly transferTimeoutMs: number;
  /** The message of the error the worker died of, if any. */
  readonly crash: string | undefined;
  readonly exitCode: number | undefined;
}

function crashText(facts: StopFacts): string {
  return facts.crash === undefined ? "" : ` (${facts.crash})`;
}

function exitText(facts: StopFacts): string {
  return facts.exitCode === undefined ? "" : ` with exit code ${facts.exitCode}`;
}

/** Why the worker went, as a clause: "a program ran past its time limit and its worker was terminated". */
export function describeStop(reason: StopReason, facts: StopFacts): string {
  switch (reason) {
    case "timeout":
      return "a program ran past its time limit and its worker was terminated";
    case "aborted":
      return "a program was cancelled and did not stop in time, so its worker was terminated";
    case "memory_exceeded":
      return `a program exceeded the worker's heap cap of ${facts.heapMb} MB and its worker was stopped`;
    case "stalled":
      return `the worker did not take a program in or hand its result back within ${facts.transferTimeoutMs / 1000} s and was stopped`;
    case "unreadable":
      return `the worker sent a message the host could not read${crashText(facts)}, so it was stopped`;
    case "closed":
      return "the worker was closed";
    default:
      return `its worker stopped unexpectedly${exitText(facts)}${crashText(facts)}`;
  }
}

/** The error message of the run that was going on when the worker stopped. */
export function stopMessage(
  reason: StopReason,
  facts: StopFacts,
  run: { readonly timeoutMs: number; readonly phase: Phase },
): string {
  switch (reason) {
    case "timeout":
      return `execution exceeded ${run.timeoutMs}ms limit and the program was stopped (its isolated worker was terminated). Reduce the work: filter before mapping, avoid repeated passes over large data, or split the task across programs`;
    case "memory_exceeded":
      return `the program exceeded the isolated worker's heap cap of ${facts.heapMb} MB and was stopped. Build less data: select fewer fields, filter earlier, or aggregate instead of collecting (the host can raise heapMb)`;
    case "aborted":
      return "the run was cancelled (its AbortSignal fired) and, as the program did not stop in time, its isolated worker was terminated";
    case "closed":
      return "the isolated worker was closed while the program was running";
    case "stalled":
      return run.phase === "copying"
        ? `the program finished, but its isolated worker did not hand the result back within ${facts.transferTimeoutMs / 1000} s and was stopped. Return a smaller value`
        : `the isolated worker did not start the program within ${facts.transferTimeoutMs / 1000} s and was stopped. Pass less data in the context`;
    case "unreadable":
      return `a message from the isolated worker could not be read on the host${crashText(facts)}, so the worker was stopped. Return a smaller or flatter value`;
    default:
      return `the isolated worker stopped unexpectedly while running the program${exitText(facts)}${crashText(facts)}`;
  }
}
