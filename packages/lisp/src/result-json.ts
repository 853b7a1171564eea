/**
 * `JSON.stringify` of a RunResult, or of its `error`, gives JSON data: program values in it
 * (a `(fail {...})` value, the result value) and the host values of its tool calls (what tools
 * returned, which may be anything: bigints, a value that contains itself) go through `toJson`, the
 * bounded conversion that also writes bigints and composite keys, and fails with a LispError where
 * JSON cannot follow. The method is not enumerable: spreading or comparing a result sees only its
 * data.
 */
import { toJson } from "./format/to-json.js";
import type { RunError, RunResult, RunSuccess, RunUsage } from "./run.js";
import type { ToolCallRecord } from "./runtime/context.js";

function errorJson(this: RunError): Record<string, unknown> {
  return this.value === undefined ? { ...this } : { ...this, value: toJson(this.value) };
}

function toolCallJson(call: ToolCallRecord): Record<string, unknown> {
  const json: Record<string, unknown> = { ...call, args: toJson(call.args) };
  if ("result" in call) json.result = toJson(call.result);
  return json;
}

function resultJson(this: RunResult): Record<string, unknown> {
  const toolCalls = this.toolCalls.map(toolCallJson);
  if (this.ok) return { ...this, value: toJson(this.value), toolCalls };
  return { ...this, error: errorJson.call(this.error), toolCalls };
}

function withToJson<T extends object>(target: T, method: (this: never) => unknown): T {
  if (Object.isExtensible(target))
    Object.defineProperty(target, "toJSON", { value: method, enumerable: false, configurable: true });
  return target;
}

/**
 * A run's successful result, its fields in the order of RunSuccess. `toJSON` is on the prototype
 * (not enumerable, as on any result): defining it on each result took about 0.15 µs, a tenth of
 * a short run's fixed cost.
 */
class Success {
  readonly ok: true;
  readonly value: unknown;
  readonly returned: boolean;
  readonly defined: string[];
  readonly summaries: Record<string, string>;
  readonly prints: string[];
  readonly toolCalls: RunSuccess["toolCalls"];
  readonly durationMs: number;
  readonly warnings: string[];
  readonly usage: RunUsage;

  constructor(
    value: unknown,
    returned: boolean,
    defined: string[],
    summaries: Record<string, string>,
    prints: string[],
    toolCalls: RunSuccess["toolCalls"],
    durationMs: number,
    warnings: string[],
    usage: RunUsage,
  ) {
    this.ok = true;
    this.value = value;
    this.returned = returned;
    this.defined = defined;
    this.summaries = summaries;
    this.prints = prints;
    this.toolCalls = toolCalls;
    this.durationMs = durationMs;
    this.warnings = warnings;
    this.usage = usage;
  }

  toJSON(): Record<string, unknown> {
    return resultJson.call(this as RunSuccess);
  }
}

/** A successful RunResult (see Success); the fields in their order, with no object to gather them. */
export function successResult(
  value: unknown,
  returned: boolean,
  defined: string[],
  summaries: Record<string, string>,
  prints: string[],
  toolCalls: RunSuccess["toolCalls"],
  durationMs: number,
  warnings: string[],
  usage: RunUsage,
): RunSuccess {
  return new Success(value, returned, defined, summaries, prints, toolCalls, durationMs, warnings, usage);
}

/** The result, with `toJSON` on it and on its error. */
export function withJson<T extends RunResult>(result: T): T {
  if (!result.ok) withToJson(result.error, errorJson);
  return withToJson(result, resultJson);
}
