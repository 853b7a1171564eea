/**
 * Converts the agent's conversation into Chat Completions `messages`: the turn's system prompt
 * first, then each message in order. Tool-call arguments go back as the exact text the model sent
 * when it was not valid JSON, so the model sees its own mistake rather than a silently fixed one.
 */

import type { Message, MessageToolCall } from "@ptc/agent";
import { ModelCallError } from "@ptc/agent";
import type { ChatMessage, ChatToolCall } from "./chat-completion-types.js";

export function toChatMessages(system: string, messages: readonly Message[]): ChatMessage[] {
  const chat: ChatMessage[] = [];
  if (system !== "") chat.push({ role: "system", content: system });
  messages.forEach((message, index) => {
    chat.push(toChatMessage(message, index));
  });
  return chat;
}

function toChatMessage(message: Message, index: number): ChatMessage {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "assistant": {
      const toolCalls = (message.toolCalls ?? []).map(toChatToolCall);
      if (toolCalls.length === 0) return { role: "assistant", content: message.content };
      // OpenAI documents `null` as the content of a call-only turn; some servers reject "".
      const content = message.content === "" ? null : message.content;
      return { role: "assistant", content, tool_calls: toolCalls };
    }
    case "tool":
      if (message.toolCallId === undefined) {
        // Caught here because the provider's 400 for a missing id does not say which message.
        throw new ModelCallError(
          "client_error",
          `Message ${index} has role "tool" but no toolCallId: every tool message must answer a call id.`,
        );
      }
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

function toChatToolCall(call: MessageToolCall): ChatToolCall {
  const text = typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {});
  return { id: call.id, type: "function", function: { name: call.name, arguments: text } };
}
