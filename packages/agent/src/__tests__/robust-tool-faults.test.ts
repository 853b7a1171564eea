/**
 * Tools misbehaving, through the public API: they throw, hang past their timeout, return huge or
 * cyclic results, or values JSON cannot hold. Each becomes something the model can read (a tool
 * error or readable JSON) and the run goes on; none crashes the run.
 */

import { getEventListeners } from "node:events";
import { createTool } from "@ptc/tool";
import { describe, expect, it } from "vitest";
import { type AgentEvent, asTool, createAgent, type Message, type ModelRequest, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;
const lastContent = (messages: readonly Message[] | undefined) => messages?.at(-1)?.content ?? "";
const toolMessages = (messages: readonly Message[] | undefined) =>
  (messages ?? []).filter((message) => message.role === "tool");

function hangingTool() {
  const seen: AbortSignal[] = [];
  return {
    seen,
    execute: (_args: unknown, { signal }: { signal?: AbortSignal }) => {
      if (signal !== undefined) seen.push(signal);
      return never();
    },
  };
}

describe("tool timeouts", () => {
  it("turns a tool overrunning its own timeoutMs into a tool_error the program's feedback shows", async () => {
    const slow = hangingTool();
    const model = createScriptedModel([fenced("(def r (tool/slow {}))"), fenced("(return :recovered)")]);
    const agent = createAgent({
      prompt: "p",
      tools: { slow: { execute: slow.execute, timeoutMs: 5 } },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe("recovered");
    const feedback = lastContent(model.calls[1]?.messages);
    expect(feedback).toContain('tool \\"slow\\" timed out after 5 ms');
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "tool_error" } });
    expect(result.step.toolCalls[0]?.error).toContain("timed out after 5 ms");
    expect(slow.seen).toHaveLength(1);
    expect(slow.seen[0]?.aborted).toBe(true);
    expect(slow.seen[0]?.reason).toBeInstanceOf(Error);
    model.assertConsumed();
  });

  it("applies the run's toolTimeoutMs to tools without their own", async () => {
    const slow = hangingTool();
    const model = createScriptedModel([fenced("(tool/slow {})"), fenced("(return 1)")]);
    const agent = createAgent({ prompt: "p", tools: { slow: slow.execute } });
    const result = await run(agent, { llm: model.llm, toolTimeoutMs: 5 });
    expect(result.ok).toBe(true);
    expect(lastContent(model.calls[1]?.messages)).toContain("timed out after 5 ms");
    expect(slow.seen[0]?.aborted).toBe(true);
  });

  it("applies the agent's toolTimeoutMs, and a tool's own timeoutMs wins over the default", async () => {
    const slow = hangingTool();
    const model = createScriptedModel([
      fenced("(tool/slow {})"),
      fenced("(tool/own {})"),
      fenced("(return 1)"),
    ]);
    const agent = createAgent({
      prompt: "p",
      toolTimeoutMs: 7,
      tools: { slow: slow.execute, own: { execute: slow.execute, timeoutMs: 3 } },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(lastContent(model.calls[1]?.messages)).toContain("timed out after 7 ms");
    expect(lastContent(model.calls[2]?.messages)).toContain("timed out after 3 ms");
    expect(slow.seen.map((signal) => signal.aborted)).toEqual([true, true]);
  });

  it("the run option wins over the agent's toolTimeoutMs", async () => {
    const slow = hangingTool();
    const model = createScriptedModel([fenced("(tool/slow {})"), fenced("(return 1)")]);
    const agent = createAgent({ prompt: "p", toolTimeoutMs: 600_000, tools: { slow: slow.execute } });
    const result = await run(agent, { llm: model.llm, toolTimeoutMs: 4 });
    expect(result.ok).toBe(true);
    expect(lastContent(model.calls[1]?.messages)).toContain("timed out after 4 ms");
  });

  it("natively in text mode, answers the call with {error} and the run continues", async () => {
    const slow = hangingTool();
    const model = createScriptedModel([
      { toolCalls: [{ id: "call_1", name: "slow", args: { q: "x" } }] },
      "Could not look it up in time.",
    ]);
    const agent = createAgent({
      prompt: "p",
      output: "text",
      tools: { slow: { execute: slow.execute, timeoutMs: 5 } },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe("Could not look it up in time.");
    const [answer] = toolMessages(model.calls[1]?.messages);
    expect(answer?.toolCallId).toBe("call_1");
    const parsed = JSON.parse(answer?.content ?? "{}");
    expect(parsed.error).toContain('tool "slow" timed out after 5 ms');
    expect(parsed.tool).toBe("slow");
    expect(slow.seen[0]?.aborted).toBe(true);
  });

  it("in the tool_call transport, the timeout reaches the lisp_eval result", async () => {
    const slow = hangingTool();
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "lisp_eval", args: { program: "(tool/slow {})" } }] },
      '{"ok": true}',
    ]);
    const agent = createAgent({
      prompt: "p",
      ptcTransport: "tool_call",
      signature: "() -> {ok :bool}",
      tools: { slow: { execute: slow.execute, timeoutMs: 5 } },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    const [answer] = toolMessages(model.calls[1]?.messages);
    expect(answer?.content).toContain("timed out after 5 ms");
    expect(JSON.parse(answer?.content ?? "{}").status).toBe("error");
  });
});

describe("the mission deadline and hanging tools", () => {
  // The deadline must fall after the program has reached its tool call: a second leaves room for
  // a loaded machine, and the assertions hold however late the deadline fires.
  it("ends a program waiting on a tool without a timeout of its own, and aborts the tool", async () => {
    const slow = hangingTool();
    const model = createScriptedModel([fenced("(tool/slow {})")]);
    const agent = createAgent({
      prompt: "p",
      missionTimeout: 1000,
      timeout: 600_000,
      tools: { slow: slow.execute },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.fail?.reason).toBe("mission_timeout");
    expect(slow.seen[0]?.aborted).toBe(true);
    expect(result.step.toolCalls[0]?.error).toEqual(expect.any(String));
    expect(result.step.turns).toHaveLength(1);
  });

  it("ends a native call to a tool without a timeout of its own (text mode)", async () => {
    const slow = hangingTool();
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "slow", args: {} }] }]);
    const agent = createAgent({
      prompt: "p",
      output: "text",
      missionTimeout: 1000,
      tools: { slow: slow.execute },
    });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    expect(result.step.fail?.reason).toBe("mission_timeout");
    expect(slow.seen[0]?.aborted).toBe(true);
    // The call is still answered in the transcript.
    expect(toolMessages(result.step.messages ?? undefined).map((message) => message.toolCallId)).toEqual([
      "a",
    ]);
  });

  it("cuts a long-running program off at the mission deadline", async () => {
    const model = createScriptedModel([fenced("(loop [i 0] (recur (inc i)))")]);
    const agent = createAgent({
      prompt: "p",
      missionTimeout: 1000,
      timeout: 600_000,
      limits: { maxIterations: 1e12 },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.fail?.reason).toBe("mission_timeout");
    expect(result.step.turns).toHaveLength(1);
  });
});

