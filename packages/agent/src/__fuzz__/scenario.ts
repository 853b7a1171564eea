/**
 * One fuzz case at the agent boundary: an agent in one of the modes, random tools, a scripted
 * model with random turns, an optional abort at a random point, entered through `run` or `chat`.
 * `runScenario` plays it and gathers everything the properties look at; it never throws for
 * anything the agent does: a rejection, a hang (past a watchdog) or an error that reached the
 * process is part of what it reports.
 *
 * Bounds: every tool call has a timeout (the run's `toolTimeoutMs`, or the tool's own), programs
 * have a short `timeout`, and the script has a few turns (a call past it is an error the run
 * reports). So a case takes milliseconds, and the watchdog's 30 s is a bound no healthy run nears,
 * however loaded the machine.
 */
import { getEventListeners } from "node:events";
import fc from "fast-check";
import {
  type AgentEvent,
  type AgentToolDefinition,
  type ChatReply,
  chat,
  createAgent,
  type ModelRequest,
  type RunResult,
  run,
} from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { heartbeat } from "./fuzz-settings.js";
import { buildResponse, type TurnRecipe, turnRecipe } from "./model-turns.js";
import { buildTool, createToolHarness, TOOL_NAMES, type ToolRecipe, toolRecipe } from "./tool-behaviour.js";

export type Mode = "ptc_lisp" | "ptc_lisp/tool_call" | "text" | "combined";
export const MODES: readonly Mode[] = ["ptc_lisp", "ptc_lisp/tool_call", "text", "combined"];

/** When the run's signal is aborted. */
export type AbortRecipe =
  | { readonly kind: "before-run" }
  /** Inside the listener of the n-th event (any type), synchronously. */
  | { readonly kind: "at-event"; readonly event: number }
  /** Inside the n-th model call, before it answers; the call then never answers. */
  | { readonly kind: "in-model-call"; readonly call: number }
  /** After a timer of `ms` milliseconds. */
  | { readonly kind: "after"; readonly ms: number };

export interface Scenario {
  readonly mode: Mode;
  readonly signature?: string;
  readonly entry: "run" | "chat" | "chat-twice";
  readonly tools: readonly ToolRecipe[];
  readonly turns: readonly TurnRecipe[];
  readonly maxTurns: number;
  /** The run's `toolTimeoutMs`: tools without their own timeout are bounded by it. */
  readonly toolTimeoutMs: number;
  /** Milliseconds a program may run. */
  readonly timeout: number;
  readonly missionTimeout?: number;
  readonly memoryStrategy?: "strict" | "rollback";
  readonly retry: boolean;
  readonly stream: boolean;
  readonly collectMessages: boolean;
  readonly abort?: AbortRecipe;
}

export interface ScenarioOptions {
  /**
   * Some tools hold the secret marker in their results, under the metadata policy (see
   * tool-behaviour.ts); the others never do. Native calls then have distinct ids, so that a
   * property can tell which call a tool message answers.
   */
  readonly secret?: boolean;
  /** Tools return plain JSON data. */
  readonly plainTools?: boolean;
  /**
   * Turns are mostly native calls with arguments tools accept, and every tool name is a tool:
   * where the tools are what a property is about (implied by `secret`).
   */
  readonly favourCalls?: boolean;
  /** Turns may break the `ModelResponse` contract. */
  readonly offContract?: boolean;
  /** Generate aborts (and, since an abort ends them, model calls that never answer). */
  readonly abort?: boolean;
  readonly modes?: readonly Mode[];
}

const SIGNATURES = ["() -> :int", "() -> {a :int}", "() -> :string", "() -> :any", "() -> [:int]"] as const;

export function scenario(options: ScenarioOptions = {}): fc.Arbitrary<Scenario> {
  const favourCalls = options.favourCalls === true || options.secret === true;
  const tool = (name: string): fc.Arbitrary<ToolRecipe> =>
    options.secret === true
      ? fc.boolean().chain((secret) => toolRecipe(name, { secret }))
      : toolRecipe(name, { plain: options.plainTools === true });
  const tools = fc
    // When calls are favoured every name is a tool, so that native calls mostly reach one.
    .subarray([...TOOL_NAMES], { minLength: favourCalls ? TOOL_NAMES.length : 0 })
    .chain((names) => fc.tuple(...names.map(tool)));
  const abort: fc.Arbitrary<AbortRecipe> = fc.oneof(
    fc.constant({ kind: "before-run" as const }),
    fc.record({ kind: fc.constant("at-event" as const), event: fc.nat(40) }),
    fc.record({ kind: fc.constant("in-model-call" as const), call: fc.nat(4) }),
    fc.record({ kind: fc.constant("after" as const), ms: fc.integer({ min: 0, max: 60 }) }),
  );
  return fc
    .constantFrom(...(options.modes ?? MODES))
    .chain((mode) =>
      fc.record(
        {
          mode: fc.constant(mode),
          signature: fc.constantFrom(...SIGNATURES),
          entry: fc.constantFrom("run" as const, "run" as const, "chat" as const, "chat-twice" as const),
          tools,
          turns: fc.array(turnRecipe({ offContract: options.offContract === true, favourCalls }), {
            minLength: 1,
            maxLength: 6,
          }),
          maxTurns: fc.integer({ min: 1, max: 6 }),
          toolTimeoutMs: fc.integer({ min: 1, max: 30 }),
          timeout: fc.integer({ min: 20, max: 300 }),
          // A deadline that falls at once, or somewhere in the run.
          missionTimeout: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 100, max: 1000 })),
          memoryStrategy: fc.constantFrom("strict" as const, "rollback" as const),
          retry: fc.boolean(),
          stream: fc.boolean(),
          collectMessages: fc.boolean(),
          abort,
        },
        {
          requiredKeys: [
            "mode",
            "entry",
            "tools",
            "turns",
            "maxTurns",
            "toolTimeoutMs",
            "timeout",
            "retry",
            "stream",
            "collectMessages",
            ...(options.abort === true ? (["abort"] as const) : []),
          ],
        },
      ),
    )
    .map((recipe) => (options.abort === true ? recipe : withoutKey(recipe, "abort")))
    .map((recipe) =>
      options.secret === true ? { ...recipe, turns: recipe.turns.map(distinctIds) } : recipe,
    );
}

