/**
 * Prompts of the text modes: the system prompt of each variant (with the combined-mode reference
 * card appended last, whatever the customization), the first user message of the tool variant
 * (`<context_data>`, `<output_format>`, `<mission>`), the JSON variant's message and its retry
 * feedback. Keys are shown snake_case, as JSON answers use them.
 */
import { combinedModeReferenceCard, wrapUntrustedWithPreamble } from "@ptc/protocol";
import { type Signature, type SignatureType, signatureToJsonSchema, type Tool } from "@ptc/tool";
import type { Agent } from "../agent/agent-types.js";
import { headOf } from "../cut-text.js";
import { expandTemplate } from "../parsing/template.js";
import { JSON_SYSTEM, JSON_USER_TEMPLATE, TEXT_SYSTEM, TOOL_CALLING_SYSTEM } from "./prompt-cards.js";
import { applyPromptLimit, customize } from "./system-prompt.js";

export type TextVariant = "text" | "json" | "tools";

export function textSystemPrompt(agent: Agent, variant: TextVariant, tools: readonly Tool[]): string {
  const base = variant === "text" ? TEXT_SYSTEM : variant === "json" ? JSON_SYSTEM : TOOL_CALLING_SYSTEM;
  let prompt = customize(agent, base);
  const card = combinedModeReferenceCard({
    output: agent.output,
    ptcTransport: agent.ptcTransportGiven ? agent.ptcTransport : undefined,
    ptcReference: agent.ptcReference,
    tools: [...tools],
  });
  if (card !== undefined) prompt = `${prompt}\n\n${card}`;
  return applyPromptLimit(agent, prompt);
}

/** True when the answer is plain text: no signature, or one returning `:string`. */
export function returnsText(signature: Signature | undefined): boolean {
  return signature === undefined || signature.returns === "string";
}

function returnsListType(signature: Signature | undefined): boolean {
  const returns = signature?.returns;
  return typeof returns === "object" && returns.kind === "list";
}

export function outputInstruction(signature: Signature | undefined): string {
  if (returnsText(signature)) return "When you have the final answer, return it as plain text.";
  const schema = JSON.stringify(signatureToJsonSchema(signature as Signature), null, 2);
  return returnsListType(signature)
    ? `When you have the final answer, return a JSON array matching this schema:\n${schema}`
    : `When you have the final answer, return a JSON object matching this schema:\n${schema}`;
}

const CONTEXT_VALUE_CHARS = 200;

function contextValue(value: unknown): string {
  let text: string;
  try {
    text =
      JSON.stringify(Array.isArray(value) && value.length > 100 ? value.slice(0, 100) : value) ??
      String(value);
  } catch {
    text = String(value);
  }
  return text.length > CONTEXT_VALUE_CHARS ? `${headOf(text, CONTEXT_VALUE_CHARS)}...` : text;
}

function contextData(
  context: Readonly<Record<string, unknown>>,
  descriptions: Readonly<Record<string, string>>,
): string {
  const keys = Object.keys(context);
  if (keys.length === 0) return "";
  const lines = keys.map((key) => {
    const description = descriptions[key];
    return description === undefined
      ? `- ${key} = ${contextValue(context[key])}`
      : `- ${key}: ${description} = ${contextValue(context[key])}`;
  });
  return `<context_data>\n${lines.join("\n")}\n</context_data>`;
}

/** The first user message of the tool variant (pure and combined). */
export function toolVariantUserMessage(
  agent: Agent,
  context: Readonly<Record<string, unknown>>,
  descriptions: Readonly<Record<string, string>>,
): string {
  return [
    contextData(context, descriptions),
    `<output_format>\n${outputInstruction(agent.parsedSignature)}\n</output_format>`,
    `<mission>\n${expandTemplate(agent.prompt, context)}\n</mission>`,
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

function typeLabel(type: SignatureType): string {
  if (typeof type === "string") {
    switch (type) {
      case "string":
        return "string";
      case "int":
        return "integer";
      case "float":
        return "number";
      case "bool":
        return "boolean";
      case "keyword":
        return "string(keyword)";
      case "any":
        return "any";
      case "map":
        return "object";
      case "datetime":
        return 'ISO 8601 datetime string with offset (e.g. "2026-05-03T09:14:00Z")';
    }
  }
  switch (type.kind) {
    case "optional":
      return `${typeLabel(type.type)} (optional)`;
    case "list":
      return `array of ${typeLabel(type.type)}`;
    case "map":
      return "object";
  }
}

function example(type: SignatureType): unknown {
  if (typeof type === "string") {
    switch (type) {
      case "string":
        return "...";
      case "int":
        return 0;
      case "float":
        return 0.0;
      case "bool":
        return true;
      case "keyword":
        return "keyword";
      case "any":
        return { key: "value", data: "..." };
      case "map":
        return {};
      case "datetime":
        return "2026-05-03T09:14:00Z";
    }
  }
  switch (type.kind) {
    case "optional":
      return example(type.type);
    case "list":
      return [example(type.type)];
    case "map":
      return Object.fromEntries(type.fields.map((field) => [field.name, example(field.type)]));
  }
}

export function exampleJson(signature: Signature | undefined): string {
  if (signature === undefined) return "{}";
  return JSON.stringify(example(signature.returns), null, 2);
}

function fieldDescriptions(agent: Agent): string {
  const signature = agent.parsedSignature;
  if (signature === undefined) return "(any valid JSON object)";
  const returns = signature.returns;
  if (returns === "any") return "(Return your response directly as a JSON object - no wrapper needed)";
  const fields =
    typeof returns === "object" && returns.kind === "map"
      ? returns.fields
      : typeof returns === "object" &&
          returns.kind === "list" &&
          typeof returns.type === "object" &&
          returns.type.kind === "map"
        ? returns.type.fields
        : undefined;
  if (fields === undefined) return `(${typeLabel(returns)})`;
  return fields
    .map((field) => {
      const description = agent.fieldDescriptions?.[field.name];
      return `- \`${field.name}\` (${typeLabel(field.type)})${description === undefined ? "" : ` - ${description}`}`;
    })
    .join("\n");
}

/** The JSON variant's first user message. */
export function jsonUserMessage(agent: Agent, context: Readonly<Record<string, unknown>>): string {
  const replacements: Record<string, string> = {
    "{{task}}": expandTemplate(agent.prompt, context),
    "{{output_instruction}}": returnsListType(agent.parsedSignature)
      ? "Return a JSON array:"
      : "Return a JSON object with these fields:",
    "{{field_descriptions}}": fieldDescriptions(agent),
    "{{example_output}}": exampleJson(agent.parsedSignature),
  };
  // Literal replacement: the task text may itself contain braces.
  return JSON_USER_TEMPLATE.replace(
    /\{\{(task|output_instruction|field_descriptions|example_output)\}\}/g,
    (match) => replacements[match] ?? match,
  );
}

/** The JSON variant's feedback after an answer that did not parse or validate. */
export function jsonRetryMessage(agent: Agent, error: string, response: string): string {
  const shown = response.length > 500 ? `${headOf(response, 500)}...` : response;
  return `<error_feedback>
Error: ${error}

Your previous response:
${wrapUntrustedWithPreamble(shown, "invalid_response") ?? ""}

Return a JSON value shaped like this example:
${exampleJson(agent.parsedSignature)}
</error_feedback>`;
}

/** The JSON Schema a JSON-variant request carries. */
export function answerSchema(signature: Signature): Record<string, unknown> {
  return signatureToJsonSchema(signature) as Record<string, unknown>;
}
