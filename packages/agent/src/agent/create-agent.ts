/**
 * `createAgent`: checks every option up front, in the reference's order (docs/differences.md names the reference), and resolves defaults.
 * A bad option throws `AgentError` naming the option, what was given and what is accepted, so a
 * misconfigured agent fails where it is defined, never halfway through a run.
 */

import type { Limits } from "@ptc/lisp";
import { LISP_EVAL_TOOL_NAME as LISP_EVAL_NAME } from "@ptc/protocol";
import { createTool, isTool, parseSignature, type Tool, ToolError } from "@ptc/tool";
import { type NeedsApproval, registerApprovalPolicy } from "../approvals/approval-policy.js";
import { AgentError } from "../errors.js";
import { isProgramIsolation } from "../isolation/program-isolation.js";
import { llmRetryProblem } from "../model/model-retry.js";
import { isAgentTool } from "../tools/agent-tool.js";
import { registerNestedTool } from "../tools/nested-tools.js";
import type { AgentOptions, CompactionOptions, PlanItem } from "./agent-options.js";
import type { Agent, ResolvedCompaction, ResolvedFormatOptions } from "./agent-types.js";
import { checkPlaceholders, checkTextModePlaceholders } from "./check-placeholders.js";
import { describe, isPlainObject } from "./describe.js";
import { AGENT_OPTION_KEYS, AGENT_TOOL_DEFINITION_KEYS, refuseUnknownKeys } from "./option-keys.js";
import { checkLimits, namedLimit } from "./program-limits.js";

const DEFAULT_FORMAT: ResolvedFormatOptions = {
  feedbackMaxChars: 512,
  previewMaxChars: 250,
  maxPrintLength: 2000,
  contextInSystem: false,
  minimalTurnInfo: false,
  resultLimit: 50,
  resultMaxChars: 500,
  feedbackLimit: 10,
};

const SELF_DESCRIPTION = "Recursively invoke this agent on a subset of the input";

function invalid(option: string, message: string, given?: unknown): AgentError {
  return new AgentError("PTC_AGENT_INVALID_OPTION", message, {
    details: given === undefined ? { option } : { option, given: describe(given) },
  });
}

function positiveInteger(options: AgentOptions, key: keyof AgentOptions, fallback: number): number {
  if (!Object.hasOwn(options, key) || options[key] === undefined) return fallback;
  const value = options[key];
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw invalid(key, `${key} must be a positive integer, got ${describe(value)}`, value);
  }
  return value;
}

/** A positive integer option, or undefined when it was not given. */
function givenPositiveInteger(options: AgentOptions, key: keyof AgentOptions): number | undefined {
  return options[key] === undefined ? undefined : positiveInteger(options, key, 0);
}

/** `formatOptions.maxPrintLength` is `limits.maxPrintLength` under another name: one value for both. */
function withPrintLength(
  resolved: ResolvedFormatOptions,
  options: AgentOptions,
  limits: Partial<Limits> | undefined,
): ResolvedFormatOptions {
  const given = options.formatOptions?.maxPrintLength;
  const maxPrintLength = namedLimit("formatOptions.maxPrintLength", given, limits, resolved.maxPrintLength);
  return maxPrintLength === resolved.maxPrintLength
    ? resolved
    : Object.freeze({ ...resolved, maxPrintLength });
}

function optionalPositiveInteger(options: AgentOptions, key: keyof AgentOptions): number | undefined {
  const value = options[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw invalid(key, `${key} must be a positive integer or null, got ${describe(value)}`, value);
  }
  return value;
}

function optionalString(options: AgentOptions, key: "name" | "description"): string | undefined {
  const value = options[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalid(key, `${key} must be a string, got ${describe(value)}`, value);
  if (value === "") throw invalid(key, `${key} must be a non-empty string or null, got ""`, value);
  return value;
}

function optionalRecord(
  options: AgentOptions,
  key: "fieldDescriptions" | "contextDescriptions",
): Readonly<Record<string, string>> | undefined {
  const value = options[key];
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) {
    throw invalid(key, `${key} must be an object of name → description, got ${describe(value)}`, value);
  }
  return Object.freeze({ ...(value as Record<string, string>) });
}