describe("a program that ends while its tools still run", () => {
  // The program's timeout must fall after it has called its tool (or started its child): a second
  // leaves room for a loaded machine.
  it("a program timeout stops a hanging tool, records the call and leaves no abort listener", async () => {
    const slow = hangingTool();
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const model = createScriptedModel([fenced("(tool/slow {})"), fenced("(return :next)")]);
    const agent = createAgent({ prompt: "p", timeout: 1000, tools: { slow: slow.execute } });
    const result = await run(agent, {
      llm: model.llm,
      signal: controller.signal,
      onEvent: (event) => events.push(event),
    });
    expect(result.step.return).toBe("next");
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "timeout" } });
    expect(slow.seen[0]?.aborted).toBe(true);
    expect(result.step.toolCalls).toMatchObject([{ name: "slow", error: expect.any(String) }]);
    const ends = events.filter((event) => event.type === "tool-call-end");
    expect(ends).toHaveLength(1);
    const firstTurnEnd = events.findIndex((event) => event.type === "turn-end");
    expect(events.indexOf(ends[0] as AgentEvent)).toBeLessThan(firstTurnEnd);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a failing branch of pcalls stops the other branch's hanging tool", async () => {
    const slow = hangingTool();
    const model = createScriptedModel([
      fenced("(pcalls #(tool/slow {}) #(tool/boom {}))"),
      fenced("(return 1)"),
    ]);
    const agent = createAgent({
      prompt: "p",
      timeout: 600_000,
      pmapTimeout: 600_000,
      tools: {
        slow: slow.execute,
        boom: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          throw new Error("branch failed");
        },
      },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toBe(1);
    expect(lastContent(model.calls[1]?.messages)).toContain("branch failed");
    expect(slow.seen[0]?.aborted).toBe(true);
  });

  it("a program timeout stops a child agent the program is waiting on", async () => {
    let childRequest: ModelRequest | undefined;
    const childModel = createScriptedModel([
      (request) => {
        childRequest = request;
        return never();
      },
    ]);
    const child = createAgent({ prompt: "c", description: "slow child", llm: childModel.llm });
    const model = createScriptedModel([fenced("(tool/child {})"), fenced("(return :next)")]);
    const agent = createAgent({ prompt: "p", timeout: 1000, tools: { child: asTool(child) } });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toBe("next");
    expect(childRequest?.signal?.aborted).toBe(true);
    expect(result.step.childSteps.map((step) => step.fail?.reason)).toEqual(["aborted"]);
  });
});

