/**
 * Nested agents through the public API: `asTool` children called from a parent's
 * program with the call's arguments as their context, which model they use, how their failures
 * reach the parent, `step.childSteps`, the depth limit, the shared turn budget and deadline,
 * `"self"` recursion and the `llm-query` builtin.
 */
import { describe, expect, it } from "vitest";
import { AgentError, asTool, createAgent, isAgentError, type ModelRequest, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;
const firstUser = (request: ModelRequest | undefined) =>
  request?.messages.find((message) => message.role === "user")?.content ?? "";
const lastContent = (request: ModelRequest | undefined) => request?.messages.at(-1)?.content ?? "";

describe("asTool", () => {
  it("is callable from a parent program, with the arguments as the child's context", async () => {
    const parentModel = createScriptedModel([
      fenced('(def s (tool/summarize {:topic "tides" :limit 2}))\n(println s)'),
      fenced("(return s)"),
    ]);
    const childModel = createScriptedModel([fenced('(return (str data/topic ":" data/limit))')]);
    const child = createAgent({
      prompt: "Summarize {{topic}} in {{limit}} words",
      signature: "(topic :string, limit :int) -> :string",
      llm: childModel.llm,
    });
    const parent = createAgent({
      prompt: "Research",
      tools: { summarize: asTool(child, { description: "Summarizes a topic" }) },
    });
    const result = await run(parent, { llm: parentModel.llm });
    expect(result.step.fail).toBeNull();
    expect(result.step.return).toBe("tides:2");
    // The mission refers to the arguments as data/ values, which show their samples.
    expect(firstUser(childModel.calls[0])).toContain("Summarize ~{data/topic} in ~{data/limit} words");
    expect(firstUser(childModel.calls[0])).toMatch(/data\/topic\s+; string, sample: "tides"/);
    // The parent's model sees the child as a tool with its description and signature.
    expect(firstUser(parentModel.calls[0])).toContain("tool/summarize");
    parentModel.assertConsumed();
    childModel.assertConsumed();
  });

  it("runs the child with the parent's model when neither the child nor asTool has one", async () => {
    const shared = createScriptedModel([
      fenced("(return (tool/helper {:x 20}))"),
      fenced("(return (+ data/x 1))"),
    ]);
    const child = createAgent({ prompt: "Add one to {{x}}", signature: "(x :int) -> :int" });
    const parent = createAgent({ prompt: "p", tools: { helper: asTool(child, { description: "adds" }) } });
    const result = await run(parent, { llm: shared.llm });
    expect(result.step.return).toBe(21);
    expect(shared.calls).toHaveLength(2);
    expect(firstUser(shared.calls[1])).toMatch(/data\/x\s+; int, sample: 20/);
  });

  it("prefers the child's own model, then asTool's, then the parent's", async () => {
    const parentModel = createScriptedModel([fenced("(return [(tool/own {}) (tool/bound {})])")]);
    const ownModel = createScriptedModel([fenced("(return :own)")]);
    const boundModel = createScriptedModel([fenced("(return :bound)")]);
    const unusedModel = createScriptedModel([]);
    const own = createAgent({ prompt: "own", llm: ownModel.llm, maxTurns: 1 });
    const bound = createAgent({ prompt: "bound", maxTurns: 1 });
    const parent = createAgent({
      prompt: "p",
      tools: {
        own: asTool(own, { description: "own model", llm: unusedModel.llm }),
        bound: asTool(bound, { description: "bound model", llm: boundModel.llm }),
      },
    });
    const result = await run(parent, { llm: parentModel.llm });
    expect(result.step.return).toEqual(["own", "bound"]);
    expect(unusedModel.calls).toHaveLength(0);
    ownModel.assertConsumed();
    boundModel.assertConsumed();
  });

  it("turns a child failure into a tool error carrying the child's message", async () => {
    const parentModel = createScriptedModel([
      fenced('(tool/lookup {:id "42"})'),
      fenced("(return (:message data/fail))"),
    ]);
    const childModel = createScriptedModel([fenced('(fail "customer 42 does not exist")')]);
    const child = createAgent({
      prompt: "Find {{id}}",
      signature: "(id :string) -> :string",
      llm: childModel.llm,
    });
    const parent = createAgent({ prompt: "p", tools: { lookup: asTool(child, { description: "finds" }) } });
    const result = await run(parent, { llm: parentModel.llm });
    expect(result.ok).toBe(true);
    expect(lastContent(parentModel.calls[1])).toContain("customer 42 does not exist");
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "tool_error" } });
    expect(String(result.step.return)).toContain("customer 42 does not exist");
    expect(result.step.toolCalls[0]).toMatchObject({ name: "lookup", error: expect.stringContaining("42") });
    expect(result.step.childSteps).toHaveLength(1);
    expect(result.step.childSteps[0]?.fail?.reason).toBe("failed");
  });

  it("a child whose model fails surfaces the model error to the parent's program", async () => {
    const parentModel = createScriptedModel([fenced("(tool/helper {})"), fenced("(return :done)")]);
    const child = createAgent({
      prompt: "c",
      llm: createScriptedModel([new Error("child quota exceeded")]).llm,
    });
    const parent = createAgent({ prompt: "p", tools: { helper: asTool(child, { description: "d" }) } });
    const result = await run(parent, { llm: parentModel.llm });
    expect(result.step.return).toBe("done");
    expect(lastContent(parentModel.calls[1])).toContain("child quota exceeded");
    expect(result.step.childSteps[0]?.fail?.reason).toBe("llm_error");
  });

  it("records every child run in step.childSteps, without its messages", async () => {
    const parentModel = createScriptedModel([fenced("(return [(tool/helper {:n 1}) (tool/helper {:n 2})])")]);
    const childModel = createScriptedModel([
      fenced("(return (* 10 data/n))"),
      fenced("(return (* 10 data/n))"),
    ]);
    const child = createAgent({ prompt: "Times ten", signature: "(n :int) -> :int", llm: childModel.llm });
    const parent = createAgent({ prompt: "p", tools: { helper: asTool(child, { description: "x10" }) } });
    const result = await run(parent, { llm: parentModel.llm, collectMessages: true });
    expect(result.step.return).toEqual([10, 20]);
    expect(result.step.childSteps.map((step) => step.return)).toEqual([10, 20]);
    expect(result.step.childSteps.every((step) => step.messages === null)).toBe(true);
    expect(result.step.childSteps[0]?.turns).toHaveLength(1);
  });

  it("with cache: true runs the child once for the same arguments", async () => {
    const parentModel = createScriptedModel([
      fenced("(def a (tool/helper {:n 1}))"),
      fenced("(return [a (tool/helper {:n 1})])"),
    ]);
    const childModel = createScriptedModel([fenced("(return (* 10 data/n))")]);
    const child = createAgent({ prompt: "Times ten", signature: "(n :int) -> :int", llm: childModel.llm });
    const parent = createAgent({
      prompt: "p",
      tools: { helper: asTool(child, { description: "x10", cache: true }) },
    });
    const result = await run(parent, { llm: parentModel.llm });
    expect(result.step.return).toEqual([10, 10]);
    childModel.assertConsumed();
    expect(result.step.childSteps).toHaveLength(1);
    expect(result.step.toolCalls.map((call) => call.cached)).toEqual([false, true]);
  });

  it("throws AgentError without a description", () => {
    const child = createAgent({ prompt: "c" });
    let caught: unknown;
    try {
      asTool(child);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AgentError);
    expect(isAgentError(caught)).toBe(true);
    expect((caught as AgentError).message).toContain("description");
    expect(() => asTool(child, { description: "" })).toThrow(AgentError);
    // The agent's own description is enough.
    expect(asTool(createAgent({ prompt: "c", description: "has one" })).description).toBe("has one");
  });
});

