/**
 * A run from start to end: check the run options, resolve the model, prepare the context (a Step
 * chains), check depth and the shared turn budget, then hand the run to its mode on the shared
 * turn loop. Child agents (agent tools, `"self"`, `llm-query`) run through here as well, inside
 * their parent's budgets.
 */
import { renderType, type SignatureType } from "@ptc/tool";
import { agentIdOf } from "../agent/agent-id.js";
import type { Agent } from "../agent/agent-types.js";
import { createAgent } from "../agent/create-agent.js";
import { describe, isPlainObject } from "../agent/describe.js";
import { approvalToken } from "../approvals/approval-token.js";
import type { TurnAt } from "../approvals/paused-turn.js";
import { errorMessage } from "../error-message.js";
import { AgentError } from "../errors.js";
import { EventSink, newSpanId } from "../events/event-sink.js";
import type { ProgramIsolation } from "../isolation/program-isolation.js";
import { runPrograms } from "../isolation/run-programs.js";
import { contentTurn } from "../loop/content-turn.js";
import { driveTurns, type TurnMode } from "../loop/drive-turns.js";
import { failure, finish } from "../loop/finish.js";
import { modeOf } from "../loop/modes.js";
import { ptcMode } from "../loop/ptc-mode.js";
import type { ChildCall, LoopState, Run } from "../loop/run-types.js";
import { singleShotMode } from "../loop/single-shot.js";
import { textMode } from "../loop/text-mode.js";
import { toolCallTurn } from "../loop/tool-call-turn.js";
import { DataProvenance } from "../minimization/data-provenance.js";
import { hiddenToolNames } from "../minimization/hidden-tools.js";
import { type AbortWatch, linkedSignal, watchAbort } from "../model/abort-watch.js";
import { resolveRetry } from "../model/model-retry.js";
import type { ModelFunction } from "../model/model-types.js";
import { expandTemplate } from "../parsing/template.js";
import { firstUserMessage } from "../prompt/first-message.js";
import { renderProgress } from "../prompt/progress.js";
import { jsonUserMessage, toolVariantUserMessage } from "../prompt/text-prompts.js";
import type { AgentFailReason } from "../step/fail-reasons.js";
import type { RunResult, Step } from "../step/step-types.js";
import { effectiveTools } from "../tools/builtin-tools.js";
import { RunToolCache } from "../tools/tool-cache.js";
import { transcriptWriterOf } from "../transcript/transcript-types.js";
import { checkRunOptions } from "./check-run-options.js";
import type { RunOptions } from "./run-options.js";

/** What a child run inherits from its parent. */
export interface Inherited {
  readonly depth: number;
  readonly remainingTurns: number;
  readonly deadline: number | undefined;
  readonly parentSpanId: string | null;
  readonly events: EventSink | undefined;
  /** The parent run's isolation, used unless the child agent has its own. */
  readonly isolation: ProgramIsolation | undefined;
}

const missingModel: ModelFunction = () => {
  throw new Error("no model");
};

export async function runAgent(agent: Agent, options: RunOptions, inherited?: Inherited): Promise<RunResult> {
  checkRunOptions(options);
  // The run's only listener on the caller's signal; every call of the run waits on this watch.
  const abort = watchAbort(options.signal);
  try {
    return await startRun(agent, options, inherited, abort);
  } finally {
    abort.dispose();
  }
}

/** What a resumed run starts from instead of its options: the paused run's context and clock. */
export interface RunSeed {
  readonly context: Readonly<Record<string, unknown>>;
  readonly descriptions: Readonly<Record<string, string>>;
  /** Milliseconds the run had already run before it paused. */
  readonly elapsedMs: number;
}

type ResolvedModel =
  | { readonly ok: true; readonly llm: ModelFunction }
  | { readonly ok: false; readonly reason: AgentFailReason; readonly message: string };

