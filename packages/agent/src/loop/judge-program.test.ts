/**
 * The judge of a program's outcome: one order of rules for every transport, and the rules each
 * transport sets. Programs run on `@ptc/lisp` as a turn runs them; the run is built as a run is.
 */
import { run as runProgram } from "@ptc/lisp";
import { describe, expect, it } from "vitest";
import type { AgentOptions } from "../agent/agent-options.js";
import { createAgent } from "../agent/create-agent.js";
import { watchAbort } from "../model/abort-watch.js";
import { buildRun } from "../run/run-agent.js";
import type { TurnType } from "../step/step-types.js";
import { judgeProgram, type ProgramTransport, rulesOf } from "./judge-program.js";

function runOf(options: Partial<AgentOptions>) {
  return buildRun(createAgent({ prompt: "p", ...options }), {}, undefined, watchAbort(undefined)).run;
}

async function judge(
  source: string,
  options: Partial<AgentOptions> = {},
  transport: ProgramTransport = "content",
  type: TurnType = "normal",
  memory: Record<string, unknown> = {},
) {
  const run = runOf(options);
  return judgeProgram(run, await runProgram(source), memory, rulesOf(run, transport, type));
}

const big = { rows: "x".repeat(500) };

describe("judgeProgram", () => {
  it("an error is an error, with its reason and line", async () => {
    expect(await judge("(+ 1 :a)")).toMatchObject({ kind: "error", reason: "type_error" });
  });

  it("(fail v) is a fail before every other rule, even for a one-turn agent", async () => {
    const verdict = await judge('(fail {:why "no"})', { maxTurns: 1 });
    expect(verdict).toMatchObject({ kind: "fail", value: { why: "no" } });
    expect(verdict.kind === "fail" && verdict.text).toContain(":why");
  });

  it("(return v) answers when v fits the signature, and is an invalid return when it does not", async () => {
    expect(await judge("(return 42)", { signature: ":int" })).toMatchObject({
      kind: "answer",
      value: 42,
      returned: true,
    });
    const invalid = await judge('(return "x")', { signature: ":int" });
    expect(invalid).toMatchObject({ kind: "invalid_return", value: "x" });
    expect(invalid.kind === "invalid_return" && invalid.message).toContain("Return type validation failed.");
  });

  it("a one-turn agent's value answers; an explicit one's only in the tool-call transport", async () => {
    expect(await judge("7", { maxTurns: 1, tools: {} })).toMatchObject({
      kind: "answer",
      value: 7,
      returned: false,
    });
    const explicit = { maxTurns: 1, completionMode: "explicit" as const };
    expect(await judge("7", explicit, "content", "must_return")).toMatchObject({
      kind: "must_return_missing",
    });
    expect(await judge("7", explicit, "tool_call", "must_return")).toMatchObject({
      kind: "answer",
      value: 7,
    });
  });

  it("explicit completion is judged on a final turn only", async () => {
    const explicit = { maxTurns: 3, completionMode: "explicit" as const };
    expect(await judge("7", explicit, "content", "normal")).toMatchObject({ kind: "continue", value: 7 });
    expect(await judge("7", explicit, "content", "retry")).toMatchObject({ kind: "must_return_missing" });
  });

  it("memory over the limit ends the run or rolls the turn back, per strategy", async () => {
    expect(await judge("1", { memoryLimit: 100 }, "content", "normal", big)).toMatchObject({
      kind: "memory_limit",
      limit: 100,
      strategy: "strict",
    });
    expect(
      await judge("1", { memoryLimit: 100, memoryStrategy: "rollback" }, "combined", "normal", big),
    ).toMatchObject({ kind: "memory_limit", strategy: "rollback" });
  });

  it("combined mode and the single-shot path never judge a return against the signature", async () => {
    expect(
      await judge(
        '(return "x")',
        { signature: ":int", output: "text", ptcTransport: "tool_call" },
        "combined",
      ),
    ).toMatchObject({ kind: "continue", value: "x" });
    expect(await judge('(return "x")', { signature: ":int", maxTurns: 1 }, "single_shot")).toMatchObject({
      kind: "answer",
      value: "x",
    });
  });

  it("the single-shot path holds no memory to a limit", async () => {
    expect(await judge("1", { maxTurns: 1, memoryLimit: 10 }, "single_shot", "normal", big)).toMatchObject({
      kind: "answer",
    });
  });

  it("anything else continues, with the value as the host reads it and as the program made it", async () => {
    const verdict = await judge("{:a 1.123456}", { floatPrecision: 2 });
    expect(verdict).toMatchObject({ kind: "continue", value: { a: 1.12 } });
  });
});
