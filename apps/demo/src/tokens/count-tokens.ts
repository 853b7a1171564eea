/**
 * Context tokens of a model request, counted with gpt-tokenizer (o200k_base, the GPT-4o family's
 * encoding): the system prompt, every message (with the arguments of the tool calls it carries)
 * and the tool schemas, i.e. all the text the model reads. Per-message framing tokens of a chat
 * format are not counted: they are a few per message and the same either way.
 */
import type { Message, RequestToolSchema } from "@ptc/agent";
import { encode } from "gpt-tokenizer";

/** Requests repeat the same long texts turn after turn; each distinct text is encoded once. */
const counted = new Map<string, number>();

export function countTokens(text: string): number {
  if (text === "") return 0;
  let count = counted.get(text);
  if (count === undefined) {
    count = encode(text).length;
    counted.set(text, count);
  }
  return count;
}

export function messageTokens(message: Message): number {
  let total = countTokens(message.content);
  for (const call of message.toolCalls ?? []) {
    total +=
      countTokens(call.name) +
      countTokens(typeof call.args === "string" ? call.args : JSON.stringify(call.args));
  }
  return total;
}

export interface TokenRequest {
  readonly system: string;
  readonly messages: readonly Message[];
  readonly tools?: readonly RequestToolSchema[];
}

export function requestTokens(request: TokenRequest): number {
  let total = countTokens(request.system);
  for (const message of request.messages) total += messageTokens(message);
  if (request.tools !== undefined && request.tools.length > 0)
    total += countTokens(JSON.stringify(request.tools));
  return total;
}