/** Gives every native call of a turn its own id (`t<turn>c<index>`), so ids never collide. */
function distinctIds(turn: TurnRecipe, turnIndex: number): TurnRecipe {
  if (turn.kind !== "tool-calls") return turn;
  return { ...turn, calls: turn.calls.map((call, index) => ({ ...call, id: `t${turnIndex}c${index}` })) };
}

function withoutKey<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

/** Everything a property may look at after a case. */
export interface ScenarioOutcome {
  /** What `run` (or the last `chat`) gave, when it settled with a value. */
  readonly result?: RunResult;
  readonly replies: readonly ChatReply[];
  /** Set when `run` or `chat` rejected. */
  readonly rejected?: unknown;
  /** Set when the case did not settle before the watchdog. */
  readonly hung?: string;
  /** Errors that reached the process: unhandled rejections and uncaught exceptions. */
  readonly escaped: readonly unknown[];
  /** Every model request, as the scripted model recorded it. */
  readonly requests: readonly ModelRequest[];
  readonly events: readonly AgentEvent[];
  /** Events that arrived after `run` settled. */
  readonly lateEvents: readonly AgentEvent[];
  /** Tools that started after the abort. */
  readonly toolsAfterAbort: readonly string[];
  /** Model calls that started after the abort. */
  readonly modelCallsAfterAbort: number;
  /** Whether the abort happened before `run` settled. */
  readonly abortedBeforeEnd: boolean;
  /** The step as JSON right after `run` settled, and again after the tools' late work. */
  readonly stepJson?: { readonly atEnd: string; readonly afterLateWork: string };
  /** Abort listeners left on the run's signal once the case is over. */
  readonly abortListeners: number;
}

/**
 * Milliseconds a case may take before it counts as hung: far beyond any healthy case, however
 * loaded the machine (FUZZ_WATCHDOG_MS sets another). Once a case has hung, fast-check shrinks
 * it, running smaller variants that mostly hang too: those get a sixth of the time, or shrinking
 * one hang would take hours.
 */
const WATCHDOG_MS = Number(process.env.FUZZ_WATCHDOG_MS ?? 30_000);
let hungBefore = false;

/**
 * A model call that never answers. A fresh promise per call: a shared one would keep every
 * aborted run's continuations (and all they hold) alive for the rest of the process, until the
 * heap fills and every case crawls.
 */
const neverAnswers = (): Promise<never> => new Promise<never>(() => undefined);