describe("tools that throw", () => {
  it("a program sees the tool's message as a tool_error and the run continues", async () => {
    const model = createScriptedModel([fenced("(tool/boom {:id 3})"), fenced("(return :ok)")]);
    const agent = createAgent({
      prompt: "p",
      tools: {
        boom: () => {
          throw new Error("database is down for maintenance");
        },
      },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(lastContent(model.calls[1]?.messages)).toContain("database is down for maintenance");
    expect(result.step.toolCalls).toMatchObject([
      { name: "boom", args: { id: 3 }, error: "database is down for maintenance" },
    ]);
  });

  it("a rejected promise and a thrown non-Error are reported too", async () => {
    const model = createScriptedModel([
      fenced("(tool/rejects {})"),
      fenced("(tool/strings {})"),
      fenced("(return 1)"),
    ]);
    const agent = createAgent({
      prompt: "p",
      tools: {
        rejects: async () => Promise.reject(new TypeError("bad shape")),
        strings: () => {
          throw "plain string failure";
        },
      },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(lastContent(model.calls[1]?.messages)).toContain("bad shape");
    expect(lastContent(model.calls[2]?.messages)).toContain("plain string failure");
  });

  it("natively, the model reads {error, tool, args_received}", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ id: "x1", name: "boom", args: { id: 3 } }] },
      "The service is down.",
    ]);
    const agent = createAgent({
      prompt: "p",
      output: "text",
      tools: {
        boom: () => {
          throw new Error("database is down for maintenance");
        },
      },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    const [answer] = toolMessages(model.calls[1]?.messages);
    expect(JSON.parse(answer?.content ?? "{}")).toEqual({
      error: "database is down for maintenance",
      tool: "boom",
      args_received: { id: 3 },
      hint: null,
    });
  });
});

