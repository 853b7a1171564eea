/**
 * Reads a Chat Completions `usage` object into the agent's token counts. Cached prompt tokens are
 * part of `prompt_tokens` in OpenAI's accounting; they are reported again as `cacheRead`.
 */
import type { TokenCounts } from "@ptc/agent";
import { isRecord } from "./is-record.js";

export function toTokenCounts(usage: unknown): TokenCounts | undefined {
  if (!isRecord(usage)) return undefined;
  const input = countOf(usage.prompt_tokens);
  const output = countOf(usage.completion_tokens);
  const details = usage.prompt_tokens_details;
  const cacheRead = isRecord(details) ? countOf(details.cached_tokens) : undefined;
  return {
    ...(input === undefined ? {} : { input }),
    ...(output === undefined ? {} : { output }),
    ...(cacheRead === undefined ? {} : { cacheRead }),
  };
}

function countOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
