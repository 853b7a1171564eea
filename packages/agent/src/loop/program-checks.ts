/**
 * The two checks every program outcome goes through, whatever the transport: does a `(return v)`
 * value fit the signature, and does the memory a program leaves fit the memory limit.
 */
import { type ValidationIssue, validateReturn } from "@ptc/tool";
import { returnValidationMessage } from "./feedback.js";
import { memoryBytes } from "./host-value.js";
import type { Run } from "./run-types.js";

export type ReturnCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly message: string; readonly errors: readonly ValidationIssue[] };

/** Checks a returned value (host form) against the agent's signature; none means anything fits. */
export function checkReturn(run: Run, value: unknown): ReturnCheck {
  const signature = run.agent.parsedSignature;
  if (signature === undefined) return { ok: true };
  const validation = validateReturn(signature, value);
  if (validation.ok) return { ok: true };
  return {
    ok: false,
    message: returnValidationMessage(signature, value, validation.errors),
    errors: validation.errors,
  };
}

/** The memory's size and the limit when the memory is over it; undefined when it fits. */
export function memoryOverLimit(
  run: Run,
  memory: Readonly<Record<string, unknown>>,
): { readonly size: number; readonly limit: number } | undefined {
  const limit = run.agent.memoryLimit;
  if (limit === undefined) return undefined;
  const size = memoryBytes(memory);
  return size > limit ? { size, limit } : undefined;
}
