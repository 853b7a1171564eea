/**
 * An agent as `createAgent` returns it: every setting resolved to its value (defaults applied),
 * readable under the option's own name, and frozen. Runs never change an agent.
 */
import type { Limits } from "@ptc/lisp";
import type { Signature, Tool } from "@ptc/tool";
import type { ProgramIsolation } from "../isolation/program-isolation.js";
import type { ModelFunction } from "../model/model-types.js";
import type {
  AgentOutput,
  CompactionOptions,
  CompletionMode,
  LlmRetryOptions,
  MemoryStrategy,
  ProgressFunction,
  PtcTransport,
  SystemPromptOption,
} from "./agent-options.js";

export interface ResolvedFormatOptions {
  readonly feedbackMaxChars: number;
  readonly previewMaxChars: number;
  readonly maxPrintLength: number;
  readonly contextInSystem: boolean;
  readonly minimalTurnInfo: boolean;
  readonly resultLimit: number;
  readonly resultMaxChars: number;
  readonly feedbackLimit: number;
}

export interface ResolvedCompaction {
  readonly strategy: "trim";
  readonly trigger: { readonly turns?: number; readonly tokens?: number };
  readonly keepRecentTurns: number;
  readonly keepInitialUser: boolean;
  readonly tokenCounter:
    | ((message: { readonly role: string; readonly content: string }) => number)
    | undefined;
}

export interface Agent {
  readonly prompt: string;
  readonly signature: string | undefined;
  readonly parsedSignature: Signature | undefined;
  /** The agent's own tools, normalized (builtins are added at run time). */
  readonly tools: Readonly<Record<string, Tool>>;
  readonly output: AgentOutput;
  /** `"content"` unless given; with `output: "text"` only `"tool_call"` (combined mode) is meaningful. */
  readonly ptcTransport: PtcTransport;
  /** Whether `ptcTransport` was passed (text agents without it are pure text mode). */
  readonly ptcTransportGiven: boolean;
  readonly ptcReference: "compact";
  readonly maxTurns: number;
  readonly retryTurns: number;
  readonly maxToolCalls: number | undefined;
  readonly timeout: number;
  readonly memoryLimit: number | undefined;
  readonly memoryStrategy: MemoryStrategy;
  readonly maxDepth: number;
  readonly turnBudget: number;
  readonly missionTimeout: number | undefined;
  readonly completionMode: CompletionMode;
  readonly systemPrompt: SystemPromptOption | undefined;
  readonly promptLimit: { readonly maxChars?: number } | undefined;
  readonly name: string | undefined;
  readonly description: string | undefined;
  readonly fieldDescriptions: Readonly<Record<string, string>> | undefined;
  readonly contextDescriptions: Readonly<Record<string, string>> | undefined;
  readonly formatOptions: ResolvedFormatOptions;
  readonly floatPrecision: number;
  readonly compaction: ResolvedCompaction | false;
  readonly thinking: boolean;
  /** Normalized to `[id, description]` pairs. */
  readonly plan: readonly (readonly [string, string])[];
  readonly progress: ProgressFunction | undefined;
  readonly journaling: boolean;
  readonly llmQuery: boolean;
  readonly builtinTools: readonly string[];
  readonly llm: ModelFunction | string | undefined;
  readonly llmRetry: LlmRetryOptions | undefined;
  readonly pmapTimeout: number;
  readonly pmapMaxConcurrency: number;
  readonly toolTimeoutMs: number | undefined;
  readonly limits: Partial<Limits> | undefined;
  /** Where programs run; undefined: on the host's thread (or the calling agent's isolation). */
  readonly isolation: ProgramIsolation | undefined;
}

export type { CompactionOptions };
