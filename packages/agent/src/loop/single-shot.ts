/**
 * The single-shot path: a one-turn PTC-Lisp agent without tools asks once, runs the one program
 * it gets, and answers with its value. Everything the model needs, the mission included, is in
 * the system prompt; the user message is the mission itself.
 */
import { format, LispMap } from "@ptc/lisp";
import { renderToolNamespace } from "@ptc/protocol";
import { expandTemplate } from "../parsing/template.js";
import { renderExpectedOutput } from "../prompt/expected-output.js";
import { LLM_QUERY_NOTE } from "../prompt/first-message.js";
import { renderNamespaces } from "../prompt/namespaces.js";
import { outputFormatOf, singleShotSystemPrompt } from "../prompt/system-prompt.js";
import type { TurnMode } from "./drive-turns.js";
import { programLimits } from "./execute-program.js";
import { chosenFailure, failure, programFailure } from "./finish.js";
import { toHostValue } from "./host-value.js";
import { judgeProgram, rulesOf } from "./judge-program.js";
import { readContent } from "./read-content.js";
import type { Run } from "./run-types.js";

/** The run's failure message when the one reply holds no program. */
export const NO_PROGRAM_FAILURE = "No PTC-Lisp code found in LLM response";

export function singleShotMode(run: Run): TurnMode {
  const { agent } = run;
  const mission = `<mission>\n${expandTemplate(agent.prompt, run.context)}\n</mission>`;
  const system = singleShotSystemPrompt(agent, [
    renderNamespaces({
      tools: [],
      context: run.context,
      signature: agent.parsedSignature,
      descriptions: run.descriptions,
      memory: {},
    }) || renderToolNamespace([]),
    renderExpectedOutput(agent.parsedSignature, agent.fieldDescriptions),
    agent.llmQuery ? LLM_QUERY_NOTE : undefined,
    outputFormatOf(agent),
    mission,
  ]);
  return {
    guarded: false,
    toolsCount: () => 0,
    beforeTurn: () => undefined,
    turnType: () => "normal",
    request: () => ({ system, output: "ptc_lisp" }),
    advance: () => undefined,
    handle: async (response) => {
      // Read as the content transport reads: one program, or none (several blocks are none here).
      const read = readContent(response.content);
      const raw = read.raw;
      const finalMessages = [{ role: "assistant" as const, content: raw }];
      if (read.kind === "problem") {
        return {
          kind: "stop",
          ending: failure("no_code_found", NO_PROGRAM_FAILURE),
          record: {
            rawResponse: raw,
            program: null,
            result: null,
            prints: [],
            toolCalls: [],
            success: false,
          },
          finish: { finalMessages },
        };
      }
      const program = read.program;
      const result = await run.programs.run(program, {
        context: run.context,
        limits: programLimits(run),
        ...(run.signal === undefined ? {} : { signal: run.signal }),
      });
      const verdict = judgeProgram(run, result, {}, rulesOf(run, "single_shot", "normal"));
      const base = { rawResponse: raw, program, prints: result.prints, toolCalls: [] };
      const finish = { finalMessages, prints: result.prints };
      switch (verdict.kind) {
        case "answer":
          return {
            kind: "stop",
            ending: { ok: true, value: verdict.value },
            record: { ...base, result: verdict.value, success: true },
            finish,
          };
        case "fail": {
          const { reason, message } = failFields(verdict.failValue);
          return {
            kind: "stop",
            ending: chosenFailure(reason, message),
            record: { ...base, result: { error: { reason, message } }, success: false },
            finish,
          };
        }
        case "error":
          return {
            kind: "stop",
            ending: programFailure(verdict.reason, verdict.message),
            // The program's whole error (its line and column included), as the host gave it.
            record: { ...base, result: { error: result.ok ? null : result.error }, success: false },
            finish,
          };
        default:
          // The single-shot rules judge every value an answer: nothing else can come here.
          throw new Error(`the single-shot path cannot take a ${verdict.kind} verdict`);
      }
    },
  };
}

/** `(fail {:reason :not-found :message "..."})` carries its own reason and message. */
function failFields(value: unknown): { reason: string; message: string } {
  const host = toHostValue(value, 15);
  if (value instanceof LispMap || (typeof host === "object" && host !== null && !Array.isArray(host))) {
    const record = host as Record<string, unknown>;
    const reason = typeof record.reason === "string" ? record.reason : "failed";
    const message = typeof record.message === "string" ? record.message : format(value);
    return { reason, message };
  }
  return { reason: "failed", message: format(value) };
}
