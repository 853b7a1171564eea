/**
 * The text modes on the shared turn loop: text-only (one call, the reply is the answer), JSON
 * (the reply must be JSON matching the signature; retried while turns remain), and the tool
 * variant (native tools, and in combined mode `lisp_eval`). Unlike the PTC-Lisp loop there are
 * no retry turns, budget callback or compaction: `maxTurns` bounds every variant.
 */
import { requestTools } from "@ptc/protocol";
import { answerSchema, jsonRetryMessage, textSystemPrompt } from "../prompt/text-prompts.js";
import type { RunResult, TurnType } from "../step/step-types.js";
import { answerOutcome } from "./answer-outcome.js";
import type { TurnMode } from "./drive-turns.js";
import { failure, finish } from "./finish.js";
import { readJsonAnswer } from "./json-answer.js";
import type { LoopState, Run } from "./run-types.js";
import { deliverChunk, textToolTurn } from "./text-tool-turn.js";

export type TextVariantName = "text" | "json" | "tools";

function maxTurnsCheck(run: Run, state: LoopState): RunResult | undefined {
  if (state.turn <= run.agent.maxTurns) return undefined;
  return finish(
    run,
    state,
    failure("max_turns_exceeded", `Exceeded max_turns limit of ${run.agent.maxTurns}`),
    {
      turns: state.turn - 1,
    },
  );
}

const advance = (state: LoopState) => {
  state.turn += 1;
  state.remainingTurns -= 1;
};

export function textMode(run: Run, variant: TextVariantName): TurnMode {
  const tools = [...run.tools.values()];
  const system = textSystemPrompt(run.agent, variant, tools);
  const normal = (): TurnType => "normal";
  if (variant === "text") {
    return {
      guarded: false,
      toolsCount: () => 0,
      // One call: the handler always ends the run.
      beforeTurn: () => undefined,
      turnType: normal,
      request: (state) => ({ system, turn: state.turn, output: "text" }),
      handle: async (response, _state, context) => {
        const content = response.content ?? "";
        if (!context.streamed) deliverChunk(run, content);
        return {
          kind: "stop",
          ending: { ok: true, value: content },
          record: {
            rawResponse: content,
            program: null,
            result: content,
            prints: [],
            toolCalls: [],
            success: true,
          },
          finish: { finalMessages: [{ role: "assistant", content }] },
        };
      },
      advance,
    };
  }
  if (variant === "json") {
    const signature = run.agent.parsedSignature;
    const schema = signature === undefined ? undefined : answerSchema(signature);
    return {
      guarded: false,
      toolsCount: () => 0,
      beforeTurn: (state) => maxTurnsCheck(run, state),
      turnType: normal,
      request: (state) => {
        if (schema !== undefined) state.schemaBytes = JSON.stringify(schema).length;
        return { system, turn: state.turn, output: "text", ...(schema === undefined ? {} : { schema }) };
      },
      handle: async (response, state) => {
        const content = response.content ?? "";
        return answerOutcome(run, state, content, readJsonAnswer(content, signature), (message) =>
          jsonRetryMessage(run.agent, message, content),
        );
      },
      advance,
    };
  }
  // The Map, not the array: native tools are offered sorted by name, as the reference offers them (docs/differences.md).
  const requestToolList = requestTools({
    output: "text",
    ptcTransport: run.mode.lispEval ? "tool_call" : undefined,
    tools: run.tools,
  });
  return {
    guarded: false,
    toolsCount: () => tools.length,
    beforeTurn: (state) => maxTurnsCheck(run, state),
    turnType: normal,
    request: (state) => ({
      system,
      turn: state.turn,
      output: "text",
      ...(requestToolList === undefined ? {} : { tools: [...requestToolList] }),
    }),
    handle: (response, state, context) => textToolTurn(run, response, state, context),
    advance,
  };
}