function boolean(options: AgentOptions, key: "thinking" | "journaling" | "llmQuery"): boolean {
  const value = options[key];
  if (value === undefined) return false;
  if (typeof value !== "boolean")
    throw invalid(key, `${key} must be a boolean, got ${describe(value)}`, value);
  return value;
}

function oneOf<T extends string>(
  options: AgentOptions,
  key: keyof AgentOptions,
  accepted: readonly T[],
  fallback: T,
): T {
  const value = options[key];
  if (value === undefined) return fallback;
  if (!accepted.includes(value as T)) {
    throw invalid(
      key,
      `${key} must be ${accepted.map((item) => JSON.stringify(item)).join(" or ")}, got ${describe(value)}`,
      value,
    );
  }
  return value as T;
}

export function createAgent(options: AgentOptions): Agent {
  if (!isPlainObject(options)) {
    throw invalid("options", `createAgent needs an options object, got ${describe(options)}`, options);
  }
  refuseUnknownKeys(options, AGENT_OPTION_KEYS, { code: "PTC_AGENT_INVALID_OPTION", entry: "createAgent" });
  if (!Object.hasOwn(options, "prompt") || options.prompt === undefined) {
    throw invalid(
      "prompt",
      'prompt is required: the agent\'s mission, e.g. { prompt: "Summarize {{topic}}" }',
    );
  }
  if (typeof options.prompt !== "string") {
    throw invalid("prompt", `prompt must be a string, got ${describe(options.prompt)}`, options.prompt);
  }
  const prompt = options.prompt;

  const output = oneOf(options, "output", ["ptc_lisp", "text"] as const, "ptc_lisp");

  // Tools are checked early (as the reference does: docs/differences.md), their signatures resolved below.
  const rawTools = options.tools;
  if (rawTools !== undefined && !isPlainObject(rawTools)) {
    throw invalid("tools", `tools must be an object of name → tool, got ${describe(rawTools)}`, rawTools);
  }

  const maxTurns = positiveInteger(options, "maxTurns", 5);
  if (Object.hasOwn(options, "maxTurns") && options.maxTurns === null) {
    throw invalid("maxTurns", "maxTurns must be a positive integer, got null", null);
  }
  // An explicit null is a mistake (as in the reference, docs/differences.md), not "use the default".
  const retryTurns = options.retryTurns === undefined ? 0 : options.retryTurns;
  if (typeof retryTurns !== "number" || !Number.isInteger(retryTurns) || retryTurns < 0) {
    throw invalid(
      "retryTurns",
      `retryTurns must be a non-negative integer, got ${describe(retryTurns)}`,
      retryTurns,
    );
  }
  if (Object.hasOwn(options, "timeout") && options.timeout === null) {
    throw invalid(
      "timeout",
      "timeout cannot be null: give the milliseconds one program may run (default 5000)",
      null,
    );
  }
  const limits = checkLimits(options.limits);
  const timeout = namedLimit("timeout", givenPositiveInteger(options, "timeout"), limits, 5000);
  const missionTimeout = optionalPositiveInteger(options, "missionTimeout");

  let parsedSignature: Agent["parsedSignature"];
  if (Object.hasOwn(options, "signature") && options.signature !== undefined) {
    if (typeof options.signature !== "string") {
      throw invalid(
        "signature",
        `signature must be a string, got ${describe(options.signature)}`,
        options.signature,
      );
    }
    const parsed = parseSignature(options.signature);
    if (!parsed.ok) throw invalid("signature", `invalid signature: ${parsed.error}`, options.signature);
    parsedSignature = parsed.signature;
  } else if (Object.hasOwn(options, "signature") && options.signature === null) {
    throw invalid("signature", "signature must be a string, got null", null);
  }

  if (options.llmRetry !== undefined && !isPlainObject(options.llmRetry)) {
    throw invalid(
      "llmRetry",
      `llmRetry must be an object, got ${describe(options.llmRetry)}`,
      options.llmRetry,
    );
  }
  const retryProblem = options.llmRetry === undefined ? undefined : llmRetryProblem(options.llmRetry);
  if (retryProblem !== undefined) throw invalid("llmRetry", retryProblem, options.llmRetry);
  if (options.promptLimit !== undefined && !isPlainObject(options.promptLimit)) {
    throw invalid(
      "promptLimit",
      `promptLimit must be an object such as { maxChars: 20000 }, got ${describe(options.promptLimit)}`,
      options.promptLimit,
    );
  }
  const maxChars = options.promptLimit?.maxChars;
  if (
    maxChars !== undefined &&
    (typeof maxChars !== "number" || !Number.isInteger(maxChars) || maxChars <= 0)
  ) {
    throw invalid(
      "promptLimit",
      `promptLimit.maxChars must be a positive integer, got ${describe(maxChars)}`,
      maxChars,
    );
  }
  const memoryLimit = Object.hasOwn(options, "memoryLimit")
    ? optionalPositiveInteger(options, "memoryLimit")
    : 1_048_576;
  const maxDepth = positiveInteger(options, "maxDepth", 3);
  const turnBudget = positiveInteger(options, "turnBudget", 20);

  if (parsedSignature !== undefined) checkPlaceholders(prompt, parsedSignature);

  const name = optionalString(options, "name");
  const description = optionalString(options, "description");
  const fieldDescriptions = optionalRecord(options, "fieldDescriptions");
  const contextDescriptions = optionalRecord(options, "contextDescriptions");
  const formatOptions = withPrintLength(resolveFormatOptions(options.formatOptions), options, limits);

  const builtinTools = options.builtinTools ?? [];
  if (!Array.isArray(builtinTools) || builtinTools.some((family) => typeof family !== "string")) {
    throw invalid(
      "builtinTools",
      `builtinTools must be an array of family names such as ["grep"], got ${describe(builtinTools)}`,
      builtinTools,
    );
  }

  if (output === "text") {
    if (options.compaction !== undefined && options.compaction !== null && options.compaction !== false) {
      throw invalid(
        "compaction",
        'compaction cannot be used with output: "text" (it trims PTC-Lisp turns only)',
        options.compaction,
      );
    }
    if (parsedSignature !== undefined) checkTextModePlaceholders(prompt, parsedSignature);
  }

  const ptcTransportGiven = Object.hasOwn(options, "ptcTransport") && options.ptcTransport !== undefined;
  const ptcTransport = oneOf(options, "ptcTransport", ["content", "tool_call"] as const, "content");
  if (output === "text" && ptcTransportGiven && ptcTransport === "content") {
    throw invalid(
      "ptcTransport",
      'ptcTransport: "content" is not supported with output: "text" — use ptcTransport: "tool_call" for combined mode, or omit ptcTransport for pure text mode',
      "content",
    );
  }
  if (options.ptcReference !== undefined && options.ptcReference !== "compact") {
    const given = options.ptcReference as unknown;
    throw invalid(
      "ptcReference",
      given === "full"
        ? 'ptcReference: "full" is not available yet; only "compact" is supported'
        : `ptcReference must be "compact", got ${describe(given)}`,
      given,
    );
  }

  const thinking = boolean(options, "thinking");
  const memoryStrategy = oneOf(options, "memoryStrategy", ["strict", "rollback"] as const, "strict");
  const maxToolCalls = namedLimit(
    "maxToolCalls",
    optionalPositiveInteger(options, "maxToolCalls"),
    limits,
    undefined,
  );
  const journaling = boolean(options, "journaling");
  const progress = options.progress ?? undefined;
  if (progress !== undefined && typeof progress !== "function") {
    throw invalid(
      "progress",
      `progress must be a function (input, state) => [text, newState], or null; got ${describe(progress)}`,
      progress,
    );
  }
  const completionMode = oneOf(options, "completionMode", ["implicit", "explicit"] as const, "implicit");
  const compaction = resolveCompaction(options.compaction);
  const plan = normalizePlan(options.plan);
  const llmQuery = boolean(options, "llmQuery");

  const floatPrecision = options.floatPrecision ?? 2;
  if (typeof floatPrecision !== "number" || !Number.isInteger(floatPrecision) || floatPrecision < 0) {
    throw invalid(
      "floatPrecision",
      `floatPrecision must be a non-negative integer, got ${describe(floatPrecision)}`,
      floatPrecision,
    );
  }
  const pmapTimeout = namedLimit("pmapTimeout", givenPositiveInteger(options, "pmapTimeout"), limits, 5000);
  const pmapMaxConcurrency = namedLimit(
    "pmapMaxConcurrency",
    givenPositiveInteger(options, "pmapMaxConcurrency"),
    limits,
    8,
  );
  const toolTimeoutMs = options.toolTimeoutMs;
  if (toolTimeoutMs !== undefined && (typeof toolTimeoutMs !== "number" || !(toolTimeoutMs > 0))) {
    throw invalid(
      "toolTimeoutMs",
      `toolTimeoutMs must be a positive number of milliseconds, got ${describe(toolTimeoutMs)}`,
      toolTimeoutMs,
    );
  }
  const llm = options.llm;
  if (llm !== undefined && typeof llm !== "function" && typeof llm !== "string") {
    throw invalid(
      "llm",
      `llm must be a model function or a key of the run's llmRegistry, got ${describe(llm)}`,
      llm,
    );
  }
  const systemPrompt = options.systemPrompt;
  if (
    systemPrompt !== undefined &&
    typeof systemPrompt !== "string" &&
    typeof systemPrompt !== "function" &&
    !isPlainObject(systemPrompt)
  ) {
    throw invalid(
      "systemPrompt",
      `systemPrompt must be a string, a function of the generated prompt, or { prefix, suffix, languageSpec, outputFormat }; got ${describe(systemPrompt)}`,
      systemPrompt,
    );
  }

  const isolation = options.isolation ?? undefined;
  if (isolation !== undefined && !isProgramIsolation(isolation)) {
    throw invalid(
      "isolation",
      `isolation must be a program isolation such as createWorkerIsolation() from @ptc/agent/node (an object with kind and open()), or null; got ${describe(isolation)}`,
      isolation,
    );
  }

  const tools = normalizeTools(rawTools ?? {}, parsedSignature !== undefined, options.signature, description);

  return Object.freeze({
    prompt,
    signature: options.signature,
    parsedSignature,
    tools,
    output,
    ptcTransport,
    ptcTransportGiven,
    ptcReference: "compact",
    maxTurns,
    retryTurns,
    maxToolCalls,
    timeout,
    memoryLimit,
    memoryStrategy,
    maxDepth,
    turnBudget,
    missionTimeout,
    completionMode,
    systemPrompt,
    promptLimit: options.promptLimit,
    name,
    description,
    fieldDescriptions,
    contextDescriptions,
    formatOptions,
    floatPrecision,
    compaction,
    thinking,
    plan,
    progress,
    journaling,
    llmQuery,
    builtinTools: Object.freeze([...builtinTools]),
    llm,
    llmRetry: options.llmRetry,
    pmapTimeout,
    pmapMaxConcurrency,
    toolTimeoutMs,
    limits,
    isolation,
  } satisfies Agent);
}

