/**
 * Runs every benchmark task in pure text mode and in combined mode with its scripted model, and
 * counts the context tokens of every request the model received.
 */
import { createAgent, run } from "@ptc/agent";
import { createScriptedModel } from "@ptc/agent/testing";
import { createRecordingModel } from "../run/recording-model.js";
import { requestTokens } from "../tokens/count-tokens.js";
import { BENCH_TASKS, type BenchTask } from "./bench-tasks.js";
import { type CombinedOverhead, combinedOverhead } from "./request-overhead.js";

export type BenchMode = "text" | "combined";

export interface ModeResult {
  readonly ok: boolean;
  readonly answer: string;
  readonly requests: number;
  /** Context tokens over all requests: system prompt, messages and tool schemas. */
  readonly tokens: number;
  /** Tool calls answered from the run's cache. */
  readonly cacheHits: number;
  /** Combined mode: what its first request carried that text mode's did not. */
  readonly overhead?: CombinedOverhead;
}

export interface TaskResult {
  readonly task: string;
  /** Rows of the largest native tool result. */
  readonly rows: number;
  readonly text: ModeResult;
  readonly combined: ModeResult;
}

export async function runBench(tasks: readonly BenchTask[] = BENCH_TASKS): Promise<TaskResult[]> {
  const results: TaskResult[] = [];
  for (const task of tasks) {
    const text = await runTask(task, "text");
    const combined = await runTask(task, "combined");
    results.push({ task: task.name, rows: text.rows, text: text.result, combined: combined.result });
  }
  return results;
}

async function runTask(task: BenchTask, mode: BenchMode): Promise<{ result: ModeResult; rows: number }> {
  const agent = createAgent({
    prompt: task.question,
    output: "text",
    ...(mode === "combined" ? { ptcTransport: "tool_call" as const } : {}),
    maxTurns: 6,
    systemPrompt: { prefix: task.context },
    tools: task.tools(),
  });
  const scripted = createScriptedModel(mode === "text" ? task.text() : task.combined());
  const recording = createRecordingModel(scripted.llm);
  const { ok, step } = await run(agent, { llm: recording.llm });
  if (ok) scripted.assertConsumed();
  const first = recording.exchanges[0];
  const rows = Math.max(
    0,
    ...step.toolCalls
      .filter((call) => call.exposureLayer === "native" && Array.isArray(call.result))
      .map((call) => (call.result as unknown[]).length),
  );
  return {
    rows,
    result: {
      ok,
      answer: ok ? String(step.return) : `${step.fail?.reason}: ${step.fail?.message}`,
      requests: recording.exchanges.length,
      tokens: recording.exchanges.reduce((sum, exchange) => sum + requestTokens(exchange.request), 0),
      cacheHits: step.toolCalls.filter((call) => call.cached === true).length,
      ...(mode === "combined" && first !== undefined ? { overhead: combinedOverhead(first.request) } : {}),
    },
  };
}
