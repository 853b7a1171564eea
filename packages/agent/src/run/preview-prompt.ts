/**
 * `previewPrompt`: what the model would be sent on the first turn, without calling it: the system
 * prompt, the first user message, the tools offered and the answer schema. Text agents preview
 * what the run really sends (combined mode included: `lisp_eval`, the card, exposure), where the
 * reference previewed a simplified text agent.
 */
import { requestTools, toolSchema } from "@ptc/protocol";
import type { Agent } from "../agent/agent-types.js";
import { describe, isPlainObject } from "../agent/describe.js";
import { AgentError } from "../errors.js";
import type { RequestToolSchema } from "../model/model-types.js";
import { expandTemplate } from "../parsing/template.js";
import { contextBlock, firstUserMessage } from "../prompt/first-message.js";
import { planChecklist } from "../prompt/progress.js";
import { ptcSystemPrompt } from "../prompt/system-prompt.js";
import {
  answerSchema,
  jsonUserMessage,
  returnsText,
  textSystemPrompt,
  toolVariantUserMessage,
} from "../prompt/text-prompts.js";
import { effectiveTools } from "../tools/builtin-tools.js";

export interface ToolSummary {
  readonly name: string;
  readonly signature?: string;
  readonly description?: string;
}

export interface PromptPreview {
  readonly system: string;
  readonly user: string;
  /** PTC-Lisp agents: the tools programs may call. Text agents: the native tool schemas sent. */
  readonly toolSchemas: readonly (ToolSummary | RequestToolSchema)[];
  /** The JSON Schema sent for the answer (JSON text variant only). */
  readonly schema: Readonly<Record<string, unknown>> | null;
}

export function previewPrompt(
  agent: Agent,
  options: { readonly context?: Readonly<Record<string, unknown>> } = {},
): PromptPreview {
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
  const tools = [...effectiveTools(agent).values()];
  const descriptions = { ...(agent.contextDescriptions ?? {}) };
  if (agent.output === "ptc_lisp") {
    const contextInSystem = agent.formatOptions.contextInSystem
      ? contextBlock({ agent, tools, context, memory: {}, descriptions })
      : undefined;
    return {
      system: ptcSystemPrompt(agent, {
        turn: 1,
        memory: {},
        messages: [],
        journal: agent.journaling ? {} : null,
        ...(contextInSystem === undefined ? {} : { contextBlock: contextInSystem }),
      }),
      user: firstUserMessage({
        agent,
        tools,
        context,
        memory: {},
        descriptions,
        progress: agent.progress === undefined ? planChecklist(agent.plan, {}) : "",
        contextInSystem: agent.formatOptions.contextInSystem,
      }),
      toolSchemas:
        agent.ptcTransport === "tool_call"
          ? [toolSchema("in_process_with_app_tools")]
          : tools.map((tool) => ({
              name: tool.name,
              ...(tool.signature === undefined ? {} : { signature: tool.signature }),
              ...(tool.description === undefined ? {} : { description: tool.description }),
            })),
      schema: null,
    };
  }
  const combined = agent.ptcTransportGiven && agent.ptcTransport === "tool_call";
  const variant =
    combined || tools.length > 0 ? "tools" : returnsText(agent.parsedSignature) ? "text" : "json";
  const user =
    variant === "text"
      ? expandTemplate(agent.prompt, context)
      : variant === "json"
        ? jsonUserMessage(agent, context)
        : toolVariantUserMessage(agent, context, descriptions);
  const schemas =
    variant === "tools"
      ? requestTools({
          output: "text",
          ptcTransport: combined ? "tool_call" : undefined,
          tools: effectiveTools(agent),
        })
      : undefined;
  return {
    system: textSystemPrompt(agent, variant, tools),
    user,
    toolSchemas: schemas === undefined ? [] : [...schemas],
    schema:
      variant === "json" && agent.parsedSignature !== undefined ? answerSchema(agent.parsedSignature) : null,
  };
}
