/**
 * The `tools` option of run and runIsolated, checked once for both, and the one way a tool is
 * invoked: its `validate` first (when it has one), then `execute`. A tool may be a function or
 * any object with `execute` (such as @ptc/tool's `Tool`); nothing here depends on a tool library.
 */
import { LispError } from "../errors.js";
import type { HostTool, ToolArgsCheck, ToolCallOptions, ToolObject } from "./context.js";
import { HeldCall } from "./ledger.js";

export type ToolsOption = Readonly<Record<string, HostTool>> | ReadonlyMap<string, HostTool>;

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function toToolObject(name: string, tool: unknown): ToolObject {
  if (typeof tool === "function") return { execute: tool as ToolObject["execute"] };
  if (typeof tool === "object" && tool !== null) {
    const candidate = tool as Partial<ToolObject>;
    if (typeof candidate.execute !== "function") {
      throw new LispError(
        "invalid_options",
        `tool "${name}" must be a function of one argument object, or an object with an execute function; its execute is ${describe(candidate.execute)}`,
      );
    }
    if (candidate.validate !== undefined && typeof candidate.validate !== "function") {
      throw new LispError(
        "invalid_options",
        `tool "${name}": validate must be a function (args) => { ok: true } | { ok: false, message }, got ${describe(candidate.validate)}`,
      );
    }
    // Kept as given: `execute` and `validate` are called on the object, so methods keep their `this`.
    return tool as ToolObject;
  }
  throw new LispError(
    "invalid_options",
    `tool "${name}" must be a function of one argument object, or an object with an execute function, got ${describe(tool)}`,
  );
}

/** The tools of a run without tools (never changed: runs only read their tools). */
const NO_TOOLS: ReadonlyMap<string, ToolObject> = new Map();

/**
 * Each tools option checked, its entries as they were then, and the map made of them. A host
 * usually passes the same tools object run after run; a run that finds it holding the same tools
 * under the same names takes the same (never changed) map instead of building one. Weakly held:
 * a tools object the host drops is not kept alive here.
 */
const checkedTools = new WeakMap<
  object,
  { names: string[]; given: unknown[]; map: ReadonlyMap<string, ToolObject> }
>();

/**
 * Whether `tools` still holds exactly what it held when checked last: the same names in the same
 * order, each with the same tool, and each tool still of a usable shape (its `execute` or
 * `validate` may have been replaced since). An inherited enumerable key (a polluted prototype)
 * is an entry of its own, as Object.entries sees none: such a record never matches.
 */
function unchangedSinceLast(tools: object, names: readonly string[], given: readonly unknown[]): boolean {
  let index = 0;
  if (tools instanceof Map) {
    if (tools.size !== names.length) return false;
    for (const [name, tool] of tools) {
      if (name !== names[index] || tool !== given[index]) return false;
      index++;
    }
  } else {
    for (const name in tools) {
      if (!hasOwn.call(tools, name)) return false;
      if (name !== names[index] || (tools as Record<string, unknown>)[name] !== given[index]) return false;
      index++;
    }
    if (index !== names.length) return false;
  }
  for (let i = 0; i < names.length; i++) toToolObject(names[i] as string, given[i]);
  return true;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** How often a run took the map of the tools checked last (for tests: proof that it did). */
export const toolOptionsStats = { reused: 0 };

/** The tools option as a Map of tool objects, each entry checked; the map is never changed. */
export function normalizeTools(tools: ToolsOption | undefined): ReadonlyMap<string, ToolObject> {
  if (tools === undefined) return NO_TOOLS;
  const previous = checkedTools.get(tools);
  if (previous !== undefined && unchangedSinceLast(tools, previous.names, previous.given)) {
    toolOptionsStats.reused++;
    return previous.map;
  }
  const map = new Map<string, ToolObject>();
  const entries =
    tools instanceof Map ? [...tools.entries()] : Object.entries(tools as Record<string, unknown>);
  for (const [name, tool] of entries) map.set(name, toToolObject(name, tool));
  checkedTools.set(tools, {
    names: entries.map((entry) => entry[0]),
    given: entries.map((entry) => entry[1]),
    map,
  });
  return map;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}

function checked(
  name: string,
  tool: ToolObject,
  args: Record<string, unknown>,
  check: unknown,
): Record<string, unknown> {
  if (typeof check !== "object" || check === null || typeof (check as { ok?: unknown }).ok !== "boolean") {
    throw new Error(`validate of tool "${name}" must return { ok: true } or { ok: false, message }`);
  }
  const result = check as ToolArgsCheck;
  if (!result.ok) {
    const signature = typeof tool.signature === "string" ? ` Its signature: ${tool.signature}` : "";
    throw new LispError(
      "invalid_tool_args",
      `tool/${name} was called with arguments that do not fit: ${String(result.message)}.${signature}`,
    );
  }
  return "value" in result && typeof result.value === "object" && result.value !== null
    ? (result.value as Record<string, unknown>)
    : args;
}

/**
 * Decides, with the checked arguments, whether a call is held back instead of run (a resumable
 * run's `pauseBefore`); true (or a promise of true) holds it.
 */
export type HoldCheck = (checkedArgs: Record<string, unknown>) => boolean | PromiseLike<boolean>;

function executeUnlessHeld(
  tool: ToolObject,
  args: Record<string, unknown>,
  options: ToolCallOptions,
  hold: HoldCheck | undefined,
): unknown {
  if (hold === undefined) return tool.execute(args, options);
  const held = hold(args);
  const go = (decision: boolean) => {
    if (decision === true) throw new HeldCall("the call is held for a decision by the host");
    return tool.execute(args, options);
  };
  return isThenable(held) ? Promise.resolve(held).then(go) : go(held);
}

/**
 * Calls a tool: validates the arguments when the tool can, asks `hold` whether the call may run,
 * then executes it. Returns the tool's result (a promise when the tool, its validation or the hold
 * check answers later); throws LispError invalid_tool_args when validation rejects the arguments,
 * HeldCall when the call is held, and whatever the tool throws.
 */
export function invokeTool(
  name: string,
  tool: ToolObject,
  args: Record<string, unknown>,
  options: ToolCallOptions,
  hold?: HoldCheck,
): unknown {
  if (tool.validate === undefined) return executeUnlessHeld(tool, args, options, hold);
  const check = tool.validate(args);
  if (isThenable(check)) {
    return Promise.resolve(check).then((result) =>
      executeUnlessHeld(tool, checked(name, tool, args, result), options, hold),
    );
  }
  return executeUnlessHeld(tool, checked(name, tool, args, check), options, hold);
}
