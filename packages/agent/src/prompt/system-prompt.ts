/**
 * The system prompt of the PTC-Lisp modes: the language card, the behaviour card for the agent's
 * shape (single-shot, multi-turn, journaling), the `<output_format>` block of its transport, then
 * the user's customization, the journal's mission log, and the length limit, in that order.
 */
import { format } from "@ptc/lisp";
import type { LanguageSpecContext } from "../agent/agent-options.js";
import type { Agent } from "../agent/agent-types.js";
import { headOf } from "../cut-text.js";
import {
  EXPLICIT_RETURN_BEHAVIOUR,
  JOURNAL_CAPABILITY,
  LANGUAGE_REFERENCE,
  MULTI_TURN_BEHAVIOUR,
  OUTPUT_FORMAT_CONTENT,
  OUTPUT_FORMAT_CONTENT_THINKING,
  OUTPUT_FORMAT_TOOL_CALL,
  OUTPUT_FORMAT_TOOL_CALL_THINKING,
  SINGLE_SHOT_BEHAVIOUR,
} from "./prompt-cards.js";

const TRUNCATION_NOTE =
  "\n\n[... truncated due to length limit ...]\n\nNote: Some content was removed to fit within the character limit.";

/** The default language section: reference plus the behaviour of this agent's shape. */
export function defaultLanguageSpec(agent: Agent): string {
  if (agent.maxTurns <= 1) return `${LANGUAGE_REFERENCE}\n\n${SINGLE_SHOT_BEHAVIOUR}`;
  const base = `${LANGUAGE_REFERENCE}\n\n${MULTI_TURN_BEHAVIOUR}\n\n${EXPLICIT_RETURN_BEHAVIOUR}`;
  return agent.journaling ? `${base}\n\n${JOURNAL_CAPABILITY}` : base;
}

export function defaultOutputFormat(agent: Agent): string {
  if (agent.ptcTransport === "tool_call") {
    return agent.thinking ? OUTPUT_FORMAT_TOOL_CALL_THINKING : OUTPUT_FORMAT_TOOL_CALL;
  }
  return agent.thinking ? OUTPUT_FORMAT_CONTENT_THINKING : OUTPUT_FORMAT_CONTENT;
}

function languageSpec(agent: Agent, situation: LanguageSpecContext): string {
  const custom = typeof agent.systemPrompt === "object" ? agent.systemPrompt.languageSpec : undefined;
  if (typeof custom === "string") return custom;
  if (typeof custom === "function") return custom(situation);
  return defaultLanguageSpec(agent);
}

export function outputFormatOf(agent: Agent): string {
  const custom = typeof agent.systemPrompt === "object" ? agent.systemPrompt.outputFormat : undefined;
  return custom ?? defaultOutputFormat(agent);
}

/** Applies the agent's `systemPrompt` option to a generated prompt. */
export function customize(agent: Agent, base: string): string {
  const option = agent.systemPrompt;
  if (typeof option === "string") return option;
  if (typeof option === "function") return option(base);
  if (typeof option === "object") {
    return [option.prefix, base, option.suffix]
      .filter((part) => part !== undefined && part !== "")
      .join("\n\n");
  }
  return base;
}

/** Cuts a prompt to the agent's `promptLimit.maxChars`, saying so at the end. */
export function applyPromptLimit(agent: Agent, prompt: string): string {
  const maxChars = agent.promptLimit?.maxChars;
  if (maxChars === undefined || prompt.length <= maxChars) return prompt;
  return headOf(prompt, maxChars) + TRUNCATION_NOTE;
}

function missionLog(journal: Readonly<Record<string, unknown>> | null): string | undefined {
  if (journal === null) return undefined;
  const entries = Object.entries(journal);
  if (entries.length === 0) return undefined;
  const lines = entries.map(([id, value]) => {
    const text = format(value);
    return `- [done] ${id}: ${text.length > 200 ? `${headOf(text, 200)}...` : text}`;
  });
  return `<mission_log>\n${lines.join("\n")}\n</mission_log>`;
}

export interface SystemPromptSituation extends LanguageSpecContext {
  readonly journal: Readonly<Record<string, unknown>> | null;
  /** With `formatOptions.contextInSystem`: the data/tools block moved here. */
  readonly contextBlock?: string;
}

/** The system prompt of one turn of a PTC-Lisp loop. */
export function ptcSystemPrompt(agent: Agent, situation: SystemPromptSituation): string {
  const parts = [languageSpec(agent, situation), outputFormatOf(agent)];
  if (situation.contextBlock !== undefined && situation.contextBlock !== "")
    parts.push(situation.contextBlock);
  let prompt = customize(agent, parts.filter((part) => part !== "").join("\n\n"));
  if (agent.journaling) {
    const log = missionLog(situation.journal);
    if (log !== undefined) prompt = `${prompt}\n\n${log}`;
  }
  return applyPromptLimit(agent, prompt);
}

/** The single-shot path's system prompt: everything, the mission included, in one message. */
export function singleShotSystemPrompt(agent: Agent, sections: readonly (string | undefined)[]): string {
  const parts = [languageSpec(agent, { turn: 1, memory: {}, messages: [] }), ...sections];
  const base = parts.filter((part): part is string => part !== undefined && part !== "").join("\n\n");
  return applyPromptLimit(agent, customize(agent, base));
}
