/**
 * Cancellation through the public API: the run's `signal` ends the model call in flight, the
 * running program and every tool (each sees its own signal abort), and the Step keeps everything
 * recorded before the abort. Nothing a tool does after the abort reaches the Step or the events.
 */
import { describe, expect, it } from "vitest";
import { type AgentEvent, asTool, chat, createAgent, type ModelRequest, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;

describe("aborting a model call in flight", () => {
  const modes = [
    { label: "PTC-Lisp content mode", options: {} },
    { label: "tool_call transport", options: { ptcTransport: "tool_call" as const } },
    { label: "text mode", options: { output: "text" as const } },
    { label: "combined mode", options: { output: "text" as const, ptcTransport: "tool_call" as const } },
  ];
  for (const { label, options } of modes) {
    it(`ends the run with fail.reason "aborted" in ${label}`, async () => {
      const called = deferred<ModelRequest>();
      const model = createScriptedModel([
        (request) => {
          called.resolve(request);
          return never();
        },
      ]);
      const controller = new AbortController();
      const agent = createAgent({
        prompt: "Count the things",
        ...options,
        tools: { things: () => [1, 2, 3] },
      });
      const pending = run(agent, { llm: model.llm, signal: controller.signal });
      const request = await called.promise;
      expect(request.signal?.aborted).toBe(false);
      controller.abort();
      const result = await pending;
      expect(result.ok).toBe(false);
      expect(result.step.fail?.reason).toBe("aborted");
      // The model received the run's signal, so a real provider call is cancelled too.
      expect(request.signal?.aborted).toBe(true);
      model.assertConsumed();
    });
  }

  it("names the abort reason in the failure message", async () => {
    const called = deferred();
    const model = createScriptedModel([
      () => {
        called.resolve();
        return never();
      },
    ]);
    const controller = new AbortController();
    const pending = run(createAgent({ prompt: "p" }), { llm: model.llm, signal: controller.signal });
    await called.promise;
    controller.abort(new Error("user pressed stop"));
    const result = await pending;
    expect(result.step.fail).toMatchObject({ reason: "aborted" });
    expect(result.step.fail?.message).toContain("user pressed stop");
  });

  it("ends a model call that is waiting between retries", async () => {
    const failed = deferred();
    const overloaded = Object.assign(new Error("overloaded"), { status: 503 });
    const model = createScriptedModel([
      () => {
        failed.resolve();
        throw overloaded;
      },
    ]);
    const controller = new AbortController();
    const pending = run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      signal: controller.signal,
      // A backoff far longer than the test: only the abort can end the wait.
      llmRetry: { maxAttempts: 3, backoff: "constant", baseDelayMs: 600_000 },
    });
    await failed.promise;
    controller.abort();
    const result = await pending;
    expect(result.step.fail?.reason).toBe("aborted");
    expect(model.calls).toHaveLength(1);
  });
});

describe("chat", () => {
  it("ends an aborted exchange with reason aborted and keeps the conversation so far", async () => {
    const called = deferred();
    const model = createScriptedModel([
      () => {
        called.resolve();
        return never();
      },
    ]);
    const controller = new AbortController();
    const history = [
      { role: "user" as const, content: "hello" },
      { role: "assistant" as const, content: "hi" },
    ];
    const pending = chat(createAgent({ prompt: "p", output: "text" }), "and now?", {
      llm: model.llm,
      signal: controller.signal,
      messages: history,
    });
    await called.promise;
    controller.abort();
    const reply = await pending;
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.reason).toBe("aborted");
    expect(reply.messages.map((message) => message.content)).toEqual(
      expect.arrayContaining(["hello", "hi", "and now?"]),
    );
  });
});

describe("a run without a signal", () => {
  it("still gives every tool a signal, never aborted when the run ends normally", async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const model = createScriptedModel([fenced("(tool/t {})"), fenced("(return 1)")]);
    const agent = createAgent({
      prompt: "p",
      tools: {
        t: (_args, { signal }) => {
          signals.push(signal);
          return 1;
        },
      },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    expect(signals[0]?.aborted).toBe(false);
  });
});

describe("a signal option that cannot be listened to", () => {
  it("is refused before the run starts, naming the option", async () => {
    const model = createScriptedModel([]);
    const fake = { aborted: false } as unknown as AbortSignal;
    await expect(run(createAgent({ prompt: "p" }), { llm: model.llm, signal: fake })).rejects.toMatchObject({
      code: "PTC_AGENT_INVALID_RUN_OPTION",
      message: expect.stringContaining("signal must be an AbortSignal"),
    });
    expect(model.calls).toHaveLength(0);
  });
});

describe("an already-aborted signal", () => {
  it("ends the run before the model is called", async () => {
    const model = createScriptedModel([]);
    const events: AgentEvent[] = [];
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      signal: AbortSignal.abort(),
      onEvent: (event) => events.push(event),
    });
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("aborted");
    expect(model.calls).toHaveLength(0);
    expect(result.step.turns).toEqual([]);
    expect(result.step.usage.turns).toBe(0);
    expect(events.map((event) => event.type)).toEqual(["run-start", "run-end"]);
  });

  it("ends a text-mode run before the model is called", async () => {
    const model = createScriptedModel([]);
    const result = await run(createAgent({ prompt: "p", output: "text" }), {
      llm: model.llm,
      signal: AbortSignal.abort(),
    });
    expect(result.step.fail?.reason).toBe("aborted");
    expect(model.calls).toHaveLength(0);
  });
});