function normalizeTools(
  raw: Readonly<Record<string, unknown>>,
  hasSignature: boolean,
  signature: string | undefined,
  description: string | undefined,
): Readonly<Record<string, Tool>> {
  const tools: Record<string, Tool> = {};
  for (const [name, definition] of Object.entries(raw)) {
    if (name === LISP_EVAL_NAME) {
      throw invalid(
        "tools",
        `tool name "${LISP_EVAL_NAME}" is reserved for the program tool — choose a different name`,
        name,
      );
    }
    let tool: Tool;
    try {
      if (definition === "self") {
        if (!hasSignature) {
          throw invalid("tools", `agents with "self" tools must have a signature (tool "${name}")`, name);
        }
        tool = createTool(name, {
          execute: nestedPlaceholder,
          ...(signature === undefined ? {} : { signature }),
          description: description ?? SELF_DESCRIPTION,
        });
        registerNestedTool(tool, { kind: "self" });
      } else if (isAgentTool(definition)) {
        tool = createTool(name, {
          execute: nestedPlaceholder,
          ...(definition.signature === undefined ? {} : { signature: definition.signature }),
          description: definition.description,
          cache: definition.cache,
        });
        registerNestedTool(tool, { kind: "agent", agentTool: definition });
      } else if (
        isTool(definition) &&
        definition.name === name &&
        !Object.hasOwn(definition, "needsApproval")
      ) {
        tool = definition;
      } else {
        tool = createTool(name, withoutApproval(name, definition) as Parameters<typeof createTool>[1]);
      }
      registerApprovalPolicy(tool, approvalPolicy(name, definition));
    } catch (error) {
      if (error instanceof ToolError) {
        throw new AgentError("PTC_AGENT_INVALID_OPTION", `tools: ${error.message}`, {
          details: { option: "tools", tool: name, toolErrorCode: error.code },
          cause: error,
        });
      }
      throw error;
    }
    Object.defineProperty(tools, name, { value: tool, enumerable: true });
  }
  return Object.freeze(tools);
}

