import { describe, expect, test } from "vitest";
import type { ModelRequest, ModelResponseObject } from "../index.js";
import { AgentError, asTool, createAgent, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const fence = (code: string) => `\`\`\`clojure\n${code}\n\`\`\``;
const withTokens = (code: string, input: number, output: number): ModelResponseObject => ({
  content: fence(code),
  tokens: { input, output },
});
const evalCall = (program: string, id: string): ModelResponseObject => ({
  content: "",
  toolCalls: [{ id, name: "lisp_eval", args: { program } }],
});

function httpError(status: number): Error {
  return Object.assign(new Error(`HTTP ${status}`), { status });
}

describe("work and retry turns", () => {
  test("work turns then retry turns are spent, then the run fails with budget_exhausted", async () => {
    const model = createScriptedModel([
      fence("(/ 1 0)"),
      fence("(/ 1 0)"),
      fence("(/ 1 0)"),
      fence("(/ 1 0)"),
    ]);
    const agent = createAgent({ prompt: "p", maxTurns: 2, retryTurns: 2 });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({
      reason: "budget_exhausted",
      message: "Budget exhausted (work and retry turns)",
    });
    expect(result.step.turns?.map((turn) => turn.type)).toEqual(["normal", "must_return", "retry", "retry"]);
    expect(result.step.usage.turns).toBe(4);
    model.assertConsumed();
  });

  test("with no retry turns, exhausting the work turns fails with max_turns_exceeded", async () => {
    const model = createScriptedModel([fence("(/ 1 0)"), "no code"]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 2 }), { llm: model.llm });
    expect(result.step.fail).toEqual({
      reason: "max_turns_exceeded",
      message: "Exceeded max_turns limit of 2",
    });
    expect(result.step.usage.turns).toBe(2);
  });

  test("retry turns are spent by any continuing turn, not only validation failures", async () => {
    const model = createScriptedModel([fence("(def a 1)"), fence("(return a)")]);
    const agent = createAgent({ prompt: "p", maxTurns: 1, retryTurns: 1, tools: { t: () => 1 } });
    const result = await run(agent, { llm: model.llm });
    expect(result).toMatchObject({ ok: true, step: { return: 1 } });
    expect(result.step.turns?.map((turn) => turn.type)).toEqual(["must_return", "retry"]);
    expect(model.calls.map((request) => request.toolNames)).toEqual([[], []]);
  });

  test("must-return and retry turns offer no tool names; normal turns offer every effective tool", async () => {
    const model = createScriptedModel([fence("1"), fence("2"), fence("(return 3)")]);
    const agent = createAgent({ prompt: "p", maxTurns: 2, retryTurns: 1, tools: { b: () => 1, a: () => 2 } });
    await run(agent, { llm: model.llm });
    expect(model.calls.map((request) => request.toolNames)).toEqual([["a", "b"], [], []]);
  });
});

describe("last-expression fallback: the last good value answers when the turns run out", () => {
  test("answers with the last successful non-nil value and marks usage.fallbackUsed", async () => {
    const model = createScriptedModel([fence("(def a 5)\n(+ a 1)"), fence('(println "looked")')]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 2 }), { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe(6);
    expect(result.step.memory).toEqual({ a: 5 });
    expect(result.step.usage.fallbackUsed).toBe(true);
    // The reference's quirk: the turn counter (completed turns + 1).
    expect(result.step.usage.turns).toBe(3);
  });

  test("skips failed turns and takes the value key-normalized", async () => {
    const model = createScriptedModel([fence("{:total-count 2}"), fence("(/ 1 0)")]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 2 }), { llm: model.llm });
    expect(result).toMatchObject({ ok: true, step: { return: { total_count: 2 } } });
  });

  test("a fallback value that does not match the signature is not used", async () => {
    const model = createScriptedModel([fence('"text"'), fence('"more"')]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 2, signature: ":int" }), {
      llm: model.llm,
    });
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("max_turns_exceeded");
    expect(result.step.usage.fallbackUsed).toBeUndefined();
  });

  test("with retry turns and no usable value the failure is budget_exhausted", async () => {
    const model = createScriptedModel([fence('(println "a")'), fence('(println "b")')]);
    const result = await run(
      createAgent({ prompt: "p", maxTurns: 1, retryTurns: 1, tools: { t: () => 1 } }),
      {
        llm: model.llm,
      },
    );
    expect(result.step.fail?.reason).toBe("budget_exhausted");
  });

  test("works in the tool_call transport too", async () => {
    const model = createScriptedModel([evalCall("(* 6 7)", "c1"), evalCall('(println "x")', "c2")]);
    const agent = createAgent({ prompt: "p", maxTurns: 2, ptcTransport: "tool_call" });
    const result = await run(agent, { llm: model.llm });
    expect(result).toMatchObject({ ok: true, step: { return: 42, usage: { fallbackUsed: true } } });
  });
});

