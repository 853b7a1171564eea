/**
 * Runs one program for a turn: a fresh @ptc/lisp session seeded with the run's memory, `*1 *2 *3`
 * and journal; the context (plus `data/fail` after a failed turn); the tools the program may call,
 * each going through the run's tool cache when it is `cache: true`; the run's signal and limits.
 * The run's state is not touched here: the caller decides what of the outcome to keep.
 */
import { createSession, type Limits, type RunResult, run as runProgram } from "@ptc/lisp";
import { canonicalCacheKey, type Tool } from "@ptc/tool";
import { newSpanId } from "../events/event-sink.js";
import type { ToolCallRecord } from "../step/step-types.js";
import { invokeTool } from "../tools/invoke-tool.js";
import { budgetIntrospection } from "./budget-introspection.js";
import type { LoopState, Run } from "./run-types.js";

/** The iteration limit of agent programs: room for tool results of 100k rows, still a stop for runaway loops. */
const AGENT_MAX_ITERATIONS = 100_000;

export interface ProgramOutcome {
  readonly result: RunResult;
  /** Memory after the program (unchanged when it failed). */
  readonly memory: Record<string, unknown>;
  readonly history: unknown[];
  readonly journal: Record<string, unknown> | null;
  readonly summaries: Record<string, string>;
  /** The program's tool calls, cache hits included. */
  readonly toolCalls: ToolCallRecord[];
}

export interface ProgramOptions {
  readonly turn: number;
  /** Tools the program may call. */
  readonly inventory: readonly Tool[];
  /** Which layer tool calls are reported as. */
  readonly layer: "ptc_lisp";
  readonly parentSpanId: string;
}

export function programLimits(run: Run): Partial<Limits> {
  const { agent } = run;
  return {
    timeoutMs: agent.timeout,
    parallelTimeoutMs: agent.pmapTimeout,
    parallelConcurrency: agent.pmapMaxConcurrency,
    maxPrintLength: agent.formatOptions.maxPrintLength,
    maxIterations: AGENT_MAX_ITERATIONS,
    ...(agent.maxToolCalls === undefined ? {} : { maxToolCalls: agent.maxToolCalls }),
    ...agent.limits,
  };
}

export async function executeProgram(
  run: Run,
  state: LoopState,
  source: string,
  options: ProgramOptions,
): Promise<ProgramOutcome> {
  const records: ToolCallRecord[] = [];
  const programSpan = newSpanId();
  const tools: Record<string, (args: Record<string, unknown>) => Promise<unknown>> = {};
  for (const tool of options.inventory) {
    tools[tool.name] = (args) => callFromProgram(run, state, tool, args, records, options, programSpan);
  }
  const session = createSession({
    bindings: state.memory,
    history: state.history,
    ...(state.journal === null ? {} : { journal: state.journal }),
  });
  const context = state.lastFail === null ? run.context : { ...run.context, fail: { ...state.lastFail } };
  let result: RunResult;
  try {
    result = await runProgram(source, {
      context,
      tools,
      session,
      budget: budgetIntrospection(run, state),
      limits: programLimits(run),
      ...(run.signal === undefined ? {} : { signal: run.signal }),
    });
  } catch (error) {
    // `run` throws only for invalid options (e.g. a bad `limits` entry): a host mistake, reported
    // to the model as a runtime error so that the run itself still ends cleanly.
    result = {
      ok: false,
      error: { reason: "runtime_error", message: `the program could not start: ${(error as Error).message}` },
      prints: [],
      toolCalls: [],
      durationMs: 0,
    };
  }
  const journal = run.agent.journaling || state.journal !== null ? session.journalEntries() : null;
  return {
    result,
    memory: result.ok ? { ...session.bindings() } : state.memory,
    history: [...session.history()],
    journal: journal !== null && Object.keys(journal).length === 0 && state.journal === null ? null : journal,
    summaries: result.ok ? { ...result.summaries } : {},
    toolCalls: records,
  };
}

async function callFromProgram(
  run: Run,
  state: LoopState,
  tool: Tool,
  args: Record<string, unknown>,
  records: ToolCallRecord[],
  options: ProgramOptions,
  programSpan: string,
): Promise<unknown> {
  const key = tool.cache ? canonicalCacheKey(tool.name, args) : undefined;
  if (key !== undefined) {
    const hit = state.toolCache.get(key);
    if (hit !== undefined) {
      records.push({
        name: tool.name,
        args,
        result: hit.result,
        durationMs: 0,
        cached: true,
        exposureLayer: "ptc_lisp",
        turn: options.turn,
      });
      const spanId = newSpanId();
      run.events.emit(spanId, programSpan, {
        type: "tool-call-start",
        toolName: tool.name,
        exposureLayer: "ptc_lisp",
        turn: options.turn,
      });
      run.events.emit(spanId, programSpan, {
        type: "tool-call-end",
        toolName: tool.name,
        exposureLayer: "ptc_lisp",
        cached: true,
        error: false,
        durationMs: 0,
        turn: options.turn,
      });
      return hit.result;
    }
  }
  const outcome = await invokeTool(run, state, tool, args, {
    layer: "ptc_lisp",
    turn: options.turn,
    parentSpanId: programSpan,
  });
  if (!outcome.ok) {
    records.push({
      name: tool.name,
      args,
      error: outcome.message,
      durationMs: outcome.durationMs,
      cached: false,
      exposureLayer: "ptc_lisp",
      turn: options.turn,
    });
    throw outcome.error instanceof Error ? outcome.error : new Error(outcome.message);
  }
  records.push({
    name: tool.name,
    args,
    result: outcome.value,
    durationMs: outcome.durationMs,
    cached: false,
    exposureLayer: "ptc_lisp",
    turn: options.turn,
  });
  if (key !== undefined) state.toolCache.set(key, outcome.value, tool.maxCachedBytes);
  return outcome.value;
}
