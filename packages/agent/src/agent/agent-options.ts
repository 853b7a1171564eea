/**
 * What a user passes to `createAgent`: every option of the reference's `SubAgent.new/1` (ptc_runner, docs/differences.md), in
 * camelCase, plus the few this port adds (`toolTimeoutMs`, `limits`). Types only; checking and
 * defaults live in create-agent.ts.
 */
import type { Limits } from "@ptc/lisp";
import type { AnyToolDefinition, Tool, ToolFunction } from "@ptc/tool";
import type { NeedsApproval } from "../approvals/approval-policy.js";
import type { ProgramIsolation } from "../isolation/program-isolation.js";
import type { ModelFunction } from "../model/model-types.js";
import type { AgentTool } from "../tools/agent-tool.js";

export type AgentOutput = "ptc_lisp" | "text";
export type PtcTransport = "content" | "tool_call";
export type MemoryStrategy = "strict" | "rollback";
export type CompletionMode = "implicit" | "explicit";

/**
 * A normalized `Tool`, typed so that its `execute` has the same signature as a definition's:
 * inline `execute: ({ query }) => ...` functions then get their parameter types from context.
 */
// biome-ignore lint/suspicious/noExplicitAny: matches AnyToolDefinition's execute so contextual typing applies
type NormalizedTool = Omit<Tool, "execute"> & { readonly execute: ToolFunction<any, unknown> };

/** What an agent reads from a tool definition beyond what @ptc/tool does. */
export interface AgentToolExtras {
  /**
   * `true`, or a function of the call's arguments (and its context), possibly async: a call that
   * needs approval pauses the run until a person approves or rejects it (docs/approvals.md).
   */
  readonly needsApproval?: NeedsApproval;
}

/** A tool of an agent: a `@ptc/tool` definition or `Tool`, another agent (`asTool`), or `"self"`. */
export type AgentToolDefinition =
  | (AnyToolDefinition & AgentToolExtras)
  | (NormalizedTool & AgentToolExtras)
  | AgentTool
  | "self";

/** Shapes the PTC-Lisp system prompt without replacing it. */
export interface SystemPromptParts {
  /** Text before the generated prompt. */
  readonly prefix?: string;
  /** Text after the generated prompt. */
  readonly suffix?: string;
  /** Replaces the language reference (a string, or a function of the turn's situation). */
  readonly languageSpec?: string | ((context: LanguageSpecContext) => string);
  /** Replaces the `<output_format>` block. */
  readonly outputFormat?: string;
}

export interface LanguageSpecContext {
  readonly turn: number;
  readonly memory: Readonly<Record<string, unknown>>;
  readonly messages: readonly unknown[];
}

/** A string replaces the whole system prompt; a function receives the generated one. */
export type SystemPromptOption = string | ((generated: string) => string) | SystemPromptParts;

export interface FormatOptions {
  /** Error messages shown to the model are cut to this many characters. Default 512. */
  readonly feedbackMaxChars?: number;
  /** Value previews (`user=> ...`, memory) are cut to this many characters. Default 250. */
  readonly previewMaxChars?: number;
  /** Characters kept of each println. Default 2000. */
  readonly maxPrintLength?: number;
  /** Put the data/tools block in the system prompt instead of the first user message. */
  readonly contextInSystem?: boolean;
  /** Shorter turn-budget lines (`;; 2 turns remaining — call (return value) soon`). */
  readonly minimalTurnInfo?: boolean;
  /** Items and characters shown per context value in text-mode prompts. */
  readonly resultLimit?: number;
  readonly resultMaxChars?: number;
  readonly feedbackLimit?: number;
}

export interface CompactionOptions {
  readonly strategy?: "trim";
  /** When to compact: after this many turns, and/or past this many estimated tokens. */
  readonly trigger?: { readonly turns?: number; readonly tokens?: number };
  /** Assistant/user pairs kept at the end. Default 3. */
  readonly keepRecentTurns?: number;
  /** Keep the first user message (the mission). Default true. */
  readonly keepInitialUser?: boolean;
  /** Counts a message's tokens; default: a quarter of its characters. */
  readonly tokenCounter?: (message: { readonly role: string; readonly content: string }) => number;
}

/** One step of a plan: a description, or an `[id, description]` pair. */
export type PlanItem = string | readonly [string, string];

export interface ProgressInput {
  readonly plan: readonly (readonly [string, string])[];
  readonly summaries: Readonly<Record<string, string>>;
  readonly toolCalls: readonly unknown[];
  readonly turn: number;
  readonly phase: "initial" | "continuation";
}

/** Renders the progress section; returns `[text, newState]`. */
export type ProgressFunction = (input: ProgressInput, state: unknown) => readonly [string, unknown];