/** Plays a scenario. Never rejects. */
export async function runScenario(scenario: Scenario): Promise<ScenarioOutcome> {
  heartbeat(scenario);
  const harness = createToolHarness();
  const controller = new AbortController();
  let settled = false;
  let abortedBeforeEnd = false;
  let modelCallsAfterAbort = 0;
  const abort = () => {
    if (controller.signal.aborted) return;
    harness.aborted = true;
    if (!settled) abortedBeforeEnd = true;
    controller.abort(new Error("fuzz: the host aborted the run"));
  };

  const tools: Record<string, AgentToolDefinition> = {};
  for (const recipe of scenario.tools) tools[recipe.name] = buildTool(recipe, harness);

  const model = createScriptedModel(
    scenario.turns.map((turn) => () => buildResponse(turn)),
    scenario.stream ? { streamChunkSize: 7 } : {},
  );
  let modelCall = 0;
  const llm = (request: ModelRequest) => {
    const call = modelCall++;
    if (controller.signal.aborted) modelCallsAfterAbort += 1;
    if (scenario.abort?.kind === "in-model-call" && scenario.abort.call === call) {
      abort();
      return neverAnswers();
    }
    // A call past the script throws UnexpectedModelCallError: a model error the run reports.
    return model.llm(request);
  };

  const [output, transport] = scenario.mode.split("/") as [string, string | undefined];
  const text = output === "text" || output === "combined";
  const agent = createAgent({
    prompt: "Answer the question with the tools.",
    output: text ? "text" : "ptc_lisp",
    ...(output === "combined" || transport === "tool_call" ? { ptcTransport: "tool_call" as const } : {}),
    ...(scenario.signature === undefined ? {} : { signature: scenario.signature }),
    tools,
    maxTurns: scenario.maxTurns,
    timeout: scenario.timeout,
    ...(scenario.missionTimeout === undefined ? {} : { missionTimeout: scenario.missionTimeout }),
    ...(scenario.memoryStrategy === undefined || text ? {} : { memoryStrategy: scenario.memoryStrategy }),
  });

  const events: AgentEvent[] = [];
  const lateEvents: AgentEvent[] = [];
  const onEvent = (event: AgentEvent) => {
    (settled ? lateEvents : events).push(event);
    if (scenario.abort?.kind === "at-event" && events.length === scenario.abort.event + 1) {
      abort();
    }
  };
  const runOptions = {
    llm,
    signal: controller.signal,
    onEvent,
    toolTimeoutMs: scenario.toolTimeoutMs,
    ...(scenario.retry ? { llmRetry: { maxAttempts: 2, backoff: "constant" as const, baseDelayMs: 1 } } : {}),
    ...(scenario.stream ? { onChunk: () => undefined } : {}),
  };

  const escaped: unknown[] = [];
  const onEscape = (error: unknown) => escaped.push(error);
  process.on("unhandledRejection", onEscape);
  process.on("uncaughtException", onEscape);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let abortTimer: ReturnType<typeof setTimeout> | undefined;
  const replies: ChatReply[] = [];
  let result: RunResult | undefined;
  let rejected: unknown;
  let hung: string | undefined;
  const watchdogMs = hungBefore ? WATCHDOG_MS / 6 : WATCHDOG_MS;
  try {
    if (scenario.abort?.kind === "before-run") abort();
    if (scenario.abort?.kind === "after") abortTimer = setTimeout(abort, scenario.abort.ms);
    const play = async () => {
      if (scenario.entry === "run") {
        result = await run(agent, { ...runOptions, collectMessages: scenario.collectMessages });
        return;
      }
      const first = await chat(agent, "What is the answer?", runOptions);
      replies.push(first);
      if (scenario.entry === "chat-twice") {
        // The state goes through JSON, as a host keeping it between processes would store it;
        // a state that is not JSON ends the case here, and the checks report it.
        const text = jsonOrError(first.state);
        if (text.startsWith("JSON.stringify threw")) return;
        const state = JSON.parse(text);
        replies.push(
          await chat(agent, "And now?", {
            ...runOptions,
            messages: first.messages,
            ...(first.ok ? { memory: first.memory } : {}),
            state,
          }),
        );
      }
    };
    const watchdog = new Promise<"hung">((resolve) => {
      timer = setTimeout(() => resolve("hung"), watchdogMs);
    });
    const outcome = await Promise.race([
      play().then(
        () => "settled" as const,
        (error: unknown) => {
          rejected = error ?? new Error(`rejected with ${String(error)}`);
          return "settled" as const;
        },
      ),
      watchdog,
    ]);
    if (outcome === "hung") {
      hung = `the case did not settle within ${watchdogMs} ms`;
      hungBefore = true;
    }
  } finally {
    settled = true;
    clearTimeout(timer);
  }

  // The step as the host got it, then again once every late tool promise has settled: late work
  // must change nothing the host holds.
  const atEnd = result === undefined ? undefined : jsonOrError(result.step);
  // Bounded too: late work that never ends is a hang of the harness, reported as one.
  let lateTimer: ReturnType<typeof setTimeout> | undefined;
  const lateDone = await Promise.race([
    Promise.all(harness.late).then(() => true),
    new Promise<false>((resolve) => {
      lateTimer = setTimeout(() => resolve(false), watchdogMs);
    }),
  ]);
  clearTimeout(lateTimer);
  if (!lateDone) hung ??= `the tools' late work did not end within ${watchdogMs} ms`;
  clearTimeout(abortTimer);
  // Unhandled rejections are reported after the microtasks of the turn that made them.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 0));
  process.off("unhandledRejection", onEscape);
  process.off("uncaughtException", onEscape);
  const afterLateWork = result === undefined ? undefined : jsonOrError(result.step);

  return {
    ...(result === undefined ? {} : { result }),
    replies,
    ...(rejected === undefined ? {} : { rejected }),
    ...(hung === undefined ? {} : { hung }),
    escaped,
    requests: model.calls,
    events,
    lateEvents,
    toolsAfterAbort: harness.startedAfterAbort,
    modelCallsAfterAbort,
    abortedBeforeEnd,
    ...(atEnd === undefined || afterLateWork === undefined ? {} : { stepJson: { atEnd, afterLateWork } }),
    abortListeners: abortListenerCount(controller.signal),
  };
}

function jsonOrError(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    return `JSON.stringify threw: ${String(error)}`;
  }
}

/** How many abort listeners the agent left on the host's signal. */
function abortListenerCount(signal: AbortSignal): number {
  // node:events reads the listeners of an EventTarget without changing them.
  return getEventListeners(signal, "abort").length;
}
