/**
 * The public entry points: `run` (an agent, or a prompt string with agent and run options in one
 * object) resolving to `{ ok, step }`, and `runOrThrow` for callers who prefer an exception.
 */
import type { AgentOptions } from "../agent/agent-options.js";
import type { Agent } from "../agent/agent-types.js";
import { createAgent } from "../agent/create-agent.js";
import { describe, isPlainObject } from "../agent/describe.js";
import { isAgent } from "../agent/is-agent.js";
import {
  AGENT_OPTION_KEYS,
  RUN_OPTION_ERROR,
  RUN_OPTION_KEYS,
  refuseUnknownKeys,
} from "../agent/option-keys.js";
import { AgentError } from "../errors.js";
import type { RunResult, Step } from "../step/step-types.js";
import { runAgent } from "./run-agent.js";
import type { RunOptions } from "./run-options.js";

/** Options of the string form of `run`: everything an agent takes (but its prompt) and every run option. */
export type RunPromptOptions = Omit<AgentOptions, "prompt"> & RunOptions;

/** Keys of the string form that configure the agent; the run's own `isolation` wins, so it stays a run option. */
const AGENT_KEYS: ReadonlySet<string> = new Set(
  AGENT_OPTION_KEYS.filter((key) => key !== "prompt" && key !== "isolation"),
);
const RUN_KEYS: ReadonlySet<string> = new Set(RUN_OPTION_KEYS);
const PROMPT_FORM_KEYS: readonly string[] = [...new Set([...AGENT_KEYS, ...RUN_KEYS])];

/**
 * The options `run` takes after its first argument: the run options after an agent, the agent's and
 * the run's options together after a prompt. One signature rather than two overloads, so that a
 * wrong option is reported as itself, not as "Agent is not assignable to string" (TypeScript
 * reports only the last overload that failed).
 */
export type RunArguments<Target extends Agent | string> = [Target] extends [never]
  ? [options?: RunOptions]
  : [Target] extends [string]
    ? [options: RunPromptOptions]
    : [Target] extends [Agent]
      ? [options?: RunOptions]
      : [options?: RunOptions | RunPromptOptions];

/**
 * Runs an agent, or a prompt with the agent's options and the run's in one object. Never rejects
 * for a run-time failure: check `ok`, then `step.fail`.
 */
export function run<Target extends Agent | string>(
  agentOrPrompt: Target,
  ...options: RunArguments<Target>
): Promise<RunResult>;
export async function run(
  agentOrPrompt: Agent | string,
  options: RunOptions | RunPromptOptions = {},
): Promise<RunResult> {
  if (typeof agentOrPrompt === "string") {
    if (isPlainObject(options)) refuseUnknownKeys(options, PROMPT_FORM_KEYS, RUN_OPTION_ERROR("run"));
    const agentOptions: Record<string, unknown> = { prompt: agentOrPrompt };
    const runOptions: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) {
      if (AGENT_KEYS.has(key)) agentOptions[key] = value;
      if (RUN_KEYS.has(key)) runOptions[key] = value;
    }
    return runAgent(createAgent(agentOptions as unknown as AgentOptions), runOptions as RunOptions);
  }
  if (!isAgent(agentOrPrompt)) {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `run needs an agent made by createAgent, or a prompt string; got ${describe(agentOrPrompt)}`,
      { details: { option: "agent" } },
    );
  }
  if (isPlainObject(options)) refuseUnknownKeys(options, RUN_OPTION_KEYS, RUN_OPTION_ERROR("run"));
  return runAgent(agentOrPrompt, options as RunOptions);
}

/** Runs an agent and returns its step; a failed run throws `AgentError` (`PTC_AGENT_RUN_FAILED`). */
export function runOrThrow<Target extends Agent | string>(
  agentOrPrompt: Target,
  ...options: RunArguments<Target>
): Promise<Step>;
export async function runOrThrow(
  agentOrPrompt: Agent | string,
  options: RunOptions | RunPromptOptions = {},
): Promise<Step> {
  const result = await run(agentOrPrompt as Agent, options as RunOptions);
  if (result.ok) return result.step;
  const fail = result.step.fail;
  throw new AgentError(
    "PTC_AGENT_RUN_FAILED",
    `Agent run failed: ${fail?.reason ?? "unknown"} - ${fail?.message ?? ""}`,
    {
      details: { reason: fail?.reason ?? "unknown", message: fail?.message ?? "" },
      cause: result.step,
    },
  );
}
