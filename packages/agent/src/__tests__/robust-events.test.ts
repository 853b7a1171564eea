/**
 * Typed events through the public API: their order in a simple run, how spans nest (run → turn →
 * model call / tool call, a child agent's run under the tool call that started it), retries,
 * the opt-in payloads, pairing of every start with an end however the run ends, and a listener
 * that throws.
 */
import { describe, expect, it } from "vitest";
import { type AgentEvent, asTool, createAgent, type RunOptions, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;

function collect(): { events: AgentEvent[]; onEvent: (event: AgentEvent) => void } {
  const events: AgentEvent[] = [];
  return { events, onEvent: (event) => events.push(event) };
}

function ofType<T extends AgentEvent["type"]>(events: readonly AgentEvent[], type: T) {
  return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
}

/** Every start has exactly one end with the same span, after it; one run-start/run-end per run. */
function expectPaired(events: readonly AgentEvent[]) {
  const pairs = [
    ["run-start", "run-end"],
    ["turn-start", "turn-end"],
    ["llm-call-start", "llm-call-end"],
    ["tool-call-start", "tool-call-end"],
  ] as const;
  for (const [start, end] of pairs) {
    const starts = events.filter((event) => event.type === start);
    const ends = events.filter((event) => event.type === end);
    expect(ends.map((event) => event.spanId).sort(), `${start}/${end}`).toEqual(
      starts.map((event) => event.spanId).sort(),
    );
    for (const started of starts) {
      const ended = events.findIndex((event) => event.type === end && event.spanId === started.spanId);
      expect(ended).toBeGreaterThan(events.indexOf(started));
    }
  }
  // Every parent span is a span of an event that was emitted (no dangling parents).
  const spans = new Set(events.map((event) => event.spanId));
  for (const event of events) {
    if (event.parentSpanId !== null) expect(spans.has(event.parentSpanId), `${event.type} parent`).toBe(true);
  }
}

describe("the events of a simple run", () => {
  it("come in order: run, turn, model call, tool call, turn end, run end", async () => {
    const { events, onEvent } = collect();
    const model = createScriptedModel([fenced("(def n (count (tool/rows {})))"), fenced("(return n)")]);
    const agent = createAgent({ prompt: "p", name: "counter", tools: { rows: () => [1, 2, 3] } });
    const result = await run(agent, { llm: model.llm, onEvent });
    expect(result.step.return).toBe(3);
    expect(events.map((event) => event.type)).toEqual([
      "run-start",
      "turn-start",
      "llm-call-start",
      "llm-call-end",
      "tool-call-start",
      "tool-call-end",
      "turn-end",
      "turn-start",
      "llm-call-start",
      "llm-call-end",
      "turn-end",
      "run-end",
    ]);
    expect(events.every((event) => event.agentName === "counter")).toBe(true);
    expect(new Set(events.map((event) => event.agentId)).size).toBe(1);
    expect(events[0]).toMatchObject({ type: "run-start", depth: 0, mode: "ptc_lisp", parentSpanId: null });
    expect(events.at(-1)).toMatchObject({ type: "run-end", ok: true, fail: null });
    expectPaired(events);
  });

  it("nest spans: turns under the run, model and tool calls under their turn", async () => {
    const { events, onEvent } = collect();
    const model = createScriptedModel([fenced("(tool/rows {})"), fenced("(return 1)")]);
    await run(createAgent({ prompt: "p", tools: { rows: () => [] } }), { llm: model.llm, onEvent });
    const runSpan = ofType(events, "run-start")[0]?.spanId;
    const turns = ofType(events, "turn-start");
    expect(turns).toHaveLength(2);
    for (const turn of turns) expect(turn.parentSpanId).toBe(runSpan);
    const [firstTurn] = turns;
    expect(ofType(events, "llm-call-start")[0]?.parentSpanId).toBe(firstTurn?.spanId);
    expect(ofType(events, "tool-call-start")[0]?.parentSpanId).toBe(firstTurn?.spanId);
    expect(ofType(events, "run-end")[0]?.spanId).toBe(runSpan);
  });

  it("report native tool calls in text mode with their layer", async () => {
    const { events, onEvent } = collect();
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "rows", args: {} }] }, "done"]);
    await run(createAgent({ prompt: "p", output: "text", tools: { rows: () => [] } }), {
      llm: model.llm,
      onEvent,
    });
    const [start] = ofType(events, "tool-call-start");
    expect(start).toMatchObject({ toolName: "rows", exposureLayer: "native", turn: 1 });
    expect(start?.parentSpanId).toBe(ofType(events, "turn-start")[0]?.spanId);
    expect(ofType(events, "run-start")[0]?.mode).toBe("text");
    expectPaired(events);
  });

  it("nest a combined-mode program's tool calls under its lisp_eval call, under the turn", async () => {
    const { events, onEvent } = collect();
    const model = createScriptedModel([
      { toolCalls: [{ id: "e", name: "lisp_eval", args: { program: "(count (tool/rows {}))" } }] },
      "three",
    ]);
    const agent = createAgent({
      prompt: "p",
      output: "text",
      ptcTransport: "tool_call",
      tools: { rows: { execute: () => [1, 2, 3], expose: "ptc_lisp" } },
    });
    await run(agent, { llm: model.llm, onEvent });
    const turn = ofType(events, "turn-start")[0];
    const starts = ofType(events, "tool-call-start");
    const lispEval = starts.find((event) => event.toolName === "lisp_eval");
    const rows = starts.find((event) => event.toolName === "rows");
    expect(lispEval?.parentSpanId).toBe(turn?.spanId);
    expect(lispEval?.spanId).not.toBe(turn?.spanId);
    expect(rows).toMatchObject({ exposureLayer: "ptc_lisp", parentSpanId: lispEval?.spanId });
    expect(ofType(events, "run-start")[0]?.mode).toBe("combined");
    expectPaired(events);
  });

  it("mark a failed tool call with its error message", async () => {
    const { events, onEvent } = collect();
    const model = createScriptedModel([fenced("(tool/boom {})"), fenced("(return 1)")]);
    const agent = createAgent({
      prompt: "p",
      tools: {
        boom: () => {
          throw new Error("no such table");
        },
      },
    });
    await run(agent, { llm: model.llm, onEvent });
    expect(ofType(events, "tool-call-end")[0]).toMatchObject({ error: true, errorMessage: "no such table" });
    expect(ofType(events, "turn-end").map((event) => event.success)).toEqual([false, true]);
  });
});