describe("token limit and budget callback", () => {
  test("tokenLimit stops the run before the response that crossed it is executed", async () => {
    let executed = 0;
    const model = createScriptedModel([withTokens("(tool/work {})", 8, 4)]);
    const agent = createAgent({ prompt: "p", maxTurns: 3, tools: { work: () => ++executed } });
    const result = await run(agent, { llm: model.llm, tokenLimit: 10 });
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({
      reason: "budget_callback_exceeded",
      message: "Budget exceeded (token_limit or callback returned :stop)",
    });
    expect(executed).toBe(0);
    expect(result.step.usage).toMatchObject({
      llmRequests: 1,
      inputTokens: 8,
      outputTokens: 4,
      totalTokens: 12,
    });
  });

  test("a total at the limit does not stop the run", async () => {
    const model = createScriptedModel([withTokens("(return 1)", 6, 4)]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 3 }), { llm: model.llm, tokenLimit: 10 });
    expect(result.ok).toBe(true);
  });

  test("onBudgetExceeded return_partial answers with the last good value", async () => {
    const model = createScriptedModel([withTokens("(+ 1 2)", 4, 4), withTokens("(return 99)", 4, 4)]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 3 }), {
      llm: model.llm,
      tokenLimit: 10,
      onBudgetExceeded: "return_partial",
    });
    expect(result).toMatchObject({ ok: true, step: { return: 3, usage: { fallbackUsed: true } } });
  });

  test("return_partial without any good value still fails", async () => {
    const model = createScriptedModel([withTokens("(return 1)", 20, 1)]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 3 }), {
      llm: model.llm,
      tokenLimit: 10,
      onBudgetExceeded: "return_partial",
    });
    expect(result.step.fail?.reason).toBe("budget_callback_exceeded");
  });

  test("the budget callback sees the usage after each response and wins over tokenLimit", async () => {
    const seen: unknown[] = [];
    const model = createScriptedModel([withTokens("(def a 1)", 100, 10), withTokens("(return a)", 50, 5)]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 3 }), {
      llm: model.llm,
      tokenLimit: 1,
      budget: (usage) => {
        seen.push(usage);
        return "continue";
      },
    });
    expect(result).toMatchObject({ ok: true, step: { return: 1 } });
    expect(seen).toEqual([
      { totalTokens: 110, inputTokens: 100, outputTokens: 10, llmRequests: 1 },
      { totalTokens: 165, inputTokens: 150, outputTokens: 15, llmRequests: 2 },
    ]);
  });

  test("the budget callback returning stop ends the run with budget_callback_exceeded", async () => {
    const model = createScriptedModel([fence("(def a 1)"), fence("(return a)")]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 3 }), {
      llm: model.llm,
      budget: (usage) => (usage.llmRequests >= 2 ? "stop" : "continue"),
    });
    expect(result.step.fail?.reason).toBe("budget_callback_exceeded");
    expect(result.step.usage.llmRequests).toBe(2);
  });

  test("the budget applies in the tool_call transport", async () => {
    const model = createScriptedModel([{ ...evalCall("(return 1)", "c1"), tokens: { input: 50 } }]);
    const agent = createAgent({ prompt: "p", ptcTransport: "tool_call" });
    const result = await run(agent, { llm: model.llm, tokenLimit: 10 });
    expect(result.step.fail?.reason).toBe("budget_callback_exceeded");
  });
});