describe("aborting a running program", () => {
  it("ends a program waiting on a tool that never resolves, and the tool sees its signal abort", async () => {
    const started = deferred<AbortSignal | undefined>();
    const model = createScriptedModel([fenced('(def rows (tool/slow {:q "x"}))\n(count rows)')]);
    const controller = new AbortController();
    const agent = createAgent({
      prompt: "p",
      timeout: 600_000,
      tools: {
        slow: (_args, { signal }) => {
          started.resolve(signal);
          return never();
        },
      },
    });
    const pending = run(agent, { llm: model.llm, signal: controller.signal, collectMessages: true });
    const signal = await started.promise;
    expect(signal?.aborted).toBe(false);
    controller.abort();
    const result = await pending;
    expect(result.step.fail?.reason).toBe("aborted");
    expect(signal?.aborted).toBe(true);
    // The turn that was running is recorded, with its program and the interrupted tool call.
    expect(result.step.turns).toHaveLength(1);
    expect(result.step.turns?.[0]?.program).toContain("tool/slow");
    expect(result.step.turns?.[0]?.success).toBe(false);
    expect(result.step.toolCalls.map((call) => call.name)).toEqual(["slow"]);
    expect(result.step.toolCalls[0]?.error).toBeDefined();
    expect(result.step.usage.llmRequests).toBe(1);
    model.assertConsumed();
  });

  it("ends a program in the tool_call transport", async () => {
    const started = deferred<AbortSignal | undefined>();
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "lisp_eval", args: { program: "(tool/slow {})" } }] },
    ]);
    const controller = new AbortController();
    const agent = createAgent({
      prompt: "p",
      ptcTransport: "tool_call",
      timeout: 600_000,
      tools: {
        slow: (_args, { signal }) => {
          started.resolve(signal);
          return never();
        },
      },
    });
    const pending = run(agent, { llm: model.llm, signal: controller.signal, collectMessages: true });
    const signal = await started.promise;
    controller.abort();
    const result = await pending;
    expect(result.step.fail?.reason).toBe("aborted");
    expect(signal?.aborted).toBe(true);
    expect(result.step.turns).toHaveLength(1);
    // Every tool call id the model sent is still answered in the transcript.
    const messages = result.step.messages ?? [];
    const assistant = messages.find((message) => message.role === "assistant");
    expect(assistant?.toolCalls?.map((call) => call.id)).toEqual(["c1"]);
    expect(messages.filter((message) => message.role === "tool").map((m) => m.toolCallId)).toEqual(["c1"]);
  });

  it("passes the signal to every native tool of a turn and aborts them all (text mode)", async () => {
    const signals: AbortSignal[] = [];
    const bothStarted = deferred();
    const tool = (_args: unknown, { signal }: { signal?: AbortSignal }) => {
      if (signal !== undefined) signals.push(signal);
      if (signals.length === 1) bothStarted.resolve();
      return never();
    };
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "first", args: {} },
          { id: "b", name: "second", args: {} },
        ],
      },
    ]);
    const controller = new AbortController();
    const agent = createAgent({ prompt: "p", output: "text", tools: { first: tool, second: tool } });
    const pending = run(agent, { llm: model.llm, signal: controller.signal, collectMessages: true });
    await bothStarted.promise;
    controller.abort();
    const result = await pending;
    expect(result.step.fail?.reason).toBe("aborted");
    // Native calls run in order: the first was aborted; the second is never started after the abort.
    expect(signals).toHaveLength(1);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(result.step.toolCalls.map((call) => call.name)).toEqual(["first", "second"]);
    expect(result.step.toolCalls.every((call) => call.error !== undefined)).toBe(true);
    const toolMessages = (result.step.messages ?? []).filter((message) => message.role === "tool");
    expect(toolMessages.map((message) => message.toolCallId)).toEqual(["a", "b"]);
  });

  it("gives each call of a program its own signal, all aborted with the run", async () => {
    const signals: AbortSignal[] = [];
    const twoStarted = deferred();
    const model = createScriptedModel([fenced("(pcalls #(tool/slow {:n 1}) #(tool/slow {:n 2}))")]);
    const controller = new AbortController();
    const agent = createAgent({
      prompt: "p",
      timeout: 600_000,
      pmapTimeout: 600_000,
      tools: {
        slow: (_args, { signal }) => {
          if (signal !== undefined) signals.push(signal);
          if (signals.length === 2) twoStarted.resolve();
          return never();
        },
      },
    });
    const pending = run(agent, { llm: model.llm, signal: controller.signal });
    await twoStarted.promise;
    expect(signals[0]).not.toBe(signals[1]);
    controller.abort();
    const result = await pending;
    expect(result.step.fail?.reason).toBe("aborted");
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
  });
});

