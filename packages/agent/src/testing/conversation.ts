/**
 * Builders of the replies a scripted model gives, and readers of what a run sent it back: the
 * pieces every offline conversation is written from. A fenced program (the content transport), a
 * `lisp_eval` call (the tool-call transport and combined mode), native tool calls, and, from a
 * request, a native tool's result or the value a `lisp_eval` program showed the model.
 */

import type { Message, ModelRequest, ModelResponseObject } from "@ptc/agent";
import { run as runProgram, toJson } from "@ptc/lisp";
import { LISP_EVAL_TOOL_NAME, unwrapUntrusted } from "@ptc/protocol";

/** A reply that is one fenced program: "```clojure\n(count data/rows)\n```". */
export function fencedProgram(program: string, options: { readonly language?: string } = {}): string {
  return `\`\`\`${options.language ?? "clojure"}\n${program}\n\`\`\``;
}

/** A reply that calls `lisp_eval` with a program. */
export function lispEvalCall(
  program: string,
  options: { readonly id?: string; readonly content?: string } = {},
): ModelResponseObject {
  return {
    ...(options.content === undefined ? {} : { content: options.content }),
    toolCalls: [{ id: options.id ?? "call_lisp_eval", name: LISP_EVAL_TOOL_NAME, args: { program } }],
  };
}

/** One native call of a reply: a tool's name, its arguments and, if the test cares, its id. */
export interface NativeCall {
  readonly name: string;
  readonly args?: Readonly<Record<string, unknown>>;
  readonly id?: string;
}

/** A reply that calls tools natively; calls without an id get `call_<n>`, numbered in the reply. */
export function toolCalls(...calls: readonly NativeCall[]): ModelResponseObject {
  return {
    toolCalls: calls.map((call, index) => ({
      id: call.id ?? `call_${index + 1}`,
      name: call.name,
      args: call.args ?? {},
    })),
  };
}

/** The latest tool message of a request answering a call of `toolName`; throws when there is none. */
export function toolMessageOf(request: ModelRequest, toolName: string): Message {
  const names = new Map<string, string>();
  for (const message of request.messages) {
    for (const call of message.toolCalls ?? []) names.set(call.id, call.name);
  }
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index] as Message;
    if (message.role === "tool" && names.get(message.toolCallId ?? "") === toolName) return message;
  }
  throw new Error(`the request holds no result of a ${toolName} call`);
}

/** The JSON the latest native call of `toolName` answered with (a result, or a combined-mode preview). */
export function toolResultOf(request: ModelRequest, toolName: string): unknown {
  return JSON.parse(toolMessageOf(request, toolName).content);
}

/**
 * The value the latest `lisp_eval` program of a request showed the model (`user=> {:total 3}`),
 * as JSON data (`{ total: 3 }`), the way a model reads it. Throws when that program failed, or its
 * value was shown cut short: a scripted answer must never be built from half a value.
 */
export async function programValueOf(request: ModelRequest): Promise<unknown> {
  const payload = toolResultOf(request, LISP_EVAL_TOOL_NAME) as { status?: unknown; result?: unknown };
  if (payload.status !== "ok" || typeof payload.result !== "string") {
    throw new Error(`the latest lisp_eval did not succeed: ${JSON.stringify(payload).slice(0, 300)}`);
  }
  return readProgramValue(unwrapUntrusted(payload.result));
}

/**
 * Printed PTC-Lisp data (`{:total 3 :top ["a" "b"]}`) as JSON data. The printer writes data as
 * literals that evaluate to themselves, so the sandbox reads it back; anything else (a cut
 * preview's `...`, a function) is an error.
 */
export async function readProgramValue(text: string): Promise<unknown> {
  const source = text.replace(/^user=>\s*/, "");
  const read = await runProgram(source);
  if (!read.ok) {
    throw new Error(`not printed data (${read.error.message}): ${JSON.stringify(source.slice(0, 120))}`);
  }
  return toJson(read.value);
}