/** The fixed part of a run: agent, model, context, tools, limits, events. */
export function buildRun(
  agent: Agent,
  options: RunOptions,
  inherited: Inherited | undefined,
  abort: AbortWatch,
  seed?: RunSeed,
): {
  readonly run: Run;
  readonly resolved: ResolvedModel;
  readonly upstreamFail?: PreparedContext["upstreamFail"];
} {
  // A resumed run's clock goes on from where it paused: its duration and its mission deadline
  // count the time it ran, not the time it waited.
  const startedAt = Date.now() - (seed?.elapsedMs ?? 0);
  const agentId = agentIdOf(agent);
  const events =
    inherited?.events?.child(agent.name, agentId) ??
    new EventSink(
      options.onEvent,
      agent.name,
      agentId,
      options.eventPayloads === true,
      transcriptWriterOf(options.transcript),
    );
  const tools = effectiveTools(agent);
  const mode = modeOf(agent, tools.size);
  const prepared: PreparedContext =
    seed === undefined
      ? prepareContext(options.context)
      : { context: seed.context, descriptions: seed.descriptions };
  const context = prepared.context;
  checkNameConflicts(agent, context);
  const deadline =
    inherited?.deadline ??
    (agent.missionTimeout === undefined ? undefined : startedAt + agent.missionTimeout);
  const registry = options.llmRegistry ?? {};
  const resolved = resolveModel(agent, options, registry);
  const isolation =
    options.isolation === false ? undefined : (options.isolation ?? agent.isolation ?? inherited?.isolation);

  const run: Run = {
    agent,
    agentId,
    options,
    mode,
    llm: resolved.ok ? resolved.llm : missingModel,
    llmRegistry: registry,
    context,
    descriptions:
      seed === undefined
        ? { ...(agent.contextDescriptions ?? {}), ...prepared.descriptions }
        : prepared.descriptions,
    tools,
    depth: inherited?.depth ?? 0,
    deadline,
    signal: abort.signal,
    abort,
    events,
    spanId: newSpanId(),
    parentSpanId: inherited?.parentSpanId ?? null,
    startedAt,
    retry: resolveRetry(options.llmRetry ?? agent.llmRetry),
    toolTimeoutMs: options.toolTimeoutMs ?? agent.toolTimeoutMs,
    isolation,
    programs: runPrograms(isolation),
    expandedPrompt: expandTemplate(agent.prompt, context),
    pausable: inherited === undefined,
    runChild: (call) => runChild(run, call),
  };
  return prepared.upstreamFail === undefined
    ? { run, resolved }
    : { run, resolved, upstreamFail: prepared.upstreamFail };
}

/** Announces a run: its transcript line and its `run-start` event. */
export function announceRun(run: Run): void {
  run.events.record({ type: "run", agentName: run.agent.name, agentId: run.agentId, timestamp: Date.now() });
  run.events.emit(run.spanId, run.parentSpanId, {
    type: "run-start",
    depth: run.depth,
    mode: run.mode.event,
  });
}

/** The turn handling of a run's mode. */
export function turnModeOf(run: Run): TurnMode {
  switch (run.mode.name) {
    case "ptc_lisp":
      return ptcMode(run, (response, state, turn) => contentTurn(run, response, state, turn));
    case "ptc_lisp_tool_call":
      return ptcMode(run, (response, state, turn) => toolCallTurn(run, response, state, turn));
    case "ptc_lisp_single_shot":
      return singleShotMode(run);
    case "text":
      return textMode(run, "text");
    case "text_json":
      return textMode(run, "json");
    case "text_tools":
    case "combined":
      return textMode(run, "tools");
  }
}

/** Drives the turns, then closes what the run opened (its isolated worker, if any). */
export async function driveAndClose(
  run: Run,
  state: LoopState,
  turnMode: TurnMode,
  resumeAt?: TurnAt,
): Promise<RunResult> {
  try {
    return await driveTurns(run, state, turnMode, resumeAt);
  } finally {
    // No worker outlives its run.
    await run.programs.close();
  }
}

async function startRun(
  agent: Agent,
  options: RunOptions,
  inherited: Inherited | undefined,
  abort: AbortWatch,
): Promise<RunResult> {
  const { run, resolved, upstreamFail } = buildRun(agent, options, inherited, abort);
  const state = initialState(run, options, inherited);

  announceRun(run);
  if (!resolved.ok) return finish(run, state, failure(resolved.reason, resolved.message), { turns: 0 });
  if (upstreamFail !== undefined) {
    return finish(
      run,
      state,
      failure("chained_failure", `Upstream agent failed: ${upstreamFail.reason}`, {
        upstream: upstreamFail,
      }),
      { turns: 0 },
    );
  }
  if (run.depth >= agent.maxDepth) {
    return finish(
      run,
      state,
      failure("max_depth_exceeded", `Nesting depth limit exceeded: ${run.depth} >= ${agent.maxDepth}`),
      {
        turns: 0,
      },
    );
  }
  if (state.remainingTurns <= 0) {
    return finish(
      run,
      state,
      failure("turn_budget_exhausted", `Turn budget exhausted: ${agent.turnBudget} turns used`),
      {
        turns: 0,
      },
    );
  }

  return driveAndClose(run, state, turnModeOf(run));
}

