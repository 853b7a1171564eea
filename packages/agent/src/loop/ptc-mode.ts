/**
 * The PTC-Lisp loop's budgets, shared by both transports: work turns then retry turns, the
 * last-expression fallback when both run out, the token limit and budget callback, and the
 * system prompt and request of each turn. The transports differ only in how a response is read.
 */
import { toolSchema } from "@ptc/protocol";
import { validateReturn } from "@ptc/tool";
import type { NormalizedResponse } from "../model/normalize-response.js";
import { contextBlock } from "../prompt/first-message.js";
import { ptcSystemPrompt } from "../prompt/system-prompt.js";
import type { RunResult, TurnType } from "../step/step-types.js";
import { compactMessages } from "./compaction.js";
import type { TurnContext, TurnMode, TurnOutcome } from "./drive-turns.js";
import { failure, finish } from "./finish.js";
import type { LoopState, Run } from "./run-types.js";

export type ResponseHandler = (
  response: NormalizedResponse,
  state: LoopState,
  context: TurnContext,
) => Promise<TurnOutcome>;

export function ptcMode(run: Run, handle: ResponseHandler): TurnMode {
  const { agent } = run;
  const toolNames = [...run.tools.keys()].sort();
  const contextInSystem = agent.formatOptions.contextInSystem
    ? contextBlock({
        agent,
        tools: [...run.tools.values()],
        context: run.context,
        memory: {},
        descriptions: run.descriptions,
      })
    : undefined;
  return {
    guarded: true,
    toolsCount: (type) => (type === "normal" ? Object.keys(agent.tools).length : 0),
    beforeTurn: (state) =>
      state.workRemaining <= 0 && state.retryRemaining <= 0 ? exhausted(run, state) : undefined,
    turnType: (state): TurnType =>
      state.workRemaining <= 0 ? "retry" : state.workRemaining <= 1 ? "must_return" : "normal",
    request: (state, type) => ({
      system: ptcSystemPrompt(agent, {
        turn: state.turn,
        memory: state.memory,
        messages: state.messages,
        journal: state.journal,
        ...(contextInSystem === undefined ? {} : { contextBlock: contextInSystem }),
      }),
      turn: state.turn,
      output: "ptc_lisp",
      toolNames: type === "normal" ? toolNames : [],
      ...(run.mode.lispEval ? { tools: [toolSchema("in_process_with_app_tools")] } : {}),
    }),
    messagesFor: (state) => compactMessages(run, state),
    afterResponse: (state, endTurn) => budgetCheck(run, state, endTurn),
    handle,
    advance: (state) => {
      state.turn += 1;
      state.remainingTurns -= 1;
      if (state.workRemaining > 0) state.workRemaining -= 1;
      else state.retryRemaining -= 1;
    },
  };
}

/** Work and retry turns are spent: answer with the last good program value if it fits, else fail. */
function exhausted(run: Run, state: LoopState): RunResult {
  const fallback = fallbackValue(run, state);
  if (fallback !== undefined) {
    state.fallbackUsed = true;
    return finish(run, state, { ok: true, value: fallback.value }, { memory: fallback.memory });
  }
  const ending =
    run.agent.retryTurns === 0
      ? failure("max_turns_exceeded", `Exceeded max_turns limit of ${run.agent.maxTurns}`)
      : failure("budget_exhausted", "Budget exhausted (work and retry turns)");
  return finish(run, state, ending, { turns: state.turn - 1 });
}

function fallbackValue(
  run: Run,
  state: LoopState,
): { value: unknown; memory: Readonly<Record<string, unknown>> } | undefined {
  const last = state.lastSuccess;
  if (last === undefined) return undefined;
  const signature = run.agent.parsedSignature;
  if (signature !== undefined && !validateReturn(signature, last.value).ok) return undefined;
  return last;
}

function budgetCheck(run: Run, state: LoopState, endTurn: () => void): RunResult | undefined {
  const { budget, tokenLimit } = run.options;
  const total = state.tokens.input + state.tokens.output;
  let stop = false;
  if (budget !== undefined) {
    stop =
      budget({
        totalTokens: total,
        inputTokens: state.tokens.input,
        outputTokens: state.tokens.output,
        llmRequests: state.llmRequests,
      }) === "stop";
  } else if (tokenLimit !== undefined) {
    stop = total > tokenLimit;
  }
  if (!stop) return undefined;
  endTurn();
  if (run.options.onBudgetExceeded === "return_partial") {
    const fallback = fallbackValue(run, state);
    if (fallback !== undefined) {
      state.fallbackUsed = true;
      return finish(run, state, { ok: true, value: fallback.value }, { memory: fallback.memory });
    }
  }
  return finish(
    run,
    state,
    failure("budget_callback_exceeded", "Budget exceeded (token_limit or callback returned :stop)"),
  );
}
