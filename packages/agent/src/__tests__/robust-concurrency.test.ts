/**
 * Many runs at once through the public API: runs sharing one agent, one tool function and one
 * model function keep their own tool cache, memory and events; a soak of mixed runs finishes
 * without errors or leaked abort listeners; a model closure's API key never shows up in a Step or
 * an event.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { type AgentEvent, createAgent, type ModelFunction, type ModelRequest, run } from "../index.js";

const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The run's id, read from the data/ listing of its first message. */
function runIdOf(request: ModelRequest): number {
  const text = request.messages.map((message) => message.content).join("\n");
  const match = /data\/id\s+; int, sample: (\d+)/.exec(text);
  if (match === null) throw new Error("no run id in the request");
  return Number(match[1]);
}

describe("100 runs at once sharing one agent, tool and model", () => {
  it("keep their own tool cache, memory and events", async () => {
    let executions = 0;
    const lookup = async (args: Record<string, unknown>) => {
      executions += 1;
      const value = executions;
      await tick(value % 3);
      return { value, key: args.key };
    };
    // One model for every run: it answers from what the run's own request says.
    const llm: ModelFunction = async (request) => {
      const id = runIdOf(request);
      await tick(id % 2);
      if (request.turn === 1) {
        return fenced(`(def mine data/id)\n(def first-value (:value (tool/lookup {:key "shared"})))`);
      }
      // Same arguments again: answered from this run's cache only.
      return fenced('(return {:id mine :first first-value :again (:value (tool/lookup {:key "shared"}))})');
    };
    // Each program's clock runs while the 99 other runs use the thread: a generous program timeout
    // keeps a loaded machine from cutting one off, which is not what this test is about.
    const agent = createAgent({
      prompt: "Look it up",
      timeout: 60_000,
      signature: "(id :int) -> {id :int, first :int, again :int}",
      tools: { lookup: { execute: lookup, cache: true, signature: "(key :string) -> {value :int}" } },
    });

    const eventsByRun = new Map<number, AgentEvent[]>();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, id) => {
        const events: AgentEvent[] = [];
        eventsByRun.set(id, events);
        return run(agent, {
          llm,
          context: { id },
          eventPayloads: true,
          onEvent: (event) => events.push(event),
        });
      }),
    );

    expect(results.every((result) => result.ok)).toBe(true);
    // Every run called the tool itself once; nothing came from another run's cache.
    expect(executions).toBe(100);
    const firstValues = results.map((result) => (result.step.return as { first: number }).first);
    expect(new Set(firstValues).size).toBe(100);
    results.forEach((result, id) => {
      const answer = result.step.return as { id: number; first: number; again: number };
      expect(answer.id).toBe(id);
      expect(answer.again).toBe(answer.first);
      expect(result.step.memory.mine).toBe(id);
      expect(result.step.toolCalls.map((call) => call.cached)).toEqual([false, true]);
      expect([...result.step.toolCache.values()].map((entry) => entry.result)).toEqual([
        { value: answer.first, key: "shared" },
      ]);
      const events = eventsByRun.get(id) ?? [];
      const runStarts = events.filter((event) => event.type === "run-start");
      expect(runStarts).toHaveLength(1);
      const runSpan = runStarts[0]?.spanId;
      for (const event of events.filter((e) => e.type === "turn-start"))
        expect(event.parentSpanId).toBe(runSpan);
      const llmStarts = events.filter((event) => event.type === "llm-call-start");
      for (const event of llmStarts) expect(JSON.stringify(event.messages)).toContain(`sample: ${id}`);
      expect(events.at(-1)?.type).toBe("run-end");
    });
  });
});