/**
 * The definition @ptc/tool reads: its keys checked against what an agent's tool takes (so a
 * misspelled `needsAproval` is named too), then `needsApproval`, which only the agent reads, left out.
 */
function withoutApproval(name: string, definition: unknown): unknown {
  if (!isPlainObject(definition) || isTool(definition)) return definition;
  refuseUnknownKeys(definition, AGENT_TOOL_DEFINITION_KEYS, {
    code: "PTC_AGENT_INVALID_OPTION",
    entry: `createAgent: tools: tool "${name}"`,
    valid: `a tool definition takes ${AGENT_TOOL_DEFINITION_KEYS.join(", ")}`,
  });
  const { needsApproval: _approval, ...rest } = definition;
  return rest;
}

/** A definition's `needsApproval`, checked: a boolean or a function. */
function approvalPolicy(name: string, definition: unknown): NeedsApproval {
  if (typeof definition !== "object" || definition === null || !("needsApproval" in definition)) return false;
  const policy = (definition as { needsApproval?: unknown }).needsApproval;
  if (policy === undefined) return false;
  if (typeof policy === "boolean" || typeof policy === "function") return policy as NeedsApproval;
  throw invalid(
    "tools",
    `tools: tool "${name}": needsApproval must be true, false or a function (args, context) => boolean, got ${describe(policy)}`,
    name,
  );
}

