/**
 * Calling a host tool from a program: the boundary conversion of arguments, the call limit, the
 * call log (name, args, result or error, duration), and the run's deadline (or the host's cancel
 * signal) raced against tools that never answer. A tool that throws or rejects fails the program
 * with tool_error, whatever it throws (a string, null, a revoked Proxy, an Error whose message
 * throws): the message is read defensively (error-text.ts).
 */
import { isLispError, LispError } from "../errors.js";
import type { Position } from "../reader/form.js";
import { hostDataMayHaveChanged } from "../values/host-epoch.js";
import { settle } from "./async.js";
import { active, type RunContext } from "./context.js";
import { errorText } from "./error-text.js";
import { assertEffectsAllowed } from "./pure-mode.js";
import { toToolArgs } from "./tool-boundary.js";
import { invokeTool } from "./tool-options.js";

function now(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

function toolFailed(name: string, error: unknown, position: Position): LispError {
  const own = isLispError(error) ? error : undefined;
  if (own?.reason === "timeout" || own?.reason === "memory_exceeded" || own?.reason === "aborted") return own;
  // The tool's own check rejected the program's arguments: the model fixes its call.
  if (own?.reason === "invalid_tool_args") return own.at(position);
  return new LispError("tool_error", `Tool '${name}' failed: ${JSON.stringify(errorText(error))}`, position, {
    cause: error,
  });
}

/**
 * Whether a tool's answer is a promise (or any thenable). Reading `then` can throw (a revoked
 * Proxy, a getter): that fails the call as the tool failing, as it does when the same value is
 * what a tool's promise resolves to (resolving reads `then` too).
 */
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
  outcome: { result: unknown } | { error: string },
): void {
  const durationMs = now() - started;
  context.toolCalls.push(
    "error" in outcome
      ? { name, args, error: outcome.error, durationMs }
      : { name, args, result: outcome.result, durationMs },
  );
}

/** Calls tool `name` with the program's argument value (a map, or undefined for no arguments). */
export function callTool(name: string, argsValue: unknown, position: Position): unknown {
  assertEffectsAllowed();
  const context = active;
  if (context.abortReason !== undefined) throw context.abortReason;
  const tool = context.tools.get(name);
  if (tool === undefined) throw new LispError("unknown_tool", `Unknown tool: ${name}`, position);
  if (context.toolCalls.length >= context.limits.maxToolCalls) {
    throw new LispError(
      "tool_call_limit_exceeded",
      `tool call limit of ${context.limits.maxToolCalls} reached; combine requests or process the data you already have`,
      position,
    );
  }
  let args: Record<string, unknown>;
  try {
    args = toToolArgs(argsValue, name);
  } catch (error) {
    throw isLispError(error) ? error.at(position) : error;
  }
  const started = now();
  let result: unknown;
  try {
    result = invokeTool(name, tool, args, context.toolCallOptions);
  } catch (error) {
    hostDataMayHaveChanged();
    record(context, name, args, started, { error: errorText(error) });
    throw toolFailed(name, error, position);
  }
  // The tool is host code: it may have changed objects the program read before (and return one).
  hostDataMayHaveChanged();
  let thenable: boolean;
  try {
    thenable = isThenable(result);
  } catch (error) {
    record(context, name, args, started, { error: errorText(error) });
    throw toolFailed(name, error, position);
  }
  if (thenable) {
    const pending = Promise.race([Promise.resolve(result), context.interrupted()]);
    return settle(pending).then(
      (value: unknown) => {
        hostDataMayHaveChanged();
        record(context, name, args, started, { result: value === undefined ? null : value });
        // The answer may come after the deadline (a tool that held the thread before it
        // answered, or an answer that won the race against the deadline timer).
        context.checkDeadline();
        return value === undefined ? null : value;
      },
      (error: unknown) => {
        hostDataMayHaveChanged();
        record(context, name, args, started, { error: errorText(error) });
        throw toolFailed(name, error, position);
      },
    );
  }
  const value = result === undefined ? null : result;
  record(context, name, args, started, { result: value });
  // A synchronous tool holds the thread: nothing else reads the clock while it works.
  context.checkDeadline();
  return value;
}
