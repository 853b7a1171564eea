/**
 * `previewPrompt`: what the model would be sent on the first turn, without calling it: the system
 * prompt, the first user message, the tools offered and the answer schema. The preview is the
 * run's own first request (run/first-request.ts), so it cannot differ from what a run sends, in any
 * mode (docs/differences.md, "previewPrompt shows what a run sends").
 */
import { wellFormedValue } from "@ptc/protocol";
import type { Tool } from "@ptc/tool";
import type { Agent } from "../agent/agent-types.js";
import { describe, isPlainObject } from "../agent/describe.js";
import { isAgent } from "../agent/is-agent.js";
import { AgentError } from "../errors.js";
import { wellFormedRequest } from "../loop/well-formed-request.js";
import type { RequestToolSchema } from "../model/model-types.js";
import { firstRequest } from "./first-request.js";

export interface ToolSummary {
  readonly name: string;
  readonly signature?: string;
  readonly description?: string;
}

export interface PromptPreview {
  readonly system: string;
  readonly user: string;
  /**
   * PTC-Lisp agents with fenced programs: the tools programs may call. Agents that send native
   * tools (`lisp_eval`, text agents with tools): the tool schemas sent.
   */
  readonly toolSchemas: readonly (ToolSummary | RequestToolSchema)[];
  /** The JSON Schema sent for the answer (JSON text variant only). */
  readonly schema: Readonly<Record<string, unknown>> | null;
}

export function previewPrompt(
  agent: Agent,
  options: { readonly context?: Readonly<Record<string, unknown>> } = {},
): PromptPreview {
  if (!isAgent(agent)) {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `previewPrompt needs an agent made by createAgent, got ${describe(agent)}`,
      { details: { option: "agent" } },
    );
  }
  if (!isPlainObject(options as unknown)) {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `previewPrompt options must be an object, got ${describe(options)}`,
      { details: { option: "options" } },
    );
  }
  const context = options.context ?? {};
  if (!isPlainObject(context)) {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `previewPrompt: context must be an object, got ${describe(context)}`,
      {
        details: { option: "context" },
      },
    );
  }
  const first = firstRequest(agent, { context });
  // As it is sent: a lone surrogate (from the context, a tool's description) becomes U+FFFD.
  const request = wellFormedRequest(first.request);
  return {
    system: request.system,
    // The first user message is the last one sent: a run's history options come before it.
    user: request.messages.at(-1)?.content ?? "",
    toolSchemas:
      first.mode.ptc && !first.mode.lispEval
        ? wellFormedValue(first.tools.map(summary))
        : [...(request.tools ?? [])],
    schema: request.schema ?? null,
  };
}

function summary(tool: Tool): ToolSummary {
  return {
    name: tool.name,
    ...(tool.signature === undefined ? {} : { signature: tool.signature }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
  };
}