/** A fresh run's loop state. */
export function initialState(run: Run, options: RunOptions, inherited: Inherited | undefined): LoopState {
  const { agent } = run;
  const memory: Record<string, unknown> = { ...(options.initialMemory ?? {}) };
  const state: LoopState = {
    turn: 1,
    messages: [],
    memory,
    history: [],
    journal: options.journal === undefined ? (agent.journaling ? {} : null) : { ...options.journal },
    summaries: {},
    workRemaining: agent.maxTurns,
    retryRemaining: agent.retryTurns,
    remainingTurns: inherited?.remainingTurns ?? agent.turnBudget,
    toolCache: new RunToolCache(options.toolCache, options.toolCacheLimitBytes),
    lastFail: null,
    tokens: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0, reported: false },
    llmRequests: 0,
    turns: [],
    toolCalls: [],
    prints: [],
    childSteps: [],
    nativeToolCalls: 0,
    syntheticIds: 0,
    firstSystemPrompt: undefined,
    progressState: undefined,
    compaction: undefined,
    fallbackUsed: false,
    lastSuccess: undefined,
    schemaBytes: undefined,
    provenance:
      run.mode.name === "combined"
        ? new DataProvenance(hiddenToolNames(run.tools.values(), agent))
        : undefined,
    resumed: undefined,
    approvalToken: approvalToken(),
    approvalCount: 0,
  };
  const history = run.mode.history ? (options.initialMessages ?? []) : [];
  state.messages = [...history, { role: "user", content: firstMessage(run, state) }];
  return state;
}

/** The first user message of the run's mode (a PTC-Lisp loop's also starts the progress state). */
function firstMessage(run: Run, state: LoopState): string {
  const { agent } = run;
  switch (run.mode.firstMessage) {
    case "mission":
      return run.expandedPrompt;
    case "json":
      return jsonUserMessage(agent, run.context);
    case "tools":
      return toolVariantUserMessage(agent, run.context, run.descriptions);
    case "ptc_lisp": {
      const progress = renderProgress(
        agent,
        { plan: agent.plan, summaries: {}, toolCalls: [], turn: 0, phase: "initial" },
        undefined,
      );
      state.progressState = progress.state;
      return firstUserMessage({
        agent,
        tools: [...run.tools.values()],
        context: run.context,
        memory: state.memory,
        descriptions: run.descriptions,
        progress: progress.text,
        contextInSystem: agent.formatOptions.contextInSystem,
      });
    }
  }
}

function resolveModel(
  agent: Agent,
  options: RunOptions,
  registry: Readonly<Record<string, unknown>>,
): ResolvedModel {
  const llm = options.llm ?? agent.llm;
  if (llm === undefined) {
    return {
      ok: false,
      reason: "llm_required",
      message: "llm option is required: pass { llm } to run (a model function or a key of llmRegistry)",
    };
  }
  if (!isPlainObject(registry))
    return {
      ok: false,
      reason: "invalid_llm_registry",
      message: "llmRegistry must be an object of name → model function",
    };
  for (const [key, value] of Object.entries(registry)) {
    if (typeof value !== "function") {
      return {
        ok: false,
        reason: "invalid_llm_registry",
        message: `llmRegistry values must be model functions. Invalid entry: ${key}`,
      };
    }
  }
  if (typeof llm === "function") return { ok: true, llm };
  const keys = Object.keys(registry);
  if (keys.length === 0) {
    return {
      ok: false,
      reason: "llm_error",
      message: `LLM call failed: the model "${llm}" is a registry key, but no llmRegistry was given; pass llmRegistry: { ${JSON.stringify(llm)}: model }`,
    };
  }
  const found = registry[llm];
  if (typeof found !== "function") {
    return {
      ok: false,
      reason: "llm_error",
      message: `LLM call failed: model "${llm}" not found in llmRegistry. Available: ${keys.map((key) => JSON.stringify(key)).join(", ")}`,
    };
  }
  return { ok: true, llm: found as ModelFunction };
}

interface PreparedContext {
  readonly context: Readonly<Record<string, unknown>>;
  readonly descriptions: Readonly<Record<string, string>>;
  readonly upstreamFail?: { readonly reason: string; readonly message: string };
}

function isStep(value: unknown): value is Step {
  return isPlainObject(value) && "return" in value && "fail" in value && "usage" in value && "turns" in value;
}

function prepareContext(context: RunOptions["context"]): PreparedContext {
  if (context === undefined || context === null) return { context: {}, descriptions: {} };
  if (isStep(context)) {
    if (context.fail !== null) return { context: {}, descriptions: {}, upstreamFail: context.fail };
    const value = context.return;
    if (!isPlainObject(value)) return { context: {}, descriptions: {} };
    return { context: value, descriptions: { ...(context.fieldDescriptions ?? {}) } };
  }
  if (!isPlainObject(context)) {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `context must be an object of data/ names (or a previous Step), got ${describe(context)}`,
      { details: { option: "context" } },
    );
  }
  return { context, descriptions: {} };
}

