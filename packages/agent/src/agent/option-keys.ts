/**
 * The keys each options object of the public API accepts, as records over the option types: an
 * option added to a type but not here fails the type check, so the lists cannot drift. A key
 * outside its list is a mistake (a misspelling, an option of another function) and is refused
 * with the nearest valid key, instead of being ignored while the default applies.
 */
import { describeUnknownKeys, findUnknownKeys, TOOL_DEFINITION_KEYS, type UnknownKey } from "@ptc/tool";
import type { ResumeOptions } from "../approvals/approval-types.js";
import { AgentError, type AgentErrorCode } from "../errors.js";
import type { ChatOptions } from "../run/chat.js";
import type { RunOptions } from "../run/run-options.js";
import type { AgentOptions } from "./agent-options.js";

function keysOf<Options>(record: Record<keyof Options, true>): readonly string[] {
  return Object.freeze(Object.keys(record));
}

export const AGENT_OPTION_KEYS = keysOf<AgentOptions>({
  prompt: true,
  signature: true,
  tools: true,
  output: true,
  ptcTransport: true,
  ptcReference: true,
  maxTurns: true,
  retryTurns: true,
  maxToolCalls: true,
  timeout: true,
  memoryLimit: true,
  memoryStrategy: true,
  maxDepth: true,
  turnBudget: true,
  missionTimeout: true,
  completionMode: true,
  systemPrompt: true,
  promptLimit: true,
  name: true,
  description: true,
  fieldDescriptions: true,
  contextDescriptions: true,
  formatOptions: true,
  floatPrecision: true,
  compaction: true,
  thinking: true,
  plan: true,
  progress: true,
  journaling: true,
  llmQuery: true,
  builtinTools: true,
  llm: true,
  llmRetry: true,
  pmapTimeout: true,
  pmapMaxConcurrency: true,
  toolTimeoutMs: true,
  limits: true,
  isolation: true,
});

const RUN_KEYS = {
  llm: true,
  llmRegistry: true,
  context: true,
  signal: true,
  trace: true,
  collectMessages: true,
  cache: true,
  llmRetry: true,
  tokenLimit: true,
  onBudgetExceeded: true,
  budget: true,
  continuationGuard: true,
  onChunk: true,
  initialMessages: true,
  initialMemory: true,
  toolCache: true,
  journal: true,
  onEvent: true,
  eventPayloads: true,
  toolTimeoutMs: true,
  toolCacheLimitBytes: true,
  transcript: true,
  isolation: true,
  stateSecret: true,
  stateTtlMs: true,
} satisfies Record<keyof RunOptions, true>;

export const RUN_OPTION_KEYS = keysOf<RunOptions>(RUN_KEYS);

function without<Record_ extends object, Key extends keyof Record_>(
  record: Record_,
  keys: readonly Key[],
): Omit<Record_, Key> {
  const copy: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  for (const key of keys) delete copy[key as string];
  return copy as Omit<Record_, Key>;
}

export const CHAT_OPTION_KEYS = keysOf<ChatOptions>({
  ...without(RUN_KEYS, ["initialMessages", "initialMemory", "collectMessages", "toolCache"]),
  messages: true,
  memory: true,
  state: true,
});

export const RESUME_OPTION_KEYS = keysOf<ResumeOptions>({
  ...without(RUN_KEYS, ["context", "initialMessages", "initialMemory", "toolCache", "journal"]),
  approve: true,
  reject: true,
});

export const CHAT_RESUME_OPTION_KEYS: readonly string[] = Object.freeze(
  RESUME_OPTION_KEYS.filter((key) => key !== "collectMessages"),
);

/** Where an unknown key of a run's options (`run`, `chat`, `resume`) is reported. */
export function RUN_OPTION_ERROR(entry: string) {
  return { code: "PTC_AGENT_INVALID_RUN_OPTION", entry } as const;
}

/** A tool definition of an agent: what @ptc/tool reads, plus `needsApproval`. */
export const AGENT_TOOL_DEFINITION_KEYS: readonly string[] = Object.freeze([
  ...TOOL_DEFINITION_KEYS,
  "needsApproval",
]);

/**
 * Throws `AgentError` when `options` has a key outside `known`: `createAgent: unknown option
 * "maxTurn" (did you mean "maxTurns"?)`. `details.option` is the first unknown key and
 * `details.suggestion` its nearest valid one.
 */
export function refuseUnknownKeys(
  options: object,
  known: readonly string[],
  where: { readonly code: AgentErrorCode; readonly entry: string; readonly valid?: string },
): void {
  const unknown = findUnknownKeys(options, known);
  if (unknown.length === 0) return;
  const valid = where.valid ?? "the valid options are listed in docs/agents.md";
  throw new AgentError(where.code, `${where.entry}: ${describeUnknownKeys(unknown)}; ${valid}`, {
    details: unknownDetails(unknown),
  });
}

function unknownDetails(unknown: readonly UnknownKey[]) {
  const first = unknown[0] as UnknownKey;
  return {
    option: first.key,
    unknownKeys: unknown.map((entry) => entry.key),
    ...(first.suggestion === undefined ? {} : { suggestion: first.suggestion }),
  };
}
