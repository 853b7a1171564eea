/**
 * Turns whatever a model function returned into one shape: content (or null), tool calls with
 * object arguments (text arguments parsed; unparsable ones flagged with `argsError`, never thrown),
 * and token counts. A return value that is neither a string nor an object is a model error.
 */
import { headOf } from "../cut-text.js";
import { toJsonSafe } from "../json/to-json-safe.js";
import type { ModelToolCall, TokenCounts } from "./model-types.js";

/**
 * Characters of the model's own arguments quoted back in an error: enough to recognize them,
 * without sending a malformed call of any size back to the model a second time.
 */
const MAX_QUOTED_ARGS = 200;

function quoted(text: string): string {
  return text.length > MAX_QUOTED_ARGS
    ? `${headOf(text, MAX_QUOTED_ARGS)}... (${text.length} characters)`
    : text;
}

/**
 * Characters kept of an `argsError` a model function gives. The adapters quote the model's raw
 * arguments in it (`Invalid JSON arguments: <raw>`), and the loop sends it back to the model:
 * 2 MB of broken JSON must not come back as 2 MB more.
 */
const MAX_GIVEN_ARGS_ERROR = 1000;

function boundedArgsError(text: string): string {
  return text.length > MAX_GIVEN_ARGS_ERROR
    ? `${headOf(text, MAX_GIVEN_ARGS_ERROR)}... (${text.length} characters)`
    : text;
}

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
  const tokens = isRecord(raw.tokens) ? tokenCountsOf(raw.tokens) : null;
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

const TOKEN_FIELDS = ["input", "output", "cacheCreation", "cacheRead"] as const;

/**
 * The counts a response reports, each kept only when it is a count (a finite number, not
 * negative): usage adds them up and the tokenLimit reads the sum, so text would concatenate, NaN
 * or a BigInt would poison or throw, and a negative count would hide tokens from the limit.
 */
function tokenCountsOf(reported: Record<string, unknown>): TokenCounts {
  const counts: { -readonly [field in keyof TokenCounts]: number } = {};
  for (const field of TOKEN_FIELDS) {
    let value: unknown;
    try {
      value = reported[field];
    } catch {
      continue; // a getter that throws: not reported
    }
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) counts[field] = value;
  }
  return counts;
}

function normalizeToolCall(call: ModelToolCall): NormalizedToolCall {
  const id = typeof call.id === "string" && call.id !== "" ? call.id : undefined;
  const given = typeof call.argsError === "string" ? boundedArgsError(call.argsError) : call.argsError;
  if (typeof call.args === "string") {
    const raw = call.args;
    if (typeof given === "string") return { id, name: call.name, args: {}, rawArgs: raw, argsError: given };
    if (raw.trim() === "") return { id, name: call.name, args: {}, rawArgs: raw, argsError: undefined };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return {
        id,
        name: call.name,
        args: {},
        rawArgs: raw,
        argsError: `Invalid JSON arguments: ${quoted(raw)}`,
      };
    }
    if (isRecord(parsed)) return { id, name: call.name, args: parsed, rawArgs: raw, argsError: undefined };
    // Valid JSON of another kind is not a parse error: the model must name its arguments.
    return {
      id,
      name: call.name,
      args: {},
      rawArgs: raw,
      argsError: `Tool arguments must be a JSON object, got: ${quoted(raw)}`,
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
  // A model function may return any value here (BigInts, cycles, getters that throw): the run
  // keeps, checks and sends back the arguments as JSON data, by the step's one rule.
  const args = toJsonSafe(call.args);
  if (!isRecord(args)) {
    return {
      id,
      name: call.name,
      args: {},
      rawArgs: undefined,
      argsError: `Invalid tool arguments: expected a JSON object, got ${quoted(JSON.stringify(args))}`,
    };
  }
  return {
    id,
    name: call.name,
    args,
    rawArgs: undefined,
    argsError: typeof given === "string" ? given : undefined,
  };
}