describe("turn budget, mission timeout, depth, tool calls", () => {
  test("turnBudget ends the run with turn_budget_exhausted once its turns are used", async () => {
    const model = createScriptedModel([fence("1"), fence("2")]);
    const agent = createAgent({ prompt: "p", maxTurns: 5, turnBudget: 2 });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({ reason: "turn_budget_exhausted", message: "Turn budget exhausted" });
    expect(result.step.usage.turns).toBe(2);
  });

  test("missionTimeout ends a run whose model never answers with mission_timeout", async () => {
    const never = () => new Promise<string>(() => undefined);
    const agent = createAgent({ prompt: "p", maxTurns: 3, missionTimeout: 30 });
    const result = await run(agent, { llm: never });
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({ reason: "mission_timeout", message: "Mission timeout exceeded" });
    expect(result.step.usage.turns).toBe(0);
  });

  test("missionTimeout applies to the tool_call transport", async () => {
    const never = () => new Promise<string>(() => undefined);
    const agent = createAgent({ prompt: "p", ptcTransport: "tool_call", missionTimeout: 30 });
    const result = await run(agent, { llm: never });
    expect(result.step.fail?.reason).toBe("mission_timeout");
  });

  test("a child agent nested at its maxDepth fails with max_depth_exceeded, surfaced as a tool error", async () => {
    const child = createAgent({
      prompt: "Double {{x}}",
      signature: "(x :int) -> :int",
      maxDepth: 1,
      description: "d",
    });
    const model = createScriptedModel([fence("(tool/double {:x 2})"), fence("(return data/fail)")]);
    const parent = createAgent({ prompt: "p", maxTurns: 3, tools: { double: asTool(child) } });
    const result = await run(parent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(result.step.return).toMatchObject({
      message: expect.stringContaining("Nesting depth limit exceeded: 1 >= 1"),
    });
    expect(result.step.childSteps[0]?.fail).toEqual({
      reason: "max_depth_exceeded",
      message: "Nesting depth limit exceeded: 1 >= 1",
    });
    model.assertConsumed();
  });

  test("maxToolCalls limits tool calls per program with tool_call_limit_exceeded", async () => {
    let executed = 0;
    const model = createScriptedModel([
      fence("(tool/t {}) (tool/t {}) (tool/t {})"),
      fence("(return {:fail data/fail})"),
    ]);
    const agent = createAgent({ prompt: "p", maxTurns: 3, maxToolCalls: 2, tools: { t: () => ++executed } });
    const result = await run(agent, { llm: model.llm });
    expect(executed).toBe(2);
    expect(result.step.return).toMatchObject({ fail: { reason: "tool_call_limit_exceeded" } });
    expect(model.calls[0]?.messages[0]?.content).toContain(
      "Constraint: maximum 2 tool calls per turn. Plan efficiently.",
    );
    expect(model.calls[1]?.messages.at(-1)?.content).toContain("tool call limit of 2 reached");
  });

  test("maxToolCalls counts per program, not per run, and never counts lisp_eval", async () => {
    let executed = 0;
    const model = createScriptedModel([
      evalCall("(tool/t {}) (tool/t {})", "c1"),
      evalCall("(tool/t {}) (tool/t {})", "c2"),
      evalCall("(return 1)", "c3"),
    ]);
    const agent = createAgent({
      prompt: "p",
      maxTurns: 4,
      maxToolCalls: 2,
      ptcTransport: "tool_call",
      tools: { t: () => ++executed },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(executed).toBe(4);
  });
});

describe("llmRetry: which model failures are retried, and how often", () => {
  test("retries retryable failures without spending turns", async () => {
    const model = createScriptedModel([
      httpError(503),
      httpError(429),
      fence("(def a 1)"),
      fence("(return a)"),
    ]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 2 }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 3, baseDelayMs: 1 },
    });
    expect(result).toMatchObject({ ok: true, step: { return: 1, usage: { turns: 2, llmRequests: 2 } } });
    expect(model.calls).toHaveLength(4);
    expect(model.calls.map((request) => request.turn)).toEqual([1, 1, 1, 2]);
  });

  test("a code of timeout is retryable", async () => {
    const timeout = Object.assign(new Error("slow"), { code: "timeout" });
    const model = createScriptedModel([timeout, fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    expect(result.ok).toBe(true);
  });

  test("a client error is not retried by default and ends the run with llm_error", async () => {
    const model = createScriptedModel([httpError(400), fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 3, baseDelayMs: 1 },
    });
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({ reason: "llm_error", message: "LLM call failed: HTTP 400" });
    expect(model.calls).toHaveLength(1);
    expect(result.step.turns).toEqual([]);
  });

  test("an unclassified error is not retried", async () => {
    const model = createScriptedModel([new Error("boom"), fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 3, baseDelayMs: 1 },
    });
    expect(result.step.fail?.message).toBe("LLM call failed: boom");
    expect(model.calls).toHaveLength(1);
  });

  test("retryableErrors chooses the kinds that are retried", async () => {
    const model = createScriptedModel([httpError(404), fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 2, baseDelayMs: 1, retryableErrors: ["client_error"] },
    });
    expect(result.ok).toBe(true);
  });

  test("attempts stop at maxAttempts", async () => {
    const model = createScriptedModel([httpError(500), httpError(500), fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    expect(result.step.fail).toEqual({ reason: "llm_error", message: "LLM call failed: HTTP 500" });
    expect(model.remaining).toBe(1);
  });

  test("without llmRetry a failure is not retried", async () => {
    const model = createScriptedModel([httpError(503), fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), { llm: model.llm });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(model.calls).toHaveLength(1);
  });

  test("the agent's llmRetry is the default of the run option", async () => {
    const model = createScriptedModel([httpError(503), fence("(return 1)")]);
    const agent = createAgent({ prompt: "p", llmRetry: { maxAttempts: 2, baseDelayMs: 1 } });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
  });
});

describe("continuationGuard", () => {
  test("is called after each continuing turn with the state before and after", async () => {
    const calls: [number, number, number, unknown][] = [];
    const model = createScriptedModel([fence("(def a 1)"), fence("(def b 2)"), fence("(return 3)")]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 5 }), {
      llm: model.llm,
      continuationGuard: (turn, before, after) => {
        calls.push([turn, before.turn, after.turn, after.memory]);
        return "continue";
      },
    });
    expect(result).toMatchObject({ ok: true, step: { return: 3 } });
    expect(calls).toEqual([
      [1, 1, 2, { a: 1 }],
      [2, 2, 3, { a: 1, b: 2 }],
    ]);
  });

  test("a stop with ok ends the run with its return value", async () => {
    const model = createScriptedModel([fence("(def a 1)")]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 5 }), {
      llm: model.llm,
      continuationGuard: () => ({ stop: { ok: true, return: "enough" } }),
    });
    expect(result).toMatchObject({ ok: true, step: { return: "enough", usage: { turns: 1 } } });
  });

  test("a stop with a failure ends the run with that failure", async () => {
    const model = createScriptedModel([evalCall("(def a 1)", "c1")]);
    const agent = createAgent({ prompt: "p", maxTurns: 5, ptcTransport: "tool_call" });
    const result = await run(agent, {
      llm: model.llm,
      continuationGuard: () => ({
        stop: { ok: false, fail: { reason: "guarded", message: "stopped here" } },
      }),
    });
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({ reason: "guarded", message: "stopped here" });
  });

  test("an invalid return throws PTC_AGENT_CALLBACK_ERROR", async () => {
    const model = createScriptedModel([fence("(def a 1)")]);
    const promise = run(createAgent({ prompt: "p", maxTurns: 5 }), {
      llm: model.llm,
      continuationGuard: () => "halt" as unknown as "continue",
    });
    await expect(promise).rejects.toBeInstanceOf(AgentError);
    await expect(promise).rejects.toMatchObject({
      code: "PTC_AGENT_CALLBACK_ERROR",
      message: expect.stringContaining('continuationGuard returned invalid value: "halt"'),
    });
  });
});

