/**
 * Maps the AI SDK's V3 usage onto the agent's token counts. V3 nests the counts
 * (`inputTokens.total`, `.cacheRead`, `.cacheWrite`); `input` is the total, cached tokens
 * included, so the cache counts are parts of it, as the AI SDK itself reports them.
 */
import type { LanguageModelV3Usage } from "@ai-sdk/provider";
import type { TokenCounts } from "@ptc/agent";

export function toTokenCounts(usage: LanguageModelV3Usage | undefined): TokenCounts | undefined {
  // A hand-written model may send `usage: null` (or leave the nested objects out); that reports
  // nothing, and must not lose the answer it came with.
  if (typeof usage !== "object" || usage === null) return undefined;
  const counts: { input?: number; output?: number; cacheRead?: number; cacheCreation?: number } = {};
  // Optional chaining: hand-written models and mocks sometimes leave the nested objects out.
  const input = usage.inputTokens?.total;
  const output = usage.outputTokens?.total;
  const cacheRead = usage.inputTokens?.cacheRead;
  const cacheCreation = usage.inputTokens?.cacheWrite;
  if (isCount(input)) counts.input = input;
  if (isCount(output)) counts.output = output;
  if (isCount(cacheRead)) counts.cacheRead = cacheRead;
  if (isCount(cacheCreation)) counts.cacheCreation = cacheCreation;
  return Object.keys(counts).length === 0 ? undefined : counts;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
