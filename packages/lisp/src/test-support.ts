/**
 * Helpers for tests: run a program and get its printed value, or its error. Test files only;
 * never exported from the package.
 */
import { format } from "./format/format.js";
import { type RunError, type RunOptions, run } from "./run.js";

/** Runs a program and returns its value printed as Clojure text; throws if the program fails. */
export async function evaluate(source: string, options?: RunOptions): Promise<string> {
  const result = await run(source, options);
  if (!result.ok)
    throw new Error(`program failed: ${result.error.reason}: ${result.error.message}\n  ${source}`);
  return format(result.value);
}

/** Runs a program that must fail and returns its error. */
export async function failure(source: string, options?: RunOptions): Promise<RunError> {
  const result = await run(source, options);
  if (result.ok) throw new Error(`expected a failure, got ${format(result.value)}\n  ${source}`);
  return result.error;
}