describe("compaction of the messages sent", () => {
  test("trims what is sent once past the trigger, never step.messages", async () => {
    const model = createScriptedModel([fence("1"), fence("2"), fence("3"), fence("(return 4)")]);
    const agent = createAgent({
      prompt: "p",
      maxTurns: 6,
      compaction: { trigger: { turns: 2 }, keepRecentTurns: 1 },
    });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    expect(result.ok).toBe(true);
    // The recent slice [assistant, user] must start on a user message, so one more is dropped.
    expect(model.calls.map((request) => request.messages.length)).toEqual([1, 3, 2, 2]);
    const third = model.calls[2]?.messages ?? [];
    expect(third[0]).toEqual(model.calls[0]?.messages[0]);
    expect(third[1]?.role).toBe("user");
    expect(third[1]?.content).toContain("Turn 3 of 6");
    // system + first user + 3 assistant/user pairs + the final assistant
    expect(result.step.messages).toHaveLength(9);
    expect(result.step.usage.compaction).toMatchObject({ count: 2 });
  });

  test("in the tool_call transport keeps the latest call with its result, never an orphaned tool message", async () => {
    const model = createScriptedModel([
      evalCall("(def a 1)", "c1"),
      evalCall("(def b 2)", "c2"),
      evalCall("(return (+ a b))", "c3"),
    ]);
    const agent = createAgent({
      prompt: "p",
      maxTurns: 6,
      ptcTransport: "tool_call",
      compaction: { trigger: { turns: 2 }, keepRecentTurns: 1 },
    });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    expect(result).toMatchObject({ ok: true, step: { return: 3 } });
    const third = model.calls[2]?.messages ?? [];
    expect(third.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(third[1]?.toolCalls?.[0]?.id).toBe("c2");
    expect(third[2]?.toolCallId).toBe("c2");
    expect(result.step.messages).toHaveLength(8);
  });

  test("does nothing before the trigger", async () => {
    const model = createScriptedModel([fence("1"), fence("(return 2)")]);
    const agent = createAgent({ prompt: "p", maxTurns: 6, compaction: true });
    const result = await run(agent, { llm: model.llm });
    expect(model.calls[1]?.messages).toHaveLength(3);
    expect(result.step.usage.compaction).toBeUndefined();
  });
});

describe("fail reasons of the agent layer", () => {
  test("llm_required when neither the run nor the agent has a model", async () => {
    const result = await run(createAgent({ prompt: "p" }));
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("llm_required");
    expect(result.step.fail?.message).toContain("llm option is required");
  });

  test("invalid_llm_registry when a registry value is not a function", async () => {
    const result = await run(createAgent({ prompt: "p" }), {
      llm: "fast",
      llmRegistry: { fast: 42 } as unknown as Record<string, () => string>,
    });
    expect(result.step.fail).toEqual({
      reason: "invalid_llm_registry",
      message: "llmRegistry values must be model functions. Invalid entry: fast",
    });
  });

  test("invalid_llm_registry when the registry is not an object", async () => {
    const model = createScriptedModel([]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRegistry: [] as unknown as Record<string, () => string>,
    });
    expect(result.step.fail?.reason).toBe("invalid_llm_registry");
  });

  test("a registry key picks the model from llmRegistry", async () => {
    const model = createScriptedModel([fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p", llm: "fast" }), { llmRegistry: { fast: model.llm } });
    expect(result).toMatchObject({ ok: true, step: { return: 1 } });
  });

  test("llm_error for an unknown registry key names the keys available", async () => {
    const model = createScriptedModel([]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: "sonnet",
      llmRegistry: { haiku: model.llm, opus: model.llm },
    });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message).toContain('"sonnet" not found');
    expect(result.step.fail?.message).toContain('Available: "haiku", "opus"');
  });

  test("llm_error for a string model without a registry names llmRegistry", async () => {
    const result = await run(createAgent({ prompt: "p" }), { llm: "sonnet" });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message).toContain("llmRegistry");
    expect(result.step.fail?.message).toContain("sonnet");
  });

  test("llm_error when the model throws", async () => {
    const model = createScriptedModel([new Error("network down")]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 3 }), { llm: model.llm });
    expect(result.step.fail).toEqual({ reason: "llm_error", message: "LLM call failed: network down" });
  });

  test("llm_error on the single-shot path", async () => {
    const model = createScriptedModel([new Error("network down")]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 1 }), { llm: model.llm });
    expect(result.step.fail?.reason).toBe("llm_error");
  });

  test("chained_failure when the context is a failed Step, with that Step's fail as upstream", async () => {
    const upstream = await run(createAgent({ prompt: "p", maxTurns: 1 }), {
      llm: createScriptedModel([fence('(fail "nope")')]).llm,
    });
    expect(upstream.ok).toBe(false);
    const model = createScriptedModel([]);
    const result = await run(createAgent({ prompt: "q" }), { llm: model.llm, context: upstream.step });
    expect(result.step.fail).toEqual({
      reason: "chained_failure",
      message: "Upstream agent failed: failed",
      details: { upstream: { reason: "failed", message: '"nope"' } },
    });
    expect(model.calls).toHaveLength(0);
  });

  test("a successful Step as context passes its map return and field descriptions on", async () => {
    const upstream = await run(
      createAgent({
        prompt: "p",
        maxTurns: 1,
        signature: "{total :int}",
        fieldDescriptions: { total: "Sum" },
      }),
      { llm: createScriptedModel([fence("(return {:total 7})")]).llm },
    );
    const model = createScriptedModel([fence("(return (inc data/total))")]);
    const result = await run(createAgent({ prompt: "q", maxTurns: 2 }), {
      llm: model.llm,
      context: upstream.step,
    });
    expect(result.step.return).toBe(8);
    expect(model.calls[0]?.messages[0]?.content).toMatch(/data\/total\s+; integer, sample: 7 -- Sum/);
  });

  test.each([
    ["max_turns_exceeded", { maxTurns: 2 }, [fence("(/ 1 0)"), "no code"]],
    [
      "budget_exhausted",
      { maxTurns: 1, retryTurns: 1, tools: { t: () => 1 } },
      [fence("(/ 1 0)"), fence("(/ 1 0)")],
    ],
    ["failed", { maxTurns: 2 }, [fence('(fail "x")')]],
    ["must_return_missing", { maxTurns: 2, completionMode: "explicit" as const }, [fence("1"), fence("2")]],
    ["memory_limit_exceeded", { maxTurns: 2, memoryLimit: 5 }, [fence('(def s "0123456789")')]],
    ["no_code_found", { maxTurns: 1 }, ["no code"]],
  ])("%s is reachable in content mode", async (reason, options, steps) => {
    const model = createScriptedModel(steps);
    const result = await run(createAgent({ prompt: "p", ...options }), { llm: model.llm });
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe(reason);
  });

  test.each([
    ["max_turns_exceeded", { maxTurns: 2 }, ["not json", "still not json"]],
    [
      "budget_exhausted",
      { maxTurns: 1, retryTurns: 1 },
      [evalCall("(/ 1 0)", "a"), evalCall("(/ 1 0)", "b")],
    ],
    ["failed", { maxTurns: 2 }, [evalCall('(fail "x")', "a")]],
    ["memory_limit_exceeded", { maxTurns: 2, memoryLimit: 5 }, [evalCall('(def s "0123456789")', "a")]],
  ])("%s is reachable in the tool_call transport", async (reason, options, steps) => {
    const model = createScriptedModel(steps);
    const agent = createAgent({ prompt: "p", signature: ":int", ptcTransport: "tool_call", ...options });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe(reason);
  });

  test("an exception inside the model function's promise is an llm_error too", async () => {
    const failing = (_request: ModelRequest) => Promise.reject(new Error("rejected"));
    const result = await run(createAgent({ prompt: "p", ptcTransport: "tool_call" }), { llm: failing });
    expect(result.step.fail).toEqual({ reason: "llm_error", message: "LLM call failed: rejected" });
  });
});