/** Agent tools are run by the loop (they need the run's model and budgets), never through this. */
function nestedPlaceholder(): never {
  throw new Error("an agent tool runs only inside an agent run");
}

function resolveFormatOptions(given: unknown): ResolvedFormatOptions {
  if (given === undefined) return DEFAULT_FORMAT;
  if (!isPlainObject(given)) {
    throw invalid("formatOptions", `formatOptions must be an object, got ${describe(given)}`, given);
  }
  const merged: Record<string, unknown> = { ...DEFAULT_FORMAT };
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_FORMAT)) {
      throw invalid(
        "formatOptions",
        `unknown formatOptions key "${key}"; known keys: ${Object.keys(DEFAULT_FORMAT).join(", ")}`,
        key,
      );
    }
    const expected = typeof (DEFAULT_FORMAT as unknown as Record<string, unknown>)[key];
    if (typeof value !== expected || (expected === "number" && !((value as number) > 0))) {
      throw invalid(
        "formatOptions",
        `formatOptions.${key} must be a ${expected === "number" ? "positive number" : expected}, got ${describe(value)}`,
        value,
      );
    }
    merged[key] = value;
  }
  return Object.freeze(merged) as unknown as ResolvedFormatOptions;
}

const COMPACTION_KEYS = ["strategy", "trigger", "keepRecentTurns", "keepInitialUser", "tokenCounter"];

