/**
 * Calling a host tool from a program: the boundary conversion of arguments, the call limit, the
 * call log (name, args, result or error, duration, position), and the run's deadline (or the
 * host's cancel signal) raced against tools that never answer. A tool that throws or rejects fails
 * the program with tool_error, whatever it throws (a string, null, a revoked Proxy, an Error whose
 * message throws): the message is read defensively (error-text.ts). In a resumable run (ledger.ts)
 * a call recorded in the ledger is answered from it, and a call the host holds back waits until
 * the run pauses.
 */
import { isLispError, LispError } from "../errors.js";
import { quotedName } from "../quoted-text.js";
import type { Position } from "../reader/form.js";
import { hostDataMayHaveChanged } from "../values/host-epoch.js";
import { settle } from "./async.js";
import { now } from "./clock.js";
import { active, type RunContext, type ToolCallOptions } from "./context.js";
import { errorText } from "./error-text.js";
import { isHeldCall, type LedgerEntry, type Replay } from "./ledger.js";
import { assertEffectsAllowed } from "./pure-mode.js";
import { toToolArgs } from "./tool-boundary.js";
import { invokeTool } from "./tool-options.js";

/** Reasons a tool call passes on as they are: the run's own limits and its pause or replay. */
const RUN_REASONS: ReadonlySet<string> = new Set([
  "timeout",
  "memory_exceeded",
  "aborted",
  "paused",
  "replay_diverged",
]);

function toolFailed(name: string, error: unknown, position: Position): LispError {
  const own = isLispError(error) ? error : undefined;
  if (own !== undefined && RUN_REASONS.has(own.reason)) return own;
  // The tool's own check rejected the program's arguments: the model fixes its call.
  if (own?.reason === "invalid_tool_args") return own.at(position);
  return new LispError("tool_error", `Tool '${name}' failed: ${JSON.stringify(errorText(error))}`, position, {
    cause: error,
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}

function record(
  context: RunContext,
  name: string,
  args: Record<string, unknown>,
  started: number,
  position: string,
  outcome: { result: unknown } | { error: string },
): void {
  const durationMs = now() - started;
  context.toolCalls.push(
    "error" in outcome
      ? { name, args, error: outcome.error, durationMs, position }
      : { name, args, result: outcome.result, durationMs, position },
  );
}

/** A call the ledger answers: its recorded result, or its recorded error as the tool's failure. */
function replayed(
  context: RunContext,
  entry: LedgerEntry,
  args: Record<string, unknown>,
  at: Position,
): unknown {
  const { name, position } = entry;
  if (typeof entry.error === "string") {
    context.toolCalls.push({ name, args, error: entry.error, durationMs: 0, position, replayed: true });
    throw toolFailed(name, new Error(entry.error), at);
  }
  const value = entry.result === undefined ? null : entry.result;
  context.toolCalls.push({ name, args, result: value, durationMs: 0, position, replayed: true });
  return value;
}

/** A held call: it never runs, and the program waits here until the run pauses (or stops otherwise). */
function held(
  context: RunContext,
  replay: Replay,
  name: string,
  args: Record<string, unknown>,
  position: string,
) {
  replay.hold({ position, name, args });
  return settle(context.interrupted());
}

/** Calls tool `name` with the program's argument value (a map, or undefined for no arguments). */
export function callTool(name: string, argsValue: unknown, site: Position): unknown {
  assertEffectsAllowed();
  const context = active;
  if (context.abortReason !== undefined) throw context.abortReason;
  const tool = context.tools.get(name);
  if (tool === undefined) throw new LispError("unknown_tool", `Unknown tool: ${quotedName(name)}`, site);
  if (context.toolCalls.length >= context.limits.maxToolCalls) {
    throw new LispError(
      "tool_call_limit_exceeded",
      `tool call limit of ${context.limits.maxToolCalls} reached; combine requests or process the data you already have`,
      site,
    );
  }
  let args: Record<string, unknown>;
  try {
    args = toToolArgs(argsValue, name);
  } catch (error) {
    throw isLispError(error) ? error.at(site) : error;
  }
  const position = context.nextPosition();
  const replay = context.replay;
  let entry: LedgerEntry | undefined;
  try {
    entry = replay?.recorded(position, name, args);
  } catch (error) {
    throw isLispError(error) ? error.at(site) : error;
  }
  if (entry !== undefined && entry.approved !== true) return replayed(context, entry, args, site);
  const options: ToolCallOptions = { ...context.toolCallOptions, position };
  // An approved call runs without asking again; any other call of a resumable run may be held.
  const pauseBefore = entry === undefined ? replay?.pauseBefore : undefined;
  const hold =
    pauseBefore === undefined
      ? undefined
      : (checked: Record<string, unknown>) => pauseBefore({ position, name, args: checked });
  const started = now();
  replay?.begin();
  let result: unknown;
  try {
    result = invokeTool(name, tool, args, options, hold);
  } catch (error) {
    if (replay !== undefined && isHeldCall(error)) return held(context, replay, name, args, position);
    replay?.end();
    hostDataMayHaveChanged();
    record(context, name, args, started, position, { error: errorText(error) });
    throw toolFailed(name, error, site);
  }
  // The tool is host code: it may have changed objects the program read before (and return one).
  hostDataMayHaveChanged();
  let thenable: boolean;
  try {
    thenable = isThenable(result);
  } catch (error) {
    replay?.end();
    record(context, name, args, started, position, { error: errorText(error) });
    throw toolFailed(name, error, site);
  }
  if (thenable) {
    const pending = Promise.race([Promise.resolve(result), context.interrupted()]);
    return settle(pending).then(
      (value: unknown) => {
        replay?.end();
        hostDataMayHaveChanged();
        record(context, name, args, started, position, { result: value === undefined ? null : value });
        // The answer may come after the deadline (a tool that held the thread before it
        // answered, or an answer that won the race against the deadline timer).
        context.checkDeadline();
        return value === undefined ? null : value;
      },
      (error: unknown) => {
        if (replay !== undefined && isHeldCall(error)) return held(context, replay, name, args, position);
        replay?.end();
        hostDataMayHaveChanged();
        record(context, name, args, started, position, { error: errorText(error) });
        throw toolFailed(name, error, site);
      },
    );
  }
  replay?.end();
  const value = result === undefined ? null : result;
  record(context, name, args, started, position, { result: value });
  // A synchronous tool holds the thread: nothing else reads the clock while it works.
  context.checkDeadline();
  return value;
}
