/**
 * `JSON.stringify` of a RunResult, or of its `error`, gives JSON data: program values in it
 * (a `(fail {...})` value, the result value) go through `toJson`, the bounded conversion that also
 * writes bigints and composite keys. The method is not enumerable: spreading or comparing a result
 * sees only its data.
 */
import { toJson } from "./format/to-json.js";
import type { RunError, RunResult } from "./run.js";

function errorJson(this: RunError): Record<string, unknown> {
  return this.value === undefined ? { ...this } : { ...this, value: toJson(this.value) };
}

function resultJson(this: RunResult): Record<string, unknown> {
  if (this.ok) return { ...this, value: toJson(this.value) };
  return { ...this, error: errorJson.call(this.error) };
}

function withToJson<T extends object>(target: T, method: (this: never) => unknown): T {
  if (Object.isExtensible(target))
    Object.defineProperty(target, "toJSON", { value: method, enumerable: false, configurable: true });
  return target;
}

/** The result, with `toJSON` on it and on its error. */
export function withJson<T extends RunResult>(result: T): T {
  if (!result.ok) withToJson(result.error, errorJson);
  return withToJson(result, resultJson);
}