describe("depth", () => {
  it("a chain deeper than maxDepth fails at the agent past the limit", async () => {
    // A (depth 0) → B (depth 1) → C (depth 2); C allows depth < 2 only.
    const shared = createScriptedModel([
      fenced("(return (tool/b {}))"), // A
      fenced("(tool/c {})"), // B, turn 1: the call fails
      fenced("(return (:message data/fail))"), // B, turn 2
    ]);
    const c = createAgent({ prompt: "C", maxDepth: 2, description: "c" });
    const b = createAgent({ prompt: "B", tools: { c: asTool(c) }, description: "b" });
    const a = createAgent({ prompt: "A", tools: { b: asTool(b) } });
    const result = await run(a, { llm: shared.llm });
    expect(result.step.fail).toBeNull();
    expect(result.step.return).toContain("Nesting depth limit exceeded: 2 >= 2");
    shared.assertConsumed();
    const bStep = result.step.childSteps[0];
    expect(bStep?.childSteps[0]?.fail?.reason).toBe("max_depth_exceeded");
    // C never called the model.
    expect(shared.calls).toHaveLength(3);
  });
});

describe("the shared turn budget", () => {
  it("a child starts with the parent's remaining turns, not its own maxTurns", async () => {
    const shared = createScriptedModel([
      fenced("(tool/worker {})"), // parent turn 1
      fenced("(def a 1)"), // child turn 1
      fenced("(def b 2)"), // child turn 2: the budget of 2 is gone
      fenced("(return (:message data/fail))"), // parent turn 2
    ]);
    const worker = createAgent({ prompt: "work", maxTurns: 10, description: "works" });
    const parent = createAgent({ prompt: "p", turnBudget: 2, tools: { worker: asTool(worker) } });
    const result = await run(parent, { llm: shared.llm });
    shared.assertConsumed();
    expect(result.step.childSteps[0]?.fail?.reason).toBe("turn_budget_exhausted");
    expect(result.step.childSteps[0]?.turns).toHaveLength(2);
    expect(result.step.return).toContain("Turn budget exhausted");
  });

  it("a parent whose budget is spent stops with turn_budget_exhausted", async () => {
    const model = createScriptedModel([fenced("(def a 1)"), fenced("(def b 2)")]);
    const result = await run(createAgent({ prompt: "p", turnBudget: 2 }), { llm: model.llm });
    expect(result.step.fail?.reason).toBe("turn_budget_exhausted");
    expect(result.step.turns).toHaveLength(2);
  });
});

