/**
 * The first user message of a PTC-Lisp loop: the context block (namespaces, expected output, the
 * `llm-query` note, the tool-call limit), the mission in `<mission>` tags, and the initial
 * progress. Template placeholders whose data exists become `~{data/x}` references so the model
 * knows where the value lives.
 */
import type { Tool } from "@ptc/tool";
import type { Agent } from "../agent/agent-types.js";
import { annotateTemplate } from "../parsing/template.js";
import { renderExpectedOutput } from "./expected-output.js";
import { renderNamespaces } from "./namespaces.js";

export const LLM_QUERY_NOTE = `;; === llm-query ===
;; (tool/llm-query {:prompt "Classify {{text}}" :text t :signature "{label :string}"}) asks the model a sub-question.
;; Extra keys fill the prompt's {{placeholders}}; :signature (default ":string") types the answer.`;

export interface ContextBlockInput {
  readonly agent: Agent;
  readonly tools: readonly Tool[];
  readonly context: Readonly<Record<string, unknown>>;
  readonly memory: Readonly<Record<string, unknown>>;
  readonly descriptions: Readonly<Record<string, string>>;
}

export function contextBlock(input: ContextBlockInput): string {
  const { agent } = input;
  const parts = [
    renderNamespaces({
      tools: input.tools,
      context: input.context,
      signature: agent.parsedSignature,
      descriptions: input.descriptions,
      memory: input.memory,
    }),
    renderExpectedOutput(agent.parsedSignature, agent.fieldDescriptions),
    agent.llmQuery ? LLM_QUERY_NOTE : undefined,
    agent.maxToolCalls === undefined
      ? undefined
      : `Constraint: maximum ${agent.maxToolCalls} tool calls per turn. Plan efficiently.`,
  ];
  return parts.filter((part): part is string => part !== undefined && part !== "").join("\n\n");
}

export function missionSection(agent: Agent, context: Readonly<Record<string, unknown>>): string {
  return `<mission>\n${annotateTemplate(agent.prompt, context)}\n</mission>`;
}

export function firstUserMessage(
  input: ContextBlockInput & { readonly progress: string; readonly contextInSystem: boolean },
): string {
  const parts = [
    input.contextInSystem ? "" : contextBlock(input),
    missionSection(input.agent, input.context),
    input.progress,
  ];
  return parts.filter((part) => part !== "").join("\n\n");
}