describe("huge results", () => {
  const rows = Array.from({ length: 100_000 }, (_, index) => ({ id: index, group: index % 7 }));

  it("a program works through 100k rows and answers", async () => {
    const model = createScriptedModel([
      fenced(
        "(def rows (tool/rows {}))\n(return {:n (count rows) :sevens (count (filter #(= 0 (:group %)) rows))})",
      ),
    ]);
    const agent = createAgent({
      prompt: "p",
      signature: "() -> {n :int, sevens :int}",
      tools: { rows: () => rows },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.fail).toBeNull();
    expect(result.step.return).toEqual({ n: 100_000, sevens: Math.ceil(100_000 / 7) });
  });

  it("a program that prints 100k rows gets a capped feedback, not the whole result", async () => {
    const model = createScriptedModel([fenced("(println (tool/rows {}))"), fenced("(return 1)")]);
    const agent = createAgent({ prompt: "p", tools: { rows: () => rows } });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    const feedback = lastContent(model.calls[1]?.messages);
    expect(feedback).toContain('"id" 0');
    expect(feedback).toContain("truncated");
    expect(feedback.length).toBeLessThan(20_000);
  });

  it("keeping 100k rows in memory past the memory limit fails clearly (strict) or rolls back", async () => {
    const program = fenced("(def rows (tool/rows {}))");
    const strict = createScriptedModel([program]);
    const failed = await run(createAgent({ prompt: "p", tools: { rows: () => rows } }), { llm: strict.llm });
    expect(failed.step.fail?.reason).toBe("memory_limit_exceeded");
    expect(failed.step.toolCalls).toHaveLength(1);
    const rollback = createScriptedModel([program, fenced("(return (count (tool/rows {})))")]);
    const recovered = await run(
      createAgent({ prompt: "p", memoryStrategy: "rollback", tools: { rows: () => rows } }),
      { llm: rollback.llm },
    );
    expect(recovered.step.return).toBe(100_000);
    expect(lastContent(rollback.calls[1]?.messages)).toContain("Memory limit exceeded");
    expect(recovered.step.memory).toEqual({});
  });

  it("natively in combined mode, a cached tool's 100k rows come back as a preview the program can read in full", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ id: "n1", name: "rows", args: {} }] },
      { toolCalls: [{ id: "n2", name: "lisp_eval", args: { program: "(count (tool/rows {}))" } }] },
      "There are 100000 rows.",
    ]);
    let calls = 0;
    const agent = createAgent({
      prompt: "p",
      output: "text",
      ptcTransport: "tool_call",
      tools: {
        rows: {
          execute: () => {
            calls += 1;
            return rows;
          },
          expose: "both",
          cache: true,
          signature: "() -> [{id :int, group :int}]",
        },
      },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    const [preview] = toolMessages(model.calls[1]?.messages);
    expect(preview?.content.length).toBeLessThan(10_000);
    expect(JSON.parse(preview?.content ?? "{}")).toMatchObject({
      result_count: 100_000,
      full_result_cached: true,
    });
    const programAnswer = toolMessages(model.calls[2]?.messages).at(-1);
    expect(programAnswer?.content).toContain("100000");
    // The program read the cached result: the tool ran once.
    expect(calls).toBe(1);
  });
});

describe("cyclic results", () => {
  const cyclic = (): Record<string, unknown> => {
    const value: Record<string, unknown> = { id: 1 };
    value.self = value;
    return value;
  };

  it("natively in text mode, are a tool error naming the cycle", async () => {
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "loop", args: {} }] }, "ok"]);
    const agent = createAgent({ prompt: "p", output: "text", tools: { loop: cyclic } });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    const [answer] = toolMessages(model.calls[1]?.messages);
    expect(JSON.parse(answer?.content ?? "{}").error).toContain("cycle");
  });

  it("in a program, are a tool error naming the cycle (not a misleading recursion error)", async () => {
    const model = createScriptedModel([fenced("(def r (tool/loop {}))\n(:id r)"), fenced("(return 1)")]);
    const agent = createAgent({ prompt: "p", tools: { loop: cyclic } });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    const feedback = lastContent(model.calls[1]?.messages);
    expect(feedback).toContain("cycle");
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "tool_error" } });
    expect(() => JSON.stringify(result.step)).not.toThrow();
  });
});

class Customer {
  constructor(
    readonly id: number,
    readonly name: string,
  ) {}
  get label() {
    return `${this.id}:${this.name}`;
  }
}

