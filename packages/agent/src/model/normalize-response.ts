/**
 * Turns whatever a model function returned into one shape: content (or null), tool calls with
 * object arguments (text arguments parsed; unparsable ones flagged with `argsError`, never thrown),
 * and token counts. A return value that is neither a string nor an object is a model error.
 */
import type { ModelToolCall, TokenCounts } from "./model-types.js";

export interface NormalizedToolCall {
  readonly id: string | undefined;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** The arguments as sent, when they were text. */
  readonly rawArgs: string | undefined;
  readonly argsError: string | undefined;
}

export interface NormalizedResponse {
  readonly content: string | null;
  /** null when the response had no `toolCalls` list at all; an empty list counts as a list. */
  readonly toolCalls: readonly NormalizedToolCall[] | null;
  readonly tokens: TokenCounts | null;
}

export type NormalizeResult = { ok: true; response: NormalizedResponse } | { ok: false; error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function normalizeResponse(raw: unknown): NormalizeResult {
  if (typeof raw === "string") return { ok: true, response: { content: raw, toolCalls: null, tokens: null } };
  if (!isRecord(raw)) {
    return {
      ok: false,
      error: `the model returned ${raw === null ? "null" : Array.isArray(raw) ? "an array" : typeof raw}; return a string or { content, toolCalls, tokens }`,
    };
  }
  const content = typeof raw.content === "string" ? raw.content : null;
  const tokens = isRecord(raw.tokens) ? (raw.tokens as TokenCounts) : null;
  if (raw.toolCalls === undefined || raw.toolCalls === null)
    return { ok: true, response: { content, toolCalls: null, tokens } };
  if (!Array.isArray(raw.toolCalls)) {
    return { ok: false, error: "the model's toolCalls must be an array of { id, name, args }" };
  }
  const toolCalls: NormalizedToolCall[] = [];
  for (const call of raw.toolCalls as unknown[]) {
    if (!isRecord(call) || typeof call.name !== "string") {
      return { ok: false, error: "every tool call needs a string name: { id, name, args }" };
    }
    toolCalls.push(normalizeToolCall(call as unknown as ModelToolCall));
  }
  return { ok: true, response: { content, toolCalls, tokens } };
}

function normalizeToolCall(call: ModelToolCall): NormalizedToolCall {
  const id = typeof call.id === "string" && call.id !== "" ? call.id : undefined;
  const given = call.argsError;
  if (typeof call.args === "string") {
    const raw = call.args;
    if (typeof given === "string") return { id, name: call.name, args: {}, rawArgs: raw, argsError: given };
    if (raw.trim() === "") return { id, name: call.name, args: {}, rawArgs: raw, argsError: undefined };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { id, name: call.name, args: {}, rawArgs: raw, argsError: `Invalid JSON arguments: ${raw}` };
    }
    if (isRecord(parsed)) return { id, name: call.name, args: parsed, rawArgs: raw, argsError: undefined };
    // Valid JSON of another kind is not a parse error: the model must name its arguments.
    return {
      id,
      name: call.name,
      args: {},
      rawArgs: raw,
      argsError: `Tool arguments must be a JSON object, got: ${raw}`,
    };
  }
  if (call.args === undefined || call.args === null) {
    return {
      id,
      name: call.name,
      args: {},
      rawArgs: undefined,
      argsError: typeof given === "string" ? given : undefined,
    };
  }
  if (!isRecord(call.args)) {
    return {
      id,
      name: call.name,
      args: {},
      rawArgs: undefined,
      argsError: `Invalid tool arguments: expected a JSON object, got ${JSON.stringify(call.args)}`,
    };
  }
  return {
    id,
    name: call.name,
    args: call.args,
    rawArgs: undefined,
    argsError: typeof given === "string" ? given : undefined,
  };
}
