import {
  type Context,
  type ContextManager,
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AgentEvent, asTool, createAgent, resume, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { combineListeners, createOtelListener, type OtelListenerOptions } from "./index.js";

// The root vitest config resolves with the "module" condition, and hands it to Node as well, so
// every load of @opentelemetry/api (ours and the SDK's own `require`) would pick its ESM build,
// whose extensionless imports Node cannot load. Load the CommonJS build by path instead, register
// it under the path the SDK resolves to, and serve it to the modules vitest loads through a mock:
// one copy of the API for this test, the bridge and the SDK.
const { api, sdk } = await vi.hoisted(async () => {
  const { createRequire } = await import("node:module");
  const require = createRequire(import.meta.url);
  const resolved = require.resolve("@opentelemetry/api");
  const commonJs = resolved.replace(/build([\\/])esm[\\/]index\.js$/, "build$1src$1index.js");
  const api = require(commonJs) as typeof import("@opentelemetry/api");
  require.cache[resolved] = require.cache[commonJs];
  const sdk = require("@opentelemetry/sdk-trace-base") as typeof import("@opentelemetry/sdk-trace-base");
  return { api, sdk };
});
vi.mock("@opentelemetry/api", () => api);
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = sdk;

function setup(options: OtelListenerOptions = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const listener = createOtelListener({ tracer: provider.getTracer("ptc-test"), ...options });
  const events: AgentEvent[] = [];
  const onEvent = combineListeners(listener, (event) => events.push(event));
  return { exporter, provider, listener, events, onEvent, spans: () => exporter.getFinishedSpans() };
}

function named(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = named(spans, name);
  expect(found).toHaveLength(1);
  return found[0] as ReadableSpan;
}

function idOf(span: ReadableSpan): string {
  return span.spanContext().spanId;
}

function parentIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

function millisecondsOf(time: readonly [number, number]): number {
  return time[0] * 1000 + Math.round(time[1] / 1e6);
}

const PAYLOAD_ATTRIBUTES = [
  "ptc.llm.system",
  "ptc.llm.messages",
  "ptc.llm.response",
  "ptc.tool.args",
  "ptc.tool.result",
  "ptc.turn.program",
];

function payloadAttributesOf(spans: readonly ReadableSpan[]): string[] {
  return spans.flatMap((span) =>
    Object.keys(span.attributes).filter((key) => PAYLOAD_ATTRIBUTES.includes(key)),
  );
}

function ordersAgent() {
  return createAgent({
    prompt: "What is the total of order 7?",
    name: "orders",
    tools: {
      lookup: {
        execute: ({ id }: { id: number }) => ({ id, total: 21 }),
        signature: "(id :int) -> {id :int, total :int}",
        description: "Looks an order up by id.",
      },
    },
  });
}

function ordersModel() {
  return createScriptedModel([
    {
      content: "```clojure\n(return (:total (tool/lookup {:id 7})))\n```",
      tokens: { input: 100, output: 20 },
    },
  ]);
}

describe("createOtelListener", () => {
  it("traces a content-mode run as run → turn → model call and tool call spans", async () => {
    const { onEvent, spans, events, listener } = setup();
    const model = ordersModel();

    const result = await run(ordersAgent(), { llm: model.llm, onEvent });

    expect(result.ok).toBe(true);
    model.assertConsumed();
    const all = spans();
    expect(all.map((span) => span.name).sort()).toEqual([
      "ptc.agent.llm_call",
      "ptc.agent.run",
      "ptc.agent.tool_call",
      "ptc.agent.turn",
    ]);
    const runSpan = only(all, "ptc.agent.run");
    const turn = only(all, "ptc.agent.turn");
    const llmCall = only(all, "ptc.agent.llm_call");
    const toolCall = only(all, "ptc.agent.tool_call");

    expect(parentIdOf(runSpan)).toBeUndefined();
    expect(parentIdOf(turn)).toBe(idOf(runSpan));
    expect(parentIdOf(llmCall)).toBe(idOf(turn));
    expect(parentIdOf(toolCall)).toBe(idOf(turn));
    expect(new Set(all.map((span) => span.spanContext().traceId)).size).toBe(1);

    expect(runSpan.attributes).toMatchObject({
      "ptc.agent.name": "orders",
      "ptc.run.depth": 0,
      "ptc.run.mode": "ptc_lisp",
      "ptc.run.ok": true,
      "ptc.usage.turns": 1,
      "ptc.usage.llm_requests": 1,
      "ptc.usage.input_tokens": 100,
      "ptc.usage.output_tokens": 20,
      "ptc.usage.total_tokens": 120,
    });
    expect(runSpan.attributes["ptc.agent.id"]).toMatch(/^[0-9a-f]{8}$/);
    expect(runSpan.attributes).not.toHaveProperty("ptc.run.fail.reason");
    expect(turn.attributes).toMatchObject({
      "ptc.agent.name": "orders",
      "ptc.turn.number": 1,
      "ptc.turn.type": "normal",
      "ptc.turn.tools_count": 1,
      "ptc.turn.success": true,
      "ptc.usage.input_tokens": 100,
      "ptc.usage.output_tokens": 20,
    });
    expect(llmCall.kind).toBe(SpanKind.CLIENT);
    expect(llmCall.attributes).toMatchObject({
      "ptc.turn.number": 1,
      "ptc.llm.attempt": 1,
      "ptc.llm.message_count": 1,
      "ptc.llm.ok": true,
      "ptc.usage.input_tokens": 100,
      "ptc.usage.output_tokens": 20,
    });
    expect(toolCall.attributes).toMatchObject({
      "ptc.tool.name": "lookup",
      "ptc.tool.exposure_layer": "ptc_lisp",
      "ptc.tool.cached": false,
      "ptc.tool.error": false,
      "ptc.turn.number": 1,
    });
    expect(typeof toolCall.attributes["ptc.tool.duration_ms"]).toBe("number");
    for (const span of all) expect(span.status.code).toBe(SpanStatusCode.UNSET);

    const runStart = events.find((event) => event.type === "run-start");
    const runEnd = events.find((event) => event.type === "run-end");
    expect(millisecondsOf(runSpan.startTime)).toBe(runStart?.timestamp);
    expect(millisecondsOf(runSpan.endTime)).toBe(runEnd?.timestamp);
    expect(listener.endOpenSpans()).toBe(0);
  });

  it("marks a failed run, its failed model call and a failed tool call as errors", async () => {
    const { onEvent, spans } = setup();
    const agent = createAgent({
      prompt: "Count the stock.",
      name: "stock",
      maxTurns: 2,
      tools: {
        count_stock: {
          execute: () => {
            throw new Error("warehouse offline");
          },
          signature: "() -> :int",
          description: "Counts the stock.",
        },
      },
    });
    const model = createScriptedModel([
      "```clojure\n(return (tool/count_stock {}))\n```",
      new Error("upstream exploded"),
    ]);

    const result = await run(agent, { llm: model.llm, onEvent });

    expect(result.ok).toBe(false);
    const all = spans();
    const runSpan = only(all, "ptc.agent.run");
    const toolCall = only(all, "ptc.agent.tool_call");
    const [firstCall, secondCall] = named(all, "ptc.agent.llm_call").sort(
      (a, b) => millisecondsOf(a.startTime) - millisecondsOf(b.startTime),
    );
    const turns = named(all, "ptc.agent.turn");
    expect(turns.map((turn) => turn.attributes["ptc.turn.success"])).toEqual([false, false]);

    expect(toolCall.status.code).toBe(SpanStatusCode.ERROR);
    expect(toolCall.status.message).toContain("warehouse offline");
    expect(toolCall.attributes["ptc.tool.error"]).toBe(true);
    expect(firstCall?.status.code).toBe(SpanStatusCode.UNSET);
    expect(secondCall?.status.code).toBe(SpanStatusCode.ERROR);
    expect(secondCall?.status.message).toContain("upstream exploded");
    expect(secondCall?.attributes["ptc.llm.ok"]).toBe(false);

    expect(runSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(runSpan.attributes["ptc.run.ok"]).toBe(false);
    expect(runSpan.attributes["ptc.run.fail.reason"]).toBe(result.step.fail?.reason);
    expect(runSpan.attributes["ptc.run.fail.message"]).toBe(result.step.fail?.message);
    expect(runSpan.status.message).toBe(result.step.fail?.message);
  });

  it("nests a child agent's run under the tool call that started it", async () => {
    const { onEvent, spans, listener } = setup();
    const doubler = createAgent({
      prompt: "Double {{n}}.",
      name: "doubler",
      signature: "(n :int) -> :int",
      description: "Doubles a number.",
    });
    const parent = createAgent({
      prompt: "What is 21 doubled?",
      name: "parent",
      tools: { double: asTool(doubler) },
    });
    const model = createScriptedModel([
      { content: "```clojure\n(return (tool/double {:n 21}))\n```", tokens: { input: 100, output: 20 } },
      { content: "```clojure\n(return (* 2 data/n))\n```", tokens: { input: 50, output: 5 } },
    ]);

    const result = await run(parent, { llm: model.llm, onEvent });

    expect(result.ok).toBe(true);
    expect(result.step.return).toBe(42);
    const all = spans();
    expect(all).toHaveLength(7);
    const runs = named(all, "ptc.agent.run");
    const parentRun = runs.find((span) => span.attributes["ptc.agent.name"] === "parent") as ReadableSpan;
    const childRun = runs.find((span) => span.attributes["ptc.agent.name"] === "doubler") as ReadableSpan;
    const toolCall = only(all, "ptc.agent.tool_call");
    const childTurn = named(all, "ptc.agent.turn").find((span) => parentIdOf(span) === idOf(childRun));
    const childCall = named(all, "ptc.agent.llm_call").find(
      (span) => span.attributes["ptc.agent.name"] === "doubler",
    );

    expect(parentIdOf(parentRun)).toBeUndefined();
    expect(toolCall.attributes["ptc.tool.name"]).toBe("double");
    expect(parentIdOf(childRun)).toBe(idOf(toolCall));
    expect(childRun.attributes).toMatchObject({
      "ptc.run.depth": 1,
      "ptc.run.ok": true,
      "ptc.usage.input_tokens": 50,
    });
    expect(childRun.attributes["ptc.agent.id"]).not.toBe(parentRun.attributes["ptc.agent.id"]);
    expect(childTurn).toBeDefined();
    expect(parentIdOf(childCall as ReadableSpan)).toBe(idOf(childTurn as ReadableSpan));
    expect(new Set(all.map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(listener.endOpenSpans()).toBe(0);
  });

  it("records no inputs or outputs by default, even when the run sends payloads", async () => {
    const { onEvent, spans, events } = setup();
    const model = ordersModel();

    await run(ordersAgent(), { llm: model.llm, onEvent, eventPayloads: true });

    expect(events.some((event) => event.type === "tool-call-end" && event.result !== undefined)).toBe(true);
    expect(spans()).toHaveLength(4);
    expect(payloadAttributesOf(spans())).toEqual([]);
  });

  it("records inputs and outputs when asked and the run sends payloads", async () => {
    const { onEvent, spans } = setup({ recordInputs: true, recordOutputs: true });
    const model = ordersModel();

    await run(ordersAgent(), { llm: model.llm, onEvent, eventPayloads: true });

    const all = spans();
    const llmCall = only(all, "ptc.agent.llm_call");
    const toolCall = only(all, "ptc.agent.tool_call");
    expect(llmCall.attributes["ptc.llm.system"]).toBe(model.calls[0]?.system);
    expect(JSON.parse(String(llmCall.attributes["ptc.llm.messages"]))).toEqual(model.calls[0]?.messages);
    expect(JSON.parse(String(llmCall.attributes["ptc.llm.response"]))).toMatchObject({
      content: "```clojure\n(return (:total (tool/lookup {:id 7})))\n```",
    });
    expect(JSON.parse(String(toolCall.attributes["ptc.tool.args"]))).toEqual({ id: 7 });
    expect(JSON.parse(String(toolCall.attributes["ptc.tool.result"]))).toEqual({ id: 7, total: 21 });
    expect(only(all, "ptc.agent.turn").attributes["ptc.turn.program"]).toBe(
      "(return (:total (tool/lookup {:id 7})))",
    );
  });

  it("records only the side that was opted into", async () => {
    const { onEvent, spans } = setup({ recordInputs: true });
    const model = ordersModel();

    await run(ordersAgent(), { llm: model.llm, onEvent, eventPayloads: true });

    expect(payloadAttributesOf(spans()).sort()).toEqual([
      "ptc.llm.messages",
      "ptc.llm.system",
      "ptc.tool.args",
    ]);
  });

  it("records no payloads the events do not carry, so nothing but programs without eventPayloads", async () => {
    const { onEvent, spans } = setup({ recordInputs: true, recordOutputs: true });
    const model = ordersModel();

    await run(ordersAgent(), { llm: model.llm, onEvent });

    expect(payloadAttributesOf(spans())).toEqual(["ptc.turn.program"]);
  });

  it("adds a compaction as an event on the turn it happened in", async () => {
    const { onEvent, spans, events } = setup();
    const agent = createAgent({
      prompt: "Keep working.",
      maxTurns: 4,
      compaction: { trigger: { turns: 2 }, keepRecentTurns: 1 },
    });
    const model = createScriptedModel([
      "```clojure\n(def a 1)\n```",
      "```clojure\n(def b 2)\n```",
      "```clojure\n(return (+ a b))\n```",
    ]);

    const result = await run(agent, { llm: model.llm, onEvent });

    expect(result.ok).toBe(true);
    const compaction = events.find((event) => event.type === "compaction");
    expect(compaction).toBeDefined();
    const turns = named(spans(), "ptc.agent.turn");
    const withEvents = turns.filter((turn) => turn.events.length > 0);
    expect(withEvents).toHaveLength(1);
    const [turn] = withEvents as [ReadableSpan];
    expect(turn.attributes["ptc.turn.number"]).toBe(compaction?.type === "compaction" ? compaction.turn : -1);
    expect(turn.events[0]?.name).toBe("ptc.compaction");
    expect(turn.events[0]?.attributes).toMatchObject({
      "ptc.compaction.strategy": "trim",
      "ptc.compaction.reason": "turns",
      "ptc.turn.number": 3,
    });
    expect(millisecondsOf(turn.events[0]?.time as [number, number])).toBe(compaction?.timestamp);
    expect(only(spans(), "ptc.agent.run").events).toEqual([]);
  });

  it("adds a native preview fallback outside any turn to the run span", () => {
    const { listener, spans } = setup();
    const base = { agentName: "a", agentId: "0000000a", timestamp: 1_700_000_000_000 } as const;

    listener({ ...base, type: "run-start", spanId: "r1", parentSpanId: null, depth: 0, mode: "text" });
    listener({
      ...base,
      type: "native-preview-fallback",
      spanId: "f1",
      parentSpanId: "r1",
      toolName: "search",
      category: "raised",
      message: "preview failed",
    });
    listener({ ...base, ...runEnd(true), spanId: "r1", parentSpanId: null });

    const runSpan = only(spans(), "ptc.agent.run");
    expect(runSpan.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        "ptc.native_preview_fallback",
        {
          "ptc.tool.name": "search",
          "ptc.native_preview.category": "raised",
          "ptc.native_preview.message": "preview failed",
        },
      ],
    ]);
  });

  it("ends an aborted run's span as an error", async () => {
    const { onEvent, spans, listener } = setup();
    const controller = new AbortController();
    const agent = createAgent({
      prompt: "Wait for the report.",
      tools: {
        wait_for_report: {
          execute: () => {
            controller.abort();
            return new Promise<never>(() => {});
          },
          signature: "() -> :int",
          description: "Waits for the report.",
        },
      },
    });
    const model = createScriptedModel(["```clojure\n(return (tool/wait_for_report {}))\n```"]);

    const result = await run(agent, { llm: model.llm, signal: controller.signal, onEvent });

    expect(result.step.fail?.reason).toBe("aborted");
    const runSpan = only(spans(), "ptc.agent.run");
    expect(runSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(runSpan.attributes["ptc.run.fail.reason"]).toBe("aborted");
    expect(only(spans(), "ptc.agent.tool_call").status.code).toBe(SpanStatusCode.ERROR);
    expect(listener.endOpenSpans()).toBe(0);
  });

  it("ends the spans a run leaves open when the run ends", () => {
    const { listener, spans } = setup();
    const base = { agentName: "a", agentId: "0000000a" } as const;
    const at = (seconds: number) => 1_700_000_000_000 + seconds * 1000;

    listener({
      ...base,
      type: "run-start",
      spanId: "r1",
      parentSpanId: null,
      timestamp: at(0),
      depth: 0,
      mode: "ptc_lisp",
    });
    listener({
      ...base,
      type: "turn-start",
      spanId: "t1",
      parentSpanId: "r1",
      timestamp: at(1),
      turn: 1,
      turnType: "normal",
      toolsCount: 1,
    });
    listener({
      ...base,
      type: "tool-call-start",
      spanId: "c1",
      parentSpanId: "t1",
      timestamp: at(2),
      toolName: "search",
      exposureLayer: "native",
      turn: 1,
    });
    expect(spans()).toEqual([]);
    listener({ ...base, ...runEnd(false), spanId: "r1", parentSpanId: null, timestamp: at(5) });

    const all = spans();
    expect(all.map((span) => span.name)).toEqual(["ptc.agent.tool_call", "ptc.agent.turn", "ptc.agent.run"]);
    for (const span of all) expect(millisecondsOf(span.endTime)).toBe(at(5));
    expect(only(all, "ptc.agent.tool_call").attributes["ptc.incomplete"]).toBe(true);
    expect(only(all, "ptc.agent.turn").attributes["ptc.incomplete"]).toBe(true);
    const runSpan = only(all, "ptc.agent.run");
    expect(runSpan.attributes).not.toHaveProperty("ptc.incomplete");
    expect(runSpan.status).toEqual({ code: SpanStatusCode.ERROR, message: "Run aborted" });
    expect(runSpan.attributes["ptc.run.fail.reason"]).toBe("aborted");
    expect(listener.endOpenSpans()).toBe(0);
  });

  it("nests a tool call whose parent span was never announced under its agent's open turn", () => {
    const { listener, spans } = setup();
    const base = { agentName: "a", agentId: "0000000a", timestamp: 1_700_000_000_000 } as const;
    const toolCall = (spanId: string, type: "tool-call-start" | "tool-call-end") =>
      type === "tool-call-start"
        ? ({
            ...base,
            type,
            spanId,
            parentSpanId: "program",
            toolName: "search",
            exposureLayer: "ptc_lisp",
            turn: 1,
          } as const)
        : ({
            ...base,
            type,
            spanId,
            parentSpanId: "program",
            toolName: "search",
            exposureLayer: "ptc_lisp",
            turn: 1,
            cached: false,
            error: false,
            durationMs: 1,
          } as const);

    listener({ ...base, type: "run-start", spanId: "r1", parentSpanId: null, depth: 0, mode: "ptc_lisp" });
    listener({
      ...base,
      type: "turn-start",
      spanId: "t1",
      parentSpanId: "r1",
      turn: 1,
      turnType: "normal",
      toolsCount: 1,
    });
    listener(toolCall("c1", "tool-call-start"));
    listener(toolCall("c1", "tool-call-end"));
    listener(toolCall("c2", "tool-call-start"));
    listener(toolCall("c2", "tool-call-end"));
    listener({
      ...base,
      type: "turn-end",
      spanId: "t1",
      parentSpanId: "r1",
      turn: 1,
      turnType: "normal",
      success: true,
      program: null,
      durationMs: 1,
    });
    listener({ ...base, ...runEnd(true), spanId: "r1", parentSpanId: null });

    const all = spans();
    const turn = only(all, "ptc.agent.turn");
    expect(named(all, "ptc.agent.tool_call").map(parentIdOf)).toEqual([idOf(turn), idOf(turn)]);
    expect(listener.endOpenSpans()).toBe(0);
  });

  it("ends every open span on endOpenSpans", () => {
    const { listener, spans } = setup();
    const base = { agentName: undefined, agentId: "0000000a", timestamp: 1_700_000_000_000 } as const;

    listener({ ...base, type: "run-start", spanId: "r1", parentSpanId: null, depth: 0, mode: "text" });
    listener({
      ...base,
      type: "llm-call-start",
      spanId: "l1",
      parentSpanId: "r1",
      turn: undefined,
      attempt: 1,
      messageCount: 1,
    });

    expect(listener.endOpenSpans(1_700_000_001_000)).toBe(2);
    expect(spans().map((span) => [span.name, span.attributes["ptc.incomplete"]])).toEqual([
      ["ptc.agent.llm_call", true],
      ["ptc.agent.run", true],
    ]);
    expect(only(spans(), "ptc.agent.run").attributes).not.toHaveProperty("ptc.agent.name");
    expect(listener.endOpenSpans()).toBe(0);
  });

  describe("with a context manager", () => {
    afterEach(() => {
      context.disable();
      trace.disable();
    });

    it("nests a top-level run under the span active when it starts", () => {
      context.setGlobalContextManager(new StackContextManager());
      const { listener, spans, provider } = setup();
      const outer = provider.getTracer("app").startSpan("handle-request");
      const base = { agentName: "a", agentId: "0000000a", timestamp: 1_700_000_000_000 } as const;

      context.with(trace.setSpan(context.active(), outer), () =>
        listener({ ...base, type: "run-start", spanId: "r1", parentSpanId: null, depth: 0, mode: "text" }),
      );
      listener({ ...base, ...runEnd(true), spanId: "r1", parentSpanId: null });
      outer.end();

      const runSpan = only(spans(), "ptc.agent.run");
      expect(parentIdOf(runSpan)).toBe(outer.spanContext().spanId);
      expect(runSpan.spanContext().traceId).toBe(outer.spanContext().traceId);
    });

    it("uses the global tracer provider by default, under the given tracer name", () => {
      const { provider, spans } = setup();
      trace.setGlobalTracerProvider(provider);
      const listener = createOtelListener({ tracerName: "my-service" });
      const base = { agentName: "a", agentId: "0000000a", timestamp: 1_700_000_000_000 } as const;

      listener({ ...base, type: "run-start", spanId: "r1", parentSpanId: null, depth: 0, mode: "text" });
      listener({ ...base, ...runEnd(true), spanId: "r1", parentSpanId: null });

      expect(only(spans(), "ptc.agent.run").instrumentationScope.name).toBe("my-service");
    });
  });
});

function runEnd(ok: boolean) {
  return {
    type: "run-end",
    ok,
    fail: ok ? null : { reason: "aborted", message: "Run aborted" },
    usage: { durationMs: 5000, turns: 1, llmRequests: 0 },
    durationMs: 5000,
  } as const;
}

/** A synchronous context manager: enough for a test that starts a run inside `context.with`. */
class StackContextManager implements ContextManager {
  private stack: Context[] = [];

  active(): Context {
    return this.stack.at(-1) ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    active: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    this.stack.push(active);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.stack.pop();
    }
  }

  bind<T>(_context: Context, target: T): T {
    return target;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.stack = [];
    return this;
  }
}

describe("a run that pauses for approval, and its resume", () => {
  it("marks the paused run's span as paused (not an error) and records approval and resume span events", async () => {
    const { onEvent, spans } = setup({ recordInputs: true });
    const agent = createAgent({
      prompt: "Refund",
      tools: {
        refund: { signature: "(id :int) -> :map", needsApproval: true, execute: () => ({ ok: true }) },
      },
    });
    const model = createScriptedModel(["```clojure\n(return (tool/refund {:id 7}))\n```"]);
    const first = await run(agent, { llm: model.llm, onEvent, eventPayloads: true });
    if (!first.paused) throw new Error("expected a pause");
    const paused = only(spans(), "ptc.agent.run");
    expect(paused.status.code).toBe(SpanStatusCode.UNSET);
    expect(paused.attributes["ptc.run.paused"]).toBe(true);
    const turn = only(spans(), "ptc.agent.turn");
    expect(turn.events.map((event) => [event.name, event.attributes?.["ptc.approval.id"]])).toEqual([
      ["ptc.approval_requested", first.pending[0]?.id],
    ]);
    expect(turn.events[0]?.attributes?.["ptc.tool.args"]).toBe('{"id":7}');

    await resume(agent, first.state, { llm: model.llm, onEvent, approve: [first.pending[0]?.id ?? ""] });
    const runs = named(spans(), "ptc.agent.run");
    expect(runs).toHaveLength(2);
    const resumed = runs[1] as ReadableSpan;
    expect(resumed.status.code).toBe(SpanStatusCode.UNSET);
    expect(resumed.events.map((event) => event.name)).toEqual(["ptc.run_resumed"]);
    expect(resumed.events[0]?.attributes?.["ptc.approval.approved"]).toEqual([first.pending[0]?.id]);
    expect(named(spans(), "ptc.agent.tool_call")).toHaveLength(1);
  });
});

describe("hostile values and tracers", () => {
  function vaultAgent() {
    return createAgent({
      prompt: "Read the vault.",
      name: "vault",
      tools: {
        vault: {
          execute: () => ({ apiKey: "sk-SECRET-1234", rows: "x".repeat(50_000) }),
          signature: "() -> :map",
          description: "Reads the vault.",
        },
      },
    });
  }
  const failWithToolResult = () => createScriptedModel(["```clojure\n(fail (tool/vault {}))\n```"]);

  function recorded(spans: readonly ReadableSpan[]): string {
    return JSON.stringify(
      spans.map((span) => [span.attributes, span.status, span.events.map((event) => event.attributes)]),
    );
  }

  it("keeps a (fail v) value, program data, out of the run span unless outputs are recorded", async () => {
    const { onEvent, spans } = setup();
    const result = await run(vaultAgent(), { llm: failWithToolResult().llm, onEvent });

    expect(result.step.fail?.reason).toBe("failed");
    expect(result.step.fail?.message).toContain("sk-SECRET-1234");
    const runSpan = only(spans(), "ptc.agent.run");
    expect(runSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(runSpan.attributes["ptc.run.fail.reason"]).toBe("failed");
    expect(recorded(spans())).not.toContain("sk-SECRET");
  });

  it("records the (fail v) value with recordOutputs", async () => {
    const { onEvent, spans } = setup({ recordOutputs: true });
    const result = await run(vaultAgent(), { llm: failWithToolResult().llm, onEvent });

    const runSpan = only(spans(), "ptc.agent.run");
    expect(runSpan.attributes["ptc.run.fail.message"]).toBe(result.step.fail?.message);
    expect(runSpan.status.message).toBe(result.step.fail?.message);
  });

  it("neither throws nor keeps spans when every span method of the tracer throws", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const real = provider.getTracer("hostile");
    const throwing = (span: object) =>
      new Proxy(span, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver);
          if (typeof value !== "function" || key === "spanContext" || key === "isRecording") return value;
          return () => {
            throw new Error(`span.${String(key)} exploded`);
          };
        },
      });
    const tracer = {
      startSpan: (...args: Parameters<typeof real.startSpan>) => throwing(real.startSpan(...args)),
      startActiveSpan: real.startActiveSpan.bind(real),
    } as typeof real;
    const listener = createOtelListener({ tracer, recordInputs: true, recordOutputs: true });
    const events: AgentEvent[] = [];
    const model = ordersModel();

    await run(ordersAgent(), { llm: model.llm, onEvent: (event) => events.push(event), eventPayloads: true });

    expect(events.length).toBeGreaterThan(4);
    for (const event of events) expect(() => listener(event)).not.toThrow();
    expect(listener.endOpenSpans()).toBe(0);
  });
});
