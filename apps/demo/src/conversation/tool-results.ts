/**
 * What a scripted model reads from its request: the tool messages that answered its calls, found
 * by the tool's name through the assistant message that made the call. Scripted conversations
 * build their next step from these, never from data they were given in advance.
 */
import { type Message, type ModelRequest, unwrapUntrusted } from "@ptc/agent";
import { type LispData, readLispValue } from "./read-lisp-value.js";

/** The latest tool message answering a call of `toolName`, or an Error naming what is missing. */
export function toolMessage(request: ModelRequest, toolName: string): Message {
  const names = new Map<string, string>();
  for (const message of request.messages) {
    for (const call of message.toolCalls ?? []) names.set(call.id, call.name);
  }
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index] as Message;
    if (message.role === "tool" && names.get(message.toolCallId ?? "") === toolName) return message;
  }
  throw new Error(`the scripted model expected a ${toolName} result in its request`);
}

/** The JSON a native tool call returned (the full result, or a combined-mode preview). */
export function toolJson(request: ModelRequest, toolName: string): unknown {
  return JSON.parse(toolMessage(request, toolName).content);
}

/** The value of the latest successful `lisp_eval` program, read from its `user=> ...` text. */
export function lispResult(request: ModelRequest): LispData {
  const payload = toolJson(request, "lisp_eval") as {
    status?: string;
    result?: string;
    reason?: string;
    message?: string;
  };
  if (payload.status !== "ok" || typeof payload.result !== "string") {
    throw new Error(
      `the scripted model expected a successful lisp_eval result, got ${JSON.stringify(payload).slice(0, 300)}`,
    );
  }
  // The result arrives framed as untrusted data, as every text a program produced.
  return readLispValue(unwrapUntrusted(payload.result));
}

/** The `(tool/name {...})` call a combined-mode preview's cache hint tells the model to make. */
export function cachedCall(request: ModelRequest, toolName: string): string {
  const preview = toolJson(request, toolName) as { full_result_cached?: boolean; cache_hint?: string };
  const call = preview.cache_hint?.match(/\(tool\/\S+ .*?\)(?= to process)/)?.[0];
  if (preview.full_result_cached !== true || call === undefined) {
    throw new Error(
      `the scripted model expected a cached ${toolName} preview, got ${JSON.stringify(preview).slice(0, 300)}`,
    );
  }
  return call;
}