function checkNameConflicts(agent: Agent, context: Readonly<Record<string, unknown>>): void {
  for (const name of Object.keys(agent.tools)) {
    if (Object.hasOwn(context, name)) {
      throw new AgentError("PTC_AGENT_NAME_CONFLICT", `${name} is both a tool and data - rename one`, {
        details: { name },
      });
    }
  }
}

async function runChild(
  parent: Run,
  { nested, tool, args, state, spanId, stop }: ChildCall,
): Promise<
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }
> {
  let child: Agent;
  let llm: ModelFunction | string = parent.llm;
  let context: Readonly<Record<string, unknown>> = args;
  let unwrapValue = false;
  if (nested.kind === "self") {
    child = parent.agent;
  } else if (nested.kind === "agent") {
    child = nested.agentTool.agent;
    llm = child.llm ?? nested.agentTool.llm ?? parent.llm;
  } else {
    const query = llmQueryAgent(args);
    if (!query.ok) return query;
    child = query.agent;
    context = query.context;
    unwrapValue = query.wrapped;
    if (typeof args.llm === "string" || typeof args.llm === "function") llm = args.llm as string;
  }
  // The child stops with the run, and with the program that called it (a program that timed out
  // must not leave its child agents talking to the model).
  // A signal of the child's own, even with a single source: children of one pmap run at once, and
  // each attaches listeners to its signal (its run, its programs, its model calls).
  const joined = linkedSignal([parent.abort, stop]);
  const signal = joined?.signal;
  const result = await runAgent(
    child,
    {
      llm,
      llmRegistry: parent.llmRegistry,
      context,
      ...(signal === undefined ? {} : { signal }),
      ...(parent.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: parent.toolTimeoutMs }),
      ...(parent.options.llmRetry === undefined ? {} : { llmRetry: parent.options.llmRetry }),
    },
    {
      depth: parent.depth + 1,
      remainingTurns: state.remainingTurns,
      deadline: parent.deadline,
      parentSpanId: spanId,
      events: parent.events,
      isolation: parent.isolation,
    },
  ).finally(() => joined?.dispose());
  const { messages: _messages, ...pruned } = result.step;
  state.childSteps.push({ ...pruned, messages: null });
  if (result.ok) {
    const value = result.step.return;
    return { ok: true, value: unwrapValue ? ((value as { value?: unknown } | null)?.value ?? null) : value };
  }
  // Read as what a tool throws is read, and as long: a child's `(fail v)` text may be megabytes,
  // and the parent's model reads this message (the child's step keeps it whole).
  return {
    ok: false,
    message: errorMessage(result.step.fail?.message ?? `agent tool "${tool.name}" failed`),
  };
}

const LLM_QUERY_CONTROL_KEYS = new Set(["prompt", "signature", "llm", "response_template"]);

/**
 * A text agent's JSON answer must be an object, so a scalar answer (`:signature ":int"`) could
 * never be accepted (the reference's quirk, docs/differences.md): such a query asks for `{value <type>}` instead and the
 * program receives the value.
 */
function wrapsScalar(returns: SignatureType | undefined): returns is SignatureType {
  if (returns === undefined) return false;
  if (typeof returns === "string") return returns !== "string" && returns !== "map";
  return returns.kind === "optional";
}

function llmQueryAgent(
  args: Readonly<Record<string, unknown>>,
):
  | { ok: true; agent: Agent; context: Record<string, unknown>; wrapped: boolean }
  | { ok: false; message: string } {
  if (typeof args.prompt !== "string" || args.prompt === "")
    return { ok: false, message: "llm-query requires :prompt" };
  const signature = typeof args.signature === "string" ? args.signature : ":string";
  const context: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (!LLM_QUERY_CONTROL_KEYS.has(key)) context[key] = value;
  try {
    // The prompt's placeholders are filled here: they are template arguments, not signature parameters.
    const prompt = expandTemplate(args.prompt, context);
    const agent = createAgent({ prompt, signature, output: "text", maxTurns: 1 });
    const returns = agent.parsedSignature?.returns;
    if (!wrapsScalar(returns)) return { ok: true, agent, context: {}, wrapped: false };
    const wrapped = createAgent({
      prompt,
      signature: `{value ${renderType(returns)}}`,
      output: "text",
      maxTurns: 1,
    });
    return { ok: true, agent: wrapped, context: {}, wrapped: true };
  } catch (error) {
    return { ok: false, message: `llm-query: ${(error as Error).message}` };
  }
}