export interface LlmRetryOptions {
  /** Attempts per model call, the first included. Default 1 (no retry). */
  readonly maxAttempts?: number;
  readonly backoff?: "exponential" | "linear" | "constant";
  /** Default 1000 ms. */
  readonly baseDelayMs?: number;
  /** Error kinds worth another attempt. Default `["rate_limit", "timeout", "server_error"]`. */
  readonly retryableErrors?: readonly string[];
  /**
   * The longest wait before a retry. Default 60,000 ms. The backoff stops growing there; a
   * provider that asks for longer (`Retry-After`) is not retried: its error ends the run at once.
   * `Infinity` waits however long a provider asks.
   */
  readonly maxDelayMs?: number;
}

export interface AgentOptions {
  /** The mission, a Mustache template over the run's context: `"Summarize {{topic}}"`. */
  readonly prompt: string;
  /** What the agent returns (and takes): `"(topic :string) -> {summary :string}"`. */
  readonly signature?: string;
  readonly tools?: Readonly<Record<string, AgentToolDefinition>>;
  /** `"ptc_lisp"` (default): the model writes programs. `"text"`: it answers in text. */
  readonly output?: AgentOutput;
  /**
   * How programs travel: `"content"` (default, fenced in the reply) or `"tool_call"` (the native
   * `lisp_eval` tool). With `output: "text"`, `"tool_call"` is combined mode.
   */
  readonly ptcTransport?: PtcTransport;
  /** The reference card of combined mode; only `"compact"` exists. */
  readonly ptcReference?: "compact";
  /** Work turns. Default 5. */
  readonly maxTurns?: number;
  /** Extra turns to fix an invalid answer once work turns are spent. Default 0. */
  readonly retryTurns?: number;
  /** Tool calls per program (PTC-Lisp) or per run (native calls in text modes). */
  readonly maxToolCalls?: number | null;
  /** Milliseconds one program may run. Default 5000. */
  readonly timeout?: number;
  /** Bytes the program's memory (its defs) may hold between turns. Default 1 MiB; null: no limit. */
  readonly memoryLimit?: number | null;
  /** Over the memory limit: `"strict"` (default) fails the run, `"rollback"` undoes the turn. */
  readonly memoryStrategy?: MemoryStrategy;
  /** How deep agents may nest through `asTool`. Default 3. */
  readonly maxDepth?: number;
  /** Turns shared by this agent and every agent it calls. Default 20. */
  readonly turnBudget?: number;
  /** Wall-clock milliseconds for the whole run (children included); null: none. */
  readonly missionTimeout?: number | null;
  /** `"explicit"`: the last turn must `(return v)` or `(fail v)`. Default `"implicit"`. */
  readonly completionMode?: CompletionMode;
  readonly systemPrompt?: SystemPromptOption;
  /** Cuts the system prompt to `maxChars` characters. */
  readonly promptLimit?: { readonly maxChars?: number };
  readonly name?: string | null;
  /** Required for `asTool` unless given there. */
  readonly description?: string | null;
  /** Descriptions of the signature's return fields, shown to the model. */
  readonly fieldDescriptions?: Readonly<Record<string, string>> | null;
  /** Descriptions of context keys, shown beside `data/` entries. */
  readonly contextDescriptions?: Readonly<Record<string, string>> | null;
  readonly formatOptions?: FormatOptions;
  /** Decimals kept of floats in program results. Default 2. */
  readonly floatPrecision?: number;
  /** Trims old turns from requests in long PTC-Lisp runs; `true` for the defaults. */
  readonly compaction?: boolean | CompactionOptions | null;
  /** Asks the model for a `thinking:` section before its program. */
  readonly thinking?: boolean;
  /** A checklist shown to the model; `(step-done "id" "summary")` ticks items off. */
  readonly plan?: readonly PlanItem[];
  /** Renders the progress section instead of the plan checklist. */
  readonly progress?: ProgressFunction | null;
  /** Enables the task journal (`(task "id" expr)`) and its prompt section. */
  readonly journaling?: boolean;
  /** Adds the `llm-query` tool: programs may ask the model a sub-question. */
  readonly llmQuery?: boolean;
  /** Builtin tool families: `"grep"` adds `grep` and `grep-n`. */
  readonly builtinTools?: readonly string[];
  /** The model, or a key of the run's `llmRegistry`. A run's `llm` wins. */
  readonly llm?: ModelFunction | string;
  /** The default of the run option `llmRetry`. */
  readonly llmRetry?: LlmRetryOptions;
  /** Deadline of one pmap/pcalls inside a program. Default 5000 ms. */
  readonly pmapTimeout?: number;
  /** Branches of pmap/pcalls at once. Default 8. */
  readonly pmapMaxConcurrency?: number;
  /** Milliseconds any tool call may take before it fails (a tool's own `timeoutMs` wins). */
  readonly toolTimeoutMs?: number;
  /** Further sandbox limits for programs (see `@ptc/lisp` `Limits`). */
  readonly limits?: Partial<Limits>;
  /**
   * Where programs run: on the host's thread (default, `null`), or isolated, e.g. in a worker
   * thread with `createWorkerIsolation()` from `@ptc/agent/node`. Agents this one calls as tools
   * use it too, unless they have their own.
   */
  readonly isolation?: ProgramIsolation | null;
}
