/**
 * The sandbox limits of an agent's programs, and the agent options that name some of them. An
 * agent has a named option for the limits people set most (`timeout`, `pmapTimeout`...) and
 * `limits` for every limit of @ptc/lisp. Each limit has one value: set it under either name, and
 * giving both names different values is refused as the mistake it is, so no precedence has to be
 * remembered (docs/limits.md has the table).
 */
import { DEFAULT_LIMITS, type Limits } from "@ptc/lisp";
import { describeUnknownKeys, findUnknownKeys } from "@ptc/tool";
import { AgentError } from "../errors.js";
import { describe, isPlainObject } from "./describe.js";

/** Agent options that are another name for a limit of @ptc/lisp. */
export const NAMED_LIMITS = [
  { option: "timeout", limit: "timeoutMs" },
  { option: "pmapTimeout", limit: "parallelTimeoutMs" },
  { option: "pmapMaxConcurrency", limit: "parallelConcurrency" },
  { option: "maxToolCalls", limit: "maxToolCalls" },
  { option: "formatOptions.maxPrintLength", limit: "maxPrintLength" },
] as const satisfies readonly { readonly option: string; readonly limit: keyof Limits }[];

export type NamedLimitOption = (typeof NAMED_LIMITS)[number]["option"];

/** The iteration limit of agent programs: room for tool results of 100k rows, still a stop for runaway loops. */
export const AGENT_MAX_ITERATIONS = 100_000;

function invalid(message: string, details: Readonly<Record<string, string>>): AgentError {
  return new AgentError("PTC_AGENT_INVALID_OPTION", message, { details: { option: "limits", ...details } });
}

/** `limits` as given, checked: known keys, positive numbers (`Infinity` allowed). */
export function checkLimits(given: unknown): Partial<Limits> | undefined {
  if (given === undefined) return undefined;
  if (!isPlainObject(given)) {
    throw invalid(
      `limits must be an object of @ptc/lisp limits such as { maxMemoryBytes: 8e6 }, got ${describe(given)}`,
      {
        given: describe(given),
      },
    );
  }
  const unknown = findUnknownKeys(given, Object.keys(DEFAULT_LIMITS));
  if (unknown.length > 0) {
    throw invalid(
      `limits: ${describeUnknownKeys(unknown, "limit")}; the limits are ${Object.keys(DEFAULT_LIMITS).join(", ")} (docs/limits.md)`,
      {
        given: (unknown[0] as { key: string }).key,
        ...(unknown[0]?.suggestion === undefined ? {} : { suggestion: unknown[0].suggestion }),
      },
    );
  }
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
      throw invalid(`limits.${key} must be a positive number (Infinity for none), got ${describe(value)}`, {
        given: describe(value),
      });
    }
  }
  return Object.freeze({ ...(given as Partial<Limits>) });
}

/**
 * The value of a limit that has a named option too: the named option's, or the one in `limits`,
 * or the default. Both given with different values is an error naming both.
 */
export function namedLimit(
  option: NamedLimitOption,
  named: number | undefined,
  limits: Partial<Limits> | undefined,
  fallback: number,
): number;
export function namedLimit(
  option: NamedLimitOption,
  named: number | undefined,
  limits: Partial<Limits> | undefined,
  fallback: undefined,
): number | undefined;
export function namedLimit(
  option: NamedLimitOption,
  named: number | undefined,
  limits: Partial<Limits> | undefined,
  fallback: number | undefined,
): number | undefined {
  const limit = (NAMED_LIMITS.find((entry) => entry.option === option) as (typeof NAMED_LIMITS)[number])
    .limit;
  const inLimits = limits?.[limit];
  if (named !== undefined && inLimits !== undefined && named !== inLimits) {
    throw new AgentError(
      "PTC_AGENT_INVALID_OPTION",
      `${option} (${named}) and limits.${limit} (${inLimits}) are two names for one limit, with different values; give one of them`,
      { details: { option, limit: `limits.${limit}` } },
    );
  }
  return named ?? inLimits ?? fallback;
}