describe("the mission deadline", () => {
  it("is inherited by the child: a hanging child model ends both", async () => {
    const parentModel = createScriptedModel([fenced("(tool/slow {})")]);
    const child = createAgent({
      prompt: "c",
      description: "slow",
      llm: createScriptedModel([() => never()]).llm,
    });
    const parent = createAgent({
      prompt: "p",
      // The child must have started before the deadline: a second leaves room for a loaded machine.
      missionTimeout: 1000,
      timeout: 600_000,
      tools: { slow: asTool(child) },
    });
    const result = await run(parent, { llm: parentModel.llm });
    // The child meets the same deadline: its own clock or its caller's program (cut at the deadline)
    // ends it, whichever fires first.
    expect(["mission_timeout", "aborted"]).toContain(result.step.childSteps[0]?.fail?.reason);
    expect(result.step.fail?.reason).toBe("mission_timeout");
  });
});

describe('"self" tools', () => {
  it("require a signature", () => {
    expect(() => createAgent({ prompt: "p", tools: { again: "self" } })).toThrow(AgentError);
    expect(() => createAgent({ prompt: "p", tools: { again: "self" } })).toThrow(/signature/);
  });

  const factorial = fenced(
    "(if (<= data/n 1) (return 1) (return (* data/n (tool/again {:n (dec data/n)}))))",
  );

  it("recurse through the same agent", async () => {
    const model = createScriptedModel([factorial, factorial, factorial]);
    const agent = createAgent({
      prompt: "Factorial of {{n}}",
      signature: "(n :int) -> :int",
      tools: { again: "self" },
    });
    const result = await run(agent, { llm: model.llm, context: { n: 3 } });
    expect(result.step.fail).toBeNull();
    expect(result.step.return).toBe(6);
    model.assertConsumed();
    expect(firstUser(model.calls[1])).toMatch(/data\/n\s+; int, sample: 2/);
    expect(result.step.childSteps).toHaveLength(1);
    expect(result.step.childSteps[0]?.childSteps).toHaveLength(1);
  });

  it("stop at maxDepth", async () => {
    const model = createScriptedModel([factorial, factorial, fenced("(return 0)")]);
    const agent = createAgent({
      prompt: "Factorial of {{n}}",
      signature: "(n :int) -> :int",
      maxDepth: 2,
      tools: { again: "self" },
    });
    const result = await run(agent, { llm: model.llm, context: { n: 5 } });
    // depth 0 (n=5) → depth 1 (n=4) → depth 2 refused; depth 1's program fails, it tries again.
    expect(result.step.return).toBe(0);
    expect(lastContent(model.calls[2])).toContain("Nesting depth limit exceeded");
  });
});

describe("llm-query", () => {
  it("asks the model a typed sub-question and hands the program an integer", async () => {
    const model = createScriptedModel([
      fenced(
        '(return (+ 1 (tool/llm-query {:prompt "How many legs does a {{animal}} have?" :animal "cat" :signature ":int"})))',
      ),
      '{"value": 4}',
    ]);
    const agent = createAgent({ prompt: "p", llmQuery: true, signature: "() -> :int" });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.fail).toBeNull();
    expect(result.step.return).toBe(5);
    const query = model.calls[1];
    expect(query?.output).toBe("text");
    expect(firstUser(query)).toContain("How many legs does a cat have?");
    model.assertConsumed();
  });

  it("answers in plain text by default", async () => {
    const model = createScriptedModel([
      fenced('(return (tool/llm-query {:prompt "Name a colour"}))'),
      "teal",
    ]);
    const result = await run(createAgent({ prompt: "p", llmQuery: true }), { llm: model.llm });
    expect(result.step.return).toBe("teal");
  });

  it("returns structured answers for map signatures", async () => {
    const model = createScriptedModel([
      fenced('(return (:name (tool/llm-query {:prompt "A person" :signature "{name :string, age :int}"})))'),
      '{"name": "Ada", "age": 36}',
    ]);
    const result = await run(createAgent({ prompt: "p", llmQuery: true }), { llm: model.llm });
    expect(result.step.return).toBe("Ada");
  });

  it("rejects a call without :prompt as invalid arguments, naming the parameter and its type", async () => {
    const model = createScriptedModel([fenced('(tool/llm-query {:signature ":int"})'), fenced("(return 1)")]);
    const result = await run(createAgent({ prompt: "p", llmQuery: true }), { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "invalid_tool_args" } });
    expect(lastContent(model.calls[1])).toContain("prompt: expected field, got nil");
    expect(lastContent(model.calls[1])).toContain("(prompt :string, signature :string?)");
    expect(result.step.childSteps).toEqual([]);
  });

  it("is a tool error when the answer does not parse", async () => {
    const model = createScriptedModel([
      fenced('(tool/llm-query {:prompt "How many?" :signature ":int"})'),
      "four",
      fenced("(return 1)"),
    ]);
    const result = await run(createAgent({ prompt: "p", llmQuery: true }), { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "tool_error" } });
    expect(result.step.childSteps[0]?.fail?.reason).toBe("json_parse_error");
  });
});
