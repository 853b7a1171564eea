/**
 * Converts the agent's conversation into an AI SDK V3 prompt, following the V3 message types
 * exactly so any V3 provider accepts it. It must never send a prompt a provider rejects for
 * shape alone: a tool-call `input` is always a JSON object and every tool result answers a call.
 */
import type {
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3TextPart,
  LanguageModelV3ToolCallPart,
} from "@ai-sdk/provider";
import type { Message, MessageToolCall } from "@ptc/agent";
import { parseToolArguments } from "./tool-arguments.js";

export function toPrompt(system: string, messages: readonly Message[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  if (system !== "") prompt.push({ role: "system", content: system });
  // V3 tool results carry the tool's name, our tool messages only the call id.
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.content });
        break;
      case "user":
        prompt.push(userMessage(message.content));
        break;
      case "assistant":
        for (const call of message.toolCalls ?? []) toolNames.set(call.id, call.name);
        prompt.push(assistantMessage(message));
        break;
      case "tool":
        prompt.push(toolMessage(message, toolNames));
        break;
    }
  }
  return prompt;
}

function userMessage(text: string): LanguageModelV3Message {
  return { role: "user", content: [{ type: "text", text }] };
}

function assistantMessage(message: Message): LanguageModelV3Message {
  const calls = message.toolCalls ?? [];
  const content: Array<LanguageModelV3TextPart | LanguageModelV3ToolCallPart> = [];
  // An assistant turn with neither text nor calls still needs a part to be a valid message.
  if (message.content !== "" || calls.length === 0) content.push({ type: "text", text: message.content });
  for (const call of calls) {
    content.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: toolInput(call) });
  }
  return { role: "assistant", content };
}

/**
 * V3 wants the input as a JSON value, not JSON text (providers serialise it themselves), and
 * Anthropic and Bedrock reject anything but an object. Arguments the model garbled are sent as
 * `{}`, as the AI SDK does: the tool message that follows already tells the model what went wrong.
 */
function toolInput(call: MessageToolCall): Readonly<Record<string, unknown>> {
  return typeof call.args === "string" ? parseToolArguments(call.args).args : call.args;
}

function toolMessage(message: Message, toolNames: ReadonlyMap<string, string>): LanguageModelV3Message {
  const toolCallId = message.toolCallId;
  const toolName = toolCallId === undefined ? undefined : toolNames.get(toolCallId);
  // A result for a call the prompt never shows is rejected by every provider; keep its text
  // in the conversation as a user message instead of failing the whole request.
  if (toolCallId === undefined || toolName === undefined) return userMessage(message.content);
  return {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId, toolName, output: { type: "text", value: message.content } },
    ],
  };
}