describe("a child agent's events", () => {
  it("start under the tool call that ran the child", async () => {
    const { events, onEvent } = collect();
    const parentModel = createScriptedModel([fenced('(return (tool/helper {:topic "cats"}))')]);
    const childModel = createScriptedModel([fenced('(return "meow")')]);
    const child = createAgent({
      prompt: "About {{topic}}",
      name: "child",
      signature: "(topic :string) -> :string",
    });
    const parent = createAgent({
      prompt: "p",
      name: "parent",
      tools: { helper: asTool(child, { description: "helps", llm: childModel.llm }) },
    });
    const result = await run(parent, { llm: parentModel.llm, onEvent });
    expect(result.step.return).toBe("meow");
    const runStarts = ofType(events, "run-start");
    expect(runStarts.map((event) => [event.agentName, event.depth])).toEqual([
      ["parent", 0],
      ["child", 1],
    ]);
    const toolCall = ofType(events, "tool-call-start").find((event) => event.toolName === "helper");
    expect(toolCall?.agentName).toBe("parent");
    expect(runStarts[1]?.parentSpanId).toBe(toolCall?.spanId);
    // The child's run ends before the tool call that started it does.
    const childEnd = events.findIndex((event) => event.type === "run-end" && event.agentName === "child");
    const toolEnd = events.findIndex(
      (event) => event.type === "tool-call-end" && event.spanId === toolCall?.spanId,
    );
    expect(childEnd).toBeLessThan(toolEnd);
    expect(runStarts[0]?.agentId).not.toBe(runStarts[1]?.agentId);
    expectPaired(events);
  });
});

describe("model retries", () => {
  it("are visible as attempts of one turn's model call", async () => {
    const { events, onEvent } = collect();
    const model = createScriptedModel([
      Object.assign(new Error("overloaded"), { status: 503 }),
      Object.assign(new Error("rate limited"), { status: 429 }),
      fenced("(return 1)"),
    ]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      onEvent,
      llmRetry: { maxAttempts: 3, baseDelayMs: 1 },
    });
    expect(result.step.return).toBe(1);
    const ends = ofType(events, "llm-call-end");
    expect(ends.map((event) => [event.attempt, event.ok])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(ends[0]?.error).toContain("overloaded");
    expect(ends[1]?.error).toContain("rate limited");
    const turn = ofType(events, "turn-start")[0];
    expect(ofType(events, "llm-call-start").every((event) => event.parentSpanId === turn?.spanId)).toBe(true);
    expect(ofType(events, "turn-start")).toHaveLength(1);
    expectPaired(events);
  });
});

describe("event payloads", () => {
  const payloadKeys = ["args", "result", "system", "messages", "response"];

  async function runWithTool(options: Partial<RunOptions>) {
    const { events, onEvent } = collect();
    const model = createScriptedModel([
      fenced('(tool/lookup {:email "ada@example.com"})'),
      fenced("(return 1)"),
    ]);
    const agent = createAgent({ prompt: "p", tools: { lookup: () => ({ phone: "555-0199" }) } });
    await run(agent, { llm: model.llm, onEvent, ...options });
    return events;
  }

  it("are absent by default: no arguments, results, prompts or responses", async () => {
    const events = await runWithTool({});
    for (const event of events) {
      for (const key of payloadKeys) expect(Object.hasOwn(event, key), `${event.type}.${key}`).toBe(false);
    }
    // turn-end carries the program (the model's own text, which quotes the email); nothing else may.
    const text = JSON.stringify(events.filter((event) => event.type !== "turn-end"));
    expect(text).not.toContain("ada@example.com");
    expect(JSON.stringify(events)).not.toContain("555-0199");
  });

  it("are included with eventPayloads: true", async () => {
    const events = await runWithTool({ eventPayloads: true });
    expect(ofType(events, "tool-call-start")[0]?.args).toEqual({ email: "ada@example.com" });
    expect(ofType(events, "tool-call-end")[0]?.result).toEqual({ phone: "555-0199" });
    const llmStart = ofType(events, "llm-call-start")[0];
    expect(typeof llmStart?.system).toBe("string");
    expect(llmStart?.messages?.length).toBeGreaterThan(0);
    expect(ofType(events, "llm-call-end")[0]?.response).toMatchObject({
      content: expect.stringContaining("lookup"),
    });
  });
});