function resolveCompaction(given: AgentOptions["compaction"]): ResolvedCompaction | false {
  if (given === undefined || given === null || given === false) return false;
  const defaults: ResolvedCompaction = {
    strategy: "trim",
    trigger: { turns: 8 },
    keepRecentTurns: 3,
    keepInitialUser: true,
    tokenCounter: undefined,
  };
  if (given === true) return defaults;
  if (!isPlainObject(given)) {
    throw invalid(
      "compaction",
      `compaction must be true, false or an options object, got ${describe(given)}`,
      given,
    );
  }
  const options = given as CompactionOptions;
  const unknown = Object.keys(options).filter((key) => !COMPACTION_KEYS.includes(key));
  if (unknown.length > 0) {
    throw invalid(
      "compaction",
      `unknown compaction option(s): ${unknown.join(", ")}; valid keys: ${COMPACTION_KEYS.join(", ")}`,
      unknown,
    );
  }
  if (options.strategy !== undefined && options.strategy !== "trim") {
    throw invalid(
      "compaction",
      `compaction.strategy must be "trim" (the only strategy so far), got ${describe(options.strategy)}`,
      options.strategy,
    );
  }
  let trigger = defaults.trigger;
  if (options.trigger !== undefined) {
    if (!isPlainObject(options.trigger)) {
      throw invalid(
        "compaction",
        `compaction.trigger must be an object such as { turns: 8 }, got ${describe(options.trigger)}`,
        options.trigger,
      );
    }
    const extra = Object.keys(options.trigger).filter((key) => key !== "turns" && key !== "tokens");
    if (extra.length > 0)
      throw invalid(
        "compaction",
        `unknown compaction.trigger key(s): ${extra.join(", ")}; valid: turns, tokens`,
        extra,
      );
    const { turns, tokens } = options.trigger;
    if (turns === undefined && tokens === undefined) {
      throw invalid(
        "compaction",
        "compaction.trigger must set at least one of turns or tokens",
        options.trigger,
      );
    }
    for (const [key, value] of [
      ["turns", turns],
      ["tokens", tokens],
    ] as const) {
      if (value !== undefined && (typeof value !== "number" || !Number.isInteger(value) || value <= 0)) {
        throw invalid(
          "compaction",
          `compaction.trigger.${key} must be a positive integer, got ${describe(value)}`,
          value,
        );
      }
    }
    trigger = { ...(turns === undefined ? {} : { turns }), ...(tokens === undefined ? {} : { tokens }) };
  }
  const keepRecentTurns = options.keepRecentTurns ?? defaults.keepRecentTurns;
  if (typeof keepRecentTurns !== "number" || !Number.isInteger(keepRecentTurns) || keepRecentTurns < 1) {
    throw invalid(
      "compaction",
      `compaction.keepRecentTurns must be an integer >= 1, got ${describe(keepRecentTurns)}`,
      keepRecentTurns,
    );
  }
  const keepInitialUser = options.keepInitialUser ?? true;
  if (typeof keepInitialUser !== "boolean") {
    throw invalid(
      "compaction",
      `compaction.keepInitialUser must be a boolean, got ${describe(keepInitialUser)}`,
      keepInitialUser,
    );
  }
  if (options.tokenCounter !== undefined && typeof options.tokenCounter !== "function") {
    throw invalid(
      "compaction",
      `compaction.tokenCounter must be a function of a message, got ${describe(options.tokenCounter)}`,
      options.tokenCounter,
    );
  }
  return { strategy: "trim", trigger, keepRecentTurns, keepInitialUser, tokenCounter: options.tokenCounter };
}

function normalizePlan(given: unknown): readonly (readonly [string, string])[] {
  if (given === undefined || given === null) return [];
  if (!Array.isArray(given))
    throw invalid("plan", `plan must be an array of steps, got ${describe(given)}`, given);
  const steps = (given as PlanItem[]).map((item, index): readonly [string, string] => {
    if (typeof item === "string") {
      if (item.trim() === "") throw invalid("plan", "plan description cannot be empty", item);
      return [String(index + 1), item];
    }
    if (
      Array.isArray(item) &&
      item.length === 2 &&
      typeof item[0] === "string" &&
      typeof item[1] === "string"
    ) {
      if (item[1].trim() === "")
        throw invalid("plan", `plan description cannot be empty for id "${item[0]}"`, item);
      return [item[0], item[1]];
    }
    throw invalid(
      "plan",
      `invalid plan item: ${describe(item)}; use a description or an [id, description] pair`,
      item,
    );
  });
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const [id] of steps) (seen.has(id) ? duplicates : seen).add(id);
  if (duplicates.size > 0) {
    throw invalid("plan", `duplicate plan IDs: ${JSON.stringify([...duplicates])}`, [...duplicates]);
  }
  return Object.freeze(steps.map((step) => Object.freeze(step)));
}