describe("a soak of 200 mixed runs", () => {
  it("finishes every run and leaves no abort listener behind", async () => {
    const controller = new AbortController();
    const { signal } = controller;
    const tools = {
      rows: { execute: async () => [{ n: 1 }, { n: 2 }], expose: "both" as const, cache: true },
      boom: () => {
        throw new Error("expected failure");
      },
    };
    // As above: programs wait while 19 other runs use the thread, so their clock is generous.
    const timeout = 60_000;
    const agents = {
      content: createAgent({ prompt: "p", timeout, tools }),
      toolCall: createAgent({
        prompt: "p",
        ptcTransport: "tool_call",
        signature: "() -> :int",
        timeout,
        tools,
      }),
      text: createAgent({ prompt: "p", output: "text", tools }),
      combined: createAgent({ prompt: "p", output: "text", ptcTransport: "tool_call", timeout, tools }),
    };
    const scripts: Record<keyof typeof agents, (turn: number) => unknown> = {
      content: (turn) =>
        turn === 1
          ? fenced("(def n (count (tool/rows {})))")
          : turn === 2
            ? fenced("(tool/boom {})")
            : fenced("(return (+ n (count (tool/rows {}))))"),
      toolCall: (turn) =>
        turn === 1
          ? {
              toolCalls: [
                { id: "a", name: "lisp_eval", args: { program: "(def n (count (tool/rows {})))" } },
              ],
            }
          : { toolCalls: [{ id: "b", name: "lisp_eval", args: { program: "(return (* n 2))" } }] },
      text: (turn) =>
        turn === 1
          ? {
              toolCalls: [
                { id: "a", name: "rows", args: {} },
                { id: "b", name: "boom", args: {} },
              ],
            }
          : "two rows",
      combined: (turn) =>
        turn === 1
          ? { toolCalls: [{ id: "a", name: "rows", args: {} }] }
          : turn === 2
            ? { toolCalls: [{ id: "b", name: "lisp_eval", args: { program: "(count (tool/rows {}))" } }] }
            : "two rows",
    };
    const kinds = Object.keys(agents) as (keyof typeof agents)[];
    const outcomes: boolean[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      for (let batch = 0; batch < 10; batch++) {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, index) => {
            const kind = kinds[(batch * 20 + index) % kinds.length] as keyof typeof agents;
            const llm: ModelFunction = async (request) => scripts[kind](request.turn ?? 1) as never;
            return run(agents[kind], { llm, signal, toolTimeoutMs: 10_000, collectMessages: true });
          }),
        );
        for (const result of results) outcomes.push(result.ok);
      }
      await tick(1);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    expect(outcomes).toHaveLength(200);
    expect(outcomes.every(Boolean)).toBe(true);
    expect(unhandled).toEqual([]);
    // Every run, model call and tool call removed its listener from the shared signal.
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});

describe("an API key held by the model function", () => {
  it("never appears in the Step or the events, even with payloads on", async () => {
    const apiKey = "sk-test-SECRET";
    const calls: string[] = [];
    const llm: ModelFunction = async (request) => {
      // A real adapter would send the key in a header; it stays in this closure.
      calls.push(`Bearer ${apiKey}`.length > 0 ? "sent" : "");
      return request.turn === 1
        ? fenced("(def rows (tool/rows {}))\n(println (count rows))")
        : fenced("(return (count rows))");
    };
    const events: AgentEvent[] = [];
    const agent = createAgent({ prompt: "Count", tools: { rows: () => [1, 2, 3] } });
    const result = await run(agent, {
      llm,
      collectMessages: true,
      eventPayloads: true,
      onEvent: (event) => events.push(event),
    });
    expect(result.step.return).toBe(3);
    expect(calls).toEqual(["sent", "sent"]);
    expect(JSON.stringify(result.step)).not.toContain("SECRET");
    expect(JSON.stringify(events)).not.toContain("SECRET");
  });

  it("never appears when the run fails or is aborted", async () => {
    const apiKey = "sk-test-SECRET";
    const failing: ModelFunction = async () => {
      const headers = { authorization: `Bearer ${apiKey}` };
      throw Object.assign(new Error("upstream returned 500"), { status: 500, request: { headers } });
    };
    const events: AgentEvent[] = [];
    const failed = await run(createAgent({ prompt: "p" }), {
      llm: failing,
      collectMessages: true,
      eventPayloads: true,
      llmRetry: { maxAttempts: 2, baseDelayMs: 1 },
      onEvent: (event) => events.push(event),
    });
    expect(failed.step.fail?.reason).toBe("llm_error");
    expect(JSON.stringify(failed.step)).not.toContain("SECRET");
    expect(JSON.stringify(events)).not.toContain("SECRET");

    const controller = new AbortController();
    const hanging: ModelFunction = (request) =>
      new Promise((_, reject) => {
        request.signal?.addEventListener("abort", () => reject(new Error(`aborted call with ${apiKey}`)));
        controller.abort();
      });
    const aborted = await run(createAgent({ prompt: "p" }), {
      llm: hanging,
      signal: controller.signal,
      collectMessages: true,
      eventPayloads: true,
      onEvent: (event) => events.push(event),
    });
    expect(aborted.step.fail?.reason).toBe("aborted");
    expect(JSON.stringify(aborted.step)).not.toContain("SECRET");
    expect(JSON.stringify(events)).not.toContain("SECRET");
  });
});