describe("values JSON cannot hold", () => {
  const readable: [string, () => unknown, string, unknown][] = [
    ["a BigInt", () => 12345678901234567890n, '"12345678901234567890"', "12345678901234567890"],
    ["a Map", () => new Map([["k", 1]]), '{"k":1}', { k: 1 }],
    ["a Set", () => new Set([1, 2]), "[1,2]", [1, 2]],
    ["a class instance", () => new Customer(7, "Ada"), '{"id":7,"name":"Ada"}', { id: 7, name: "Ada" }],
    ["a Date", () => new Date(0), '"1970-01-01T00:00:00.000Z"', "1970-01-01T00:00:00.000Z"],
  ];
  for (const [label, tool, nativeText] of readable) {
    it(`natively in text mode, ${label} reaches the model as readable JSON`, async () => {
      const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "odd", args: {} }] }, "done"]);
      const agent = createAgent({ prompt: "p", output: "text", tools: { odd: tool } });
      const result = await run(agent, { llm: model.llm });
      expect(result.ok).toBe(true);
      expect(toolMessages(model.calls[1]?.messages)[0]?.content).toBe(nativeText);
    });
  }

  const unreadable: [string, () => unknown, string][] = [
    ["a Symbol", () => Symbol("s"), "symbol"],
    ["a function", () => () => 1, "function"],
    ["an object holding a function", () => ({ id: 1, run: () => 1 }), "function"],
  ];
  for (const [label, tool, word] of unreadable) {
    it(`natively in text mode, ${label} is a clear tool error`, async () => {
      const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "odd", args: {} }] }, "done"]);
      const agent = createAgent({ prompt: "p", output: "text", tools: { odd: tool } });
      const result = await run(agent, { llm: model.llm });
      expect(result.ok).toBe(true);
      const error = JSON.parse(toolMessages(model.calls[1]?.messages)[0]?.content ?? "{}").error;
      expect(error).toContain(word);
      expect(result.step.toolCalls[0]?.error).toContain(word);
    });

    it(`in a program, ${label} is a clear tool error`, async () => {
      const model = createScriptedModel([fenced("(def r (tool/odd {}))"), fenced("(return 1)")]);
      const agent = createAgent({ prompt: "p", tools: { odd: tool } });
      const result = await run(agent, { llm: model.llm });
      expect(result.ok).toBe(true);
      expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "tool_error" } });
      expect(lastContent(model.calls[1]?.messages)).toContain(word);
    });
  }

  const programReads: [string, () => unknown, string, unknown][] = [
    ["a Map", () => new Map([["k", 1]]), '(get r "k")', 1],
    ["a Set", () => new Set([1, 2]), "(count r)", 2],
    ["a class instance", () => new Customer(7, "Ada"), "(:name r)", "Ada"],
    ["a Date", () => new Date(0), "r", "1970-01-01T00:00:00.000Z"],
    [
      "nested odd values",
      () => ({ tags: new Set(["a"]), at: new Date(0) }),
      "[(first (:tags r)) (:at r)]",
      ["a", "1970-01-01T00:00:00.000Z"],
    ],
  ];
  for (const [label, tool, expression, expected] of programReads) {
    it(`in a program, ${label} reads as the data the model would see natively`, async () => {
      const model = createScriptedModel([fenced(`(def r (tool/odd {}))\n(return ${expression})`)]);
      const agent = createAgent({ prompt: "p", tools: { odd: tool } });
      const result = await run(agent, { llm: model.llm });
      expect(result.step.fail).toBeNull();
      expect(result.step.return).toEqual(expected);
    });
  }

  it("in a program, a BigInt stays a number the program can compute with", async () => {
    const model = createScriptedModel([fenced("(return (str (+ (tool/big {}) 1)))")]);
    const agent = createAgent({ prompt: "p", tools: { big: () => 12345678901234567890n } });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.fail).toBeNull();
    expect(result.step.return).toBe("12345678901234567891");
  });

  it("a tool returning undefined is nil in a program and null natively", async () => {
    const program = createScriptedModel([fenced("(return (nil? (tool/nothing {})))")]);
    const ptc = await run(createAgent({ prompt: "p", tools: { nothing: () => undefined } }), {
      llm: program.llm,
    });
    expect(ptc.step.return).toBe(true);
    const native = createScriptedModel([{ toolCalls: [{ id: "a", name: "nothing", args: {} }] }, "done"]);
    await run(createAgent({ prompt: "p", output: "text", tools: { nothing: () => undefined } }), {
      llm: native.llm,
    });
    expect(toolMessages(native.calls[1]?.messages)[0]?.content).toBe("null");
  });
});

describe("tools defined with createTool", () => {
  it("keep their own timeoutMs when passed as a Tool", async () => {
    const slow = hangingTool();
    const tool = createTool("slow", { execute: slow.execute, timeoutMs: 6 });
    const model = createScriptedModel([fenced("(tool/slow {})"), fenced("(return 1)")]);
    const result = await run(createAgent({ prompt: "p", tools: { slow: tool } }), { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(lastContent(model.calls[1]?.messages)).toContain("timed out after 6 ms");
  });
});
