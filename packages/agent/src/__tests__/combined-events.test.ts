/**
 * Tool-call events of the text modes: every app-tool call, native or from
 * a program, ends with a `tool-call-end` event that says which layer called it, whether the cache
 * answered and whether it failed; `lisp_eval` itself is a native call.
 */
import { describe, expect, it } from "vitest";
import {
  type AgentEvent,
  type AgentToolDefinition,
  createAgent,
  run,
  type ToolCallEndEvent,
} from "../index.js";
import { createScriptedModel, type ScriptedStep } from "../testing/index.js";

function tools(): Record<string, AgentToolDefinition> {
  return {
    cached_search: {
      signature: "(q :string) -> [:int]",
      expose: "both",
      cache: true,
      execute: () => [1, 2, 3],
    },
    flaky: {
      signature: "(q :string) -> :string",
      expose: "both",
      execute: () => {
        throw new Error("flaky failed");
      },
    },
    plain: { signature: "() -> :string", execute: () => "plain" },
  };
}

async function toolEnds(
  agentOptions: { output?: "text"; ptcTransport?: "tool_call" },
  steps: ScriptedStep[],
): Promise<{ events: ToolCallEndEvent[]; starts: AgentEvent[] }> {
  const agent = createAgent({ prompt: "Go.", maxTurns: 8, tools: tools(), ...agentOptions });
  const model = createScriptedModel(steps);
  const all: AgentEvent[] = [];
  await run(agent, { llm: model.llm, onEvent: (event) => all.push(event) });
  model.assertConsumed();
  return {
    events: all.filter((event): event is ToolCallEndEvent => event.type === "tool-call-end"),
    starts: all.filter((event) => event.type === "tool-call-start"),
  };
}

const summary = (event: ToolCallEndEvent) => ({
  tool: event.toolName,
  layer: event.exposureLayer,
  cached: event.cached,
  error: event.error,
});

describe("tool-call-end events", () => {
  it("covers native calls, lisp_eval, program calls, cache hits and failures in combined mode", async () => {
    const { events, starts } = await toolEnds({ output: "text", ptcTransport: "tool_call" }, [
      { toolCalls: [{ id: "a", name: "plain", args: {} }] },
      { toolCalls: [{ id: "b", name: "cached_search", args: { q: "x" } }] },
      { toolCalls: [{ id: "c", name: "flaky", args: { q: "x" } }] },
      {
        toolCalls: [
          { id: "d", name: "lisp_eval", args: { program: '(count (tool/cached_search {:q "x"}))' } },
        ],
      },
      { toolCalls: [{ id: "e", name: "lisp_eval", args: { program: '(tool/flaky {:q "x"})' } }] },
      { toolCalls: [{ id: "f", name: "lisp_eval", args: { program: '(tool/cached_search {:q "y"})' } }] },
      "done",
    ]);
    expect(events.map(summary)).toEqual([
      { tool: "plain", layer: "native", cached: false, error: false },
      { tool: "cached_search", layer: "native", cached: false, error: false },
      { tool: "flaky", layer: "native", cached: false, error: true },
      { tool: "cached_search", layer: "ptc_lisp", cached: true, error: false },
      { tool: "lisp_eval", layer: "native", cached: false, error: false },
      { tool: "flaky", layer: "ptc_lisp", cached: false, error: true },
      { tool: "lisp_eval", layer: "native", cached: false, error: true },
      { tool: "cached_search", layer: "ptc_lisp", cached: false, error: false },
      { tool: "lisp_eval", layer: "native", cached: false, error: false },
    ]);
    expect(events.find((event) => event.toolName === "flaky")?.errorMessage).toBe("flaky failed");
    expect(starts).toHaveLength(events.length);
    for (const event of events) {
      expect(typeof event.durationMs).toBe("number");
      expect(event.turn).toBeGreaterThan(0);
      // Each end pairs with the start of the same span.
      expect(starts.some((start) => start.spanId === event.spanId)).toBe(true);
    }
  });

  it("reports pure text mode calls as native", async () => {
    const { events } = await toolEnds({ output: "text" }, [
      {
        toolCalls: [
          { id: "a", name: "plain", args: {} },
          { id: "b", name: "flaky", args: { q: "x" } },
          { id: "c", name: "cached_search", args: { q: "x" } },
          { id: "d", name: "cached_search", args: { q: "x" } },
        ],
      },
      "done",
    ]);
    expect(events.map(summary)).toEqual([
      { tool: "plain", layer: "native", cached: false, error: false },
      { tool: "flaky", layer: "native", cached: false, error: true },
      { tool: "cached_search", layer: "native", cached: false, error: false },
      { tool: "cached_search", layer: "native", cached: false, error: false },
    ]);
  });

  it("reports program calls of the PTC-Lisp modes as ptc_lisp", async () => {
    const { events } = await toolEnds({}, [
      '```clojure\n(return [(tool/plain {}) (tool/cached_search {:q "x"})])\n```',
    ]);
    expect(events.map(summary)).toEqual([
      { tool: "plain", layer: "ptc_lisp", cached: false, error: false },
      { tool: "cached_search", layer: "ptc_lisp", cached: false, error: false },
    ]);
  });

  it("gives each lisp_eval call its own span, apart from its turn's", async () => {
    const agent = createAgent({ prompt: "Go.", output: "text", ptcTransport: "tool_call" });
    const model = createScriptedModel([
      { toolCalls: [{ id: "a", name: "lisp_eval", args: { program: "1" } }] },
      "done",
    ]);
    const all: AgentEvent[] = [];
    await run(agent, { llm: model.llm, onEvent: (event) => all.push(event) });
    const turnSpans = all.filter((event) => event.type === "turn-start").map((event) => event.spanId);
    const lispEval = all.find((event) => event.type === "tool-call-end");
    expect(lispEval).toBeDefined();
    expect(turnSpans).not.toContain(lispEval?.spanId);
    expect(turnSpans).toContain(lispEval?.parentSpanId);
  });
});
