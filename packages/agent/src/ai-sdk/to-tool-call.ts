/**
 * Turns a tool call as V3 reports it (id, name, JSON-encoded input) into the agent's
 * `ModelToolCall`, with `argsError` set when the input is not a JSON object.
 */
import type { ModelToolCall } from "@ptc/agent";
import { parseToolArguments } from "./tool-arguments.js";

export function toToolCall(id: string, name: string, input: unknown): ModelToolCall {
  const { args, argsError } = parseToolArguments(input);
  return argsError === undefined ? { id, name, args } : { id, name, args, argsError };
}