describe("the Step of an aborted run", () => {
  it("keeps turns, tool calls, messages and memory recorded before the abort", async () => {
    const secondCall = deferred();
    const model = createScriptedModel([
      fenced('(def total (count (tool/rows {:kind "a"})))\n(println "total" total)'),
      () => {
        secondCall.resolve();
        return never();
      },
    ]);
    const controller = new AbortController();
    const agent = createAgent({ prompt: "p", tools: { rows: () => [{ id: 1 }, { id: 2 }] } });
    const pending = run(agent, { llm: model.llm, signal: controller.signal, collectMessages: true });
    await secondCall.promise;
    controller.abort();
    const result = await pending;
    const { step } = result;
    expect(step.fail?.reason).toBe("aborted");
    expect(step.memory).toEqual({ total: 2 });
    expect(step.turns?.map((turn) => turn.number)).toEqual([1]);
    expect(step.turns?.[0]?.success).toBe(true);
    expect(step.toolCalls).toMatchObject([
      { name: "rows", args: { kind: "a" }, result: [{ id: 1 }, { id: 2 }] },
    ]);
    expect(step.prints).toEqual(["total 2"]);
    // system, first user message, turn 1's program and its feedback.
    expect(step.messages?.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(step.messages?.[3]?.content).toContain("total 2");
    expect(step.usage.llmRequests).toBe(1);
    expect(step.usage.turns).toBe(1);
  });

  it("keeps the native tool results of a text-mode run", async () => {
    const secondCall = deferred();
    const model = createScriptedModel([
      { toolCalls: [{ id: "a", name: "lookup", args: { id: 7 } }] },
      () => {
        secondCall.resolve();
        return never();
      },
    ]);
    const controller = new AbortController();
    const agent = createAgent({
      prompt: "p",
      output: "text",
      tools: { lookup: ({ id }) => ({ id, name: "seven" }) },
    });
    const pending = run(agent, { llm: model.llm, signal: controller.signal, collectMessages: true });
    await secondCall.promise;
    controller.abort();
    const { step } = await pending;
    expect(step.fail?.reason).toBe("aborted");
    expect(step.toolCalls).toMatchObject([{ name: "lookup", id: "a", result: { id: 7, name: "seven" } }]);
    expect(step.turns).toHaveLength(1);
    expect(step.messages?.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
  });
});

describe("a tool that resolves after the abort", () => {
  it("changes neither the Step nor the events (program)", async () => {
    const started = deferred();
    const late = deferred<unknown>();
    const model = createScriptedModel([fenced("(def x (tool/late {}))\n(return x)")]);
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const agent = createAgent({
      prompt: "p",
      timeout: 600_000,
      tools: {
        late: () => {
          started.resolve();
          return late.promise;
        },
      },
    });
    const pending = run(agent, {
      llm: model.llm,
      signal: controller.signal,
      onEvent: (event) => events.push(event),
    });
    await started.promise;
    controller.abort();
    const { step } = await pending;
    const before = JSON.stringify(step);
    const eventCount = events.length;
    late.resolve({ answer: 42 });
    // Let the late value travel through any continuation that might still hold it.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(step.fail?.reason).toBe("aborted");
    expect(step.return).toBeNull();
    expect(JSON.stringify(step)).toBe(before);
    expect(events).toHaveLength(eventCount);
    expect(events.at(-1)?.type).toBe("run-end");
  });

  it("changes neither the Step nor the events (native call)", async () => {
    const started = deferred();
    const late = deferred<unknown>();
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "late", args: {} }] }]);
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const agent = createAgent({
      prompt: "p",
      output: "text",
      tools: {
        late: () => {
          started.resolve();
          return late.promise;
        },
      },
    });
    const pending = run(agent, {
      llm: model.llm,
      signal: controller.signal,
      collectMessages: true,
      onEvent: (event) => events.push(event),
    });
    await started.promise;
    controller.abort();
    const { step } = await pending;
    const before = JSON.stringify(step);
    const eventCount = events.length;
    late.resolve("too late");
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(JSON.stringify(step)).toBe(before);
    expect(before).not.toContain("too late");
    expect(events).toHaveLength(eventCount);
  });
});

describe("aborting a nested agent", () => {
  it("cancels the child's model call and fails the parent as aborted", async () => {
    const childCalled = deferred<ModelRequest>();
    const parentModel = createScriptedModel([fenced('(return (tool/helper {:topic "x"}))')]);
    const childModel = createScriptedModel([
      (request) => {
        childCalled.resolve(request);
        return never();
      },
    ]);
    const child = createAgent({ prompt: "About {{topic}}", signature: "(topic :string) -> :string" });
    const parent = createAgent({
      prompt: "p",
      tools: { helper: asTool(child, { description: "helps", llm: childModel.llm }) },
    });
    const controller = new AbortController();
    const pending = run(parent, { llm: parentModel.llm, signal: controller.signal });
    const request = await childCalled.promise;
    controller.abort();
    const result = await pending;
    expect(result.step.fail?.reason).toBe("aborted");
    expect(request.signal?.aborted).toBe(true);
    expect(result.step.childSteps.map((step) => step.fail?.reason)).toEqual(["aborted"]);
  });
});
