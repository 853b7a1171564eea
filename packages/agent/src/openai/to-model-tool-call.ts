/**
 * Turns one tool call of a response into a `ModelToolCall` with parsed arguments. Arguments that
 * are not a JSON object never throw: the call keeps `args: {}` and an `argsError` quoting the raw
 * text, so the loop can answer the model with its own mistake instead of failing the run.
 */
import type { ModelToolCall } from "@ptc/agent";
import { isRecord } from "./is-record.js";

export function toModelToolCall(id: unknown, name: unknown, rawArguments: unknown): ModelToolCall {
  return {
    ...(typeof id === "string" && id !== "" ? { id } : {}),
    name: typeof name === "string" ? name : "",
    ...parseToolArguments(rawArguments),
  };
}

function parseToolArguments(raw: unknown): { args: Record<string, unknown>; argsError?: string } {
  // Some compatible servers (older Ollama) send the arguments already parsed.
  if (isRecord(raw)) return { args: raw };
  if (raw === undefined || raw === null) return { args: {} };
  const text = typeof raw === "string" ? raw : JSON.stringify(raw);
  // Models call argument-less tools with "" as often as with "{}".
  if (text.trim() === "") return { args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { args: {}, argsError: `Invalid JSON arguments: ${text}` };
  }
  // Valid JSON of another kind is not a parse error: the model must name its arguments.
  if (isRecord(parsed)) return { args: parsed };
  return { args: {}, argsError: `Tool arguments must be a JSON object, got: ${text}` };
}
