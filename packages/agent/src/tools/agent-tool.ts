/**
 * `asTool`: an agent packaged as a tool of another agent. A program calls it like any tool; the
 * child agent runs with the call's arguments as its context, inside the parent's budgets (depth,
 * shared turn budget, mission deadline) and with the parent's model unless it has its own.
 */
import type { Agent } from "../agent/agent-types.js";
import { describe, isPlainObject } from "../agent/describe.js";
import type { NeedsApproval } from "../approvals/approval-policy.js";
import { AgentError } from "../errors.js";
import type { ModelFunction } from "../model/model-types.js";

const AGENT_TOOL: unique symbol = Symbol.for("@ptc/agent.agent-tool");

export interface AgentTool {
  readonly [AGENT_TOOL]: true;
  readonly agent: Agent;
  /** The model the child uses when it has none of its own (else the parent's). */
  readonly llm: ModelFunction | string | undefined;
  /** A name to use instead of the key it is registered under (informational). */
  readonly name: string | undefined;
  readonly description: string;
  /** The child's signature: its parameters are the tool's arguments. */
  readonly signature: string | undefined;
  /** Reuse results for calls with the same canonical arguments. Default false. */
  readonly cache: boolean;
  /** A call of the agent waits for a person's approval (docs/approvals.md). */
  readonly needsApproval?: NeedsApproval;
}

export interface AsToolOptions {
  readonly llm?: ModelFunction | string;
  readonly description?: string;
  readonly name?: string;
  readonly cache?: boolean;
  /** `true`, or a function of the call's arguments: a call of the agent waits for a person's approval. */
  readonly needsApproval?: NeedsApproval;
}

export function asTool(agent: Agent, options: AsToolOptions = {}): AgentTool {
  if (typeof agent !== "object" || agent === null || typeof agent.prompt !== "string") {
    throw new AgentError("PTC_AGENT_INVALID_RUN_OPTION", "asTool needs an agent made by createAgent", {
      details: { option: "agent" },
    });
  }
  if (!isPlainObject(options as unknown)) {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `asTool options must be an object, got ${describe(options)}`,
      {
        details: { option: "options" },
      },
    );
  }
  const description = options.description ?? agent.description;
  if (typeof description !== "string" || description === "") {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      "asTool requires a description: pass { description } to asTool or set description on the agent",
      { details: { option: "description" } },
    );
  }
  if (options.cache !== undefined && typeof options.cache !== "boolean") {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `asTool: cache must be a boolean, got ${typeof options.cache}`,
      {
        details: { option: "cache" },
      },
    );
  }
  return Object.freeze({
    [AGENT_TOOL]: true as const,
    agent,
    llm: options.llm,
    name: options.name,
    description,
    signature: agent.signature,
    cache: options.cache ?? false,
    ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
  });
}

export function isAgentTool(value: unknown): value is AgentTool {
  return (
    typeof value === "object" && value !== null && (value as { [AGENT_TOOL]?: unknown })[AGENT_TOOL] === true
  );
}