describe("a throwing listener", () => {
  it("does not break the run, and every event is still delivered", async () => {
    const delivered: string[] = [];
    const model = createScriptedModel([fenced("(tool/rows {})"), fenced("(return 2)")]);
    const result = await run(createAgent({ prompt: "p", tools: { rows: () => [1] } }), {
      llm: model.llm,
      onEvent: (event) => {
        delivered.push(event.type);
        throw new Error("listener bug");
      },
    });
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe(2);
    expect(delivered[0]).toBe("run-start");
    expect(delivered.at(-1)).toBe("run-end");
    expect(delivered).toContain("tool-call-end");
  });

  it("that rejects asynchronously does not surface as an unhandled rejection either", async () => {
    const model = createScriptedModel([fenced("(return 2)")]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 1 }), {
      llm: model.llm,
      onEvent: (async () => {
        throw new Error("async listener bug");
      }) as never,
    });
    expect(result.step.return).toBe(2);
  });
});

describe("every start has an end, however the run ends", () => {
  it("when a budget stops the run", async () => {
    const { events, onEvent } = collect();
    const model = createScriptedModel([
      { content: fenced("(def a 1)"), tokens: { input: 100, output: 100 } },
      { content: fenced("(def b 2)"), tokens: { input: 100, output: 100 } },
    ]);
    const result = await run(createAgent({ prompt: "p" }), { llm: model.llm, onEvent, tokenLimit: 250 });
    expect(result.step.fail?.reason).toBe("budget_callback_exceeded");
    expectPaired(events);
    expect(events.at(-1)?.type).toBe("run-end");
  });

  it("when the model fails", async () => {
    const { events, onEvent } = collect();
    const model = createScriptedModel([fenced("(def a 1)"), new Error("down")]);
    const result = await run(createAgent({ prompt: "p" }), { llm: model.llm, onEvent });
    expect(result.step.fail?.reason).toBe("llm_error");
    expectPaired(events);
    expect(ofType(events, "turn-end").at(-1)).toMatchObject({ turn: 2, success: false });
    expect(events.at(-1)?.type).toBe("run-end");
  });

  it("when the run is aborted during a tool call", async () => {
    const { events, onEvent } = collect();
    const controller = new AbortController();
    const model = createScriptedModel([fenced("(tool/slow {})")]);
    const agent = createAgent({
      prompt: "p",
      timeout: 600_000,
      tools: {
        slow: () => {
          queueMicrotask(() => controller.abort());
          return never();
        },
      },
    });
    const result = await run(agent, { llm: model.llm, onEvent, signal: controller.signal });
    expect(result.step.fail?.reason).toBe("aborted");
    expectPaired(events);
    expect(events.at(-1)).toMatchObject({ type: "run-end", ok: false, fail: { reason: "aborted" } });
  });

  it("when the mission times out during a model call", async () => {
    const { events, onEvent } = collect();
    const model = createScriptedModel([() => never()]);
    const result = await run(createAgent({ prompt: "p", missionTimeout: 100 }), { llm: model.llm, onEvent });
    expect(result.step.fail?.reason).toBe("mission_timeout");
    expectPaired(events);
  });

  it("when a max-turns budget runs out in text mode", async () => {
    const { events, onEvent } = collect();
    const model = createScriptedModel([
      { toolCalls: [{ id: "a", name: "t", args: {} }] },
      { toolCalls: [{ id: "b", name: "t", args: {} }] },
    ]);
    const agent = createAgent({ prompt: "p", output: "text", maxTurns: 2, tools: { t: () => 1 } });
    const result = await run(agent, { llm: model.llm, onEvent });
    expect(result.step.fail?.reason).toBe("max_turns_exceeded");
    expectPaired(events);
  });

  it("when a child agent fails", async () => {
    const { events, onEvent } = collect();
    const parentModel = createScriptedModel([fenced("(tool/helper {})"), fenced("(return :gave-up)")]);
    const childModel = createScriptedModel([new Error("child model down")]);
    const child = createAgent({ prompt: "c", description: "helper", llm: childModel.llm });
    const parent = createAgent({ prompt: "p", tools: { helper: asTool(child) } });
    const result = await run(parent, { llm: parentModel.llm, onEvent });
    expect(result.step.return).toBe("gave-up");
    expectPaired(events);
    expect(ofType(events, "run-end").map((event) => event.ok)).toEqual([false, true]);
  });
});
