import { expectTypeOf } from "vitest";
import { createAgent, createJsonlTranscript, type RunResult, run, runOrThrow, type Step } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const agent = createAgent({ prompt: "p" });
const model = createScriptedModel([]);
const transcript = createJsonlTranscript();

// An agent takes the run options, or none.
expectTypeOf(run(agent)).toEqualTypeOf<Promise<RunResult>>();
expectTypeOf(run(agent, { llm: model.llm, transcript })).toEqualTypeOf<Promise<RunResult>>();
// The transcript's writer itself works as well.
void run(agent, { llm: model.llm, transcript: transcript.write });
// A prompt takes the agent's options and the run's together.
expectTypeOf(run("p", { llm: model.llm, maxTurns: 2 })).toEqualTypeOf<Promise<RunResult>>();
expectTypeOf(runOrThrow(agent, { llm: model.llm })).toEqualTypeOf<Promise<Step>>();

// A wrong option is reported as itself (one signature: no "Agent is not assignable to string").
// @ts-expect-error maxTurns is an option of the agent, not of a run of one
void run(agent, { llm: model.llm, maxTurns: 2 });
// @ts-expect-error trace takes true, false or "on_error"
void run(agent, { trace: "always" });
// @ts-expect-error a prompt needs its options (the model at least)
void run("p");
