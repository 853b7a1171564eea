/**
 * The public entry points: `run` (an agent, or a prompt string with agent and run options in one
 * object) resolving to `{ ok, step }`, and `runOrThrow` for callers who prefer an exception.
 */
import type { AgentOptions } from "../agent/agent-options.js";
import type { Agent } from "../agent/agent-types.js";
import { createAgent } from "../agent/create-agent.js";
import { describe, isPlainObject } from "../agent/describe.js";
import { AgentError } from "../errors.js";
import type { RunResult, Step } from "../step/step-types.js";
import { runAgent } from "./run-agent.js";
import type { RunOptions } from "./run-options.js";

/** Options of the string form of `run`: everything an agent takes (but its prompt) and every run option. */
export type RunPromptOptions = Omit<AgentOptions, "prompt"> & RunOptions;

const AGENT_KEYS: ReadonlySet<string> = new Set([
  "signature",
  "tools",
  "llmQuery",
  "builtinTools",
  "maxTurns",
  "retryTurns",
  "timeout",
  "pmapTimeout",
  "pmapMaxConcurrency",
  "promptLimit",
  "missionTimeout",
  "llmRetry",
  "llm",
  "systemPrompt",
  "compaction",
  "thinking",
  "memoryLimit",
  "maxDepth",
  "turnBudget",
  "name",
  "description",
  "fieldDescriptions",
  "contextDescriptions",
  "formatOptions",
  "floatPrecision",
  "output",
  "ptcTransport",
  "ptcReference",
  "memoryStrategy",
  "maxToolCalls",
  "plan",
  "progress",
  "journaling",
  "completionMode",
  "toolTimeoutMs",
  "limits",
]);

/** Keys that belong to both: the agent keeps them as defaults, the run uses them directly. */
const SHARED_KEYS: ReadonlySet<string> = new Set(["llm", "llmRetry", "toolTimeoutMs"]);

function isAgent(value: unknown): value is Agent {
  return (
    isPlainObject(value) && Object.isFrozen(value) && typeof value.prompt === "string" && "maxTurns" in value
  );
}

/** Runs an agent. Never rejects for a run-time failure: check `ok`, then `step.fail`. */
export function run(agent: Agent, options?: RunOptions): Promise<RunResult>;
export function run(prompt: string, options: RunPromptOptions): Promise<RunResult>;
export async function run(
  agentOrPrompt: Agent | string,
  options: RunOptions | RunPromptOptions = {},
): Promise<RunResult> {
  if (typeof agentOrPrompt === "string") {
    const agentOptions: Record<string, unknown> = { prompt: agentOrPrompt };
    const runOptions: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) {
      if (AGENT_KEYS.has(key)) agentOptions[key] = value;
      if (!AGENT_KEYS.has(key) || SHARED_KEYS.has(key)) runOptions[key] = value;
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
  return runAgent(agentOrPrompt, options as RunOptions);
}

/** Runs an agent and returns its step; a failed run throws `AgentError` (`PTC_AGENT_RUN_FAILED`). */
export function runOrThrow(agent: Agent, options?: RunOptions): Promise<Step>;
export function runOrThrow(prompt: string, options: RunPromptOptions): Promise<Step>;
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
