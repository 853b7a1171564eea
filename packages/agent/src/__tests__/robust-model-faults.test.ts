/**
 * Models misbehaving, through the public API: malformed tool calls (unparsable arguments, missing
 * or duplicate ids, unknown names, a lisp_eval without a program), empty or enormous content,
 * fenced code where a tool call was expected, and model functions that throw, return garbage or
 * never answer. Each is either fed back for the model to fix or ends the run with a clear reason.
 */
import { describe, expect, it } from "vitest";
import { createAgent, type Message, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;
const lastContent = (messages: readonly Message[] | undefined) => messages?.at(-1)?.content ?? "";
const toolMessages = (messages: readonly Message[] | null | undefined) =>
  (messages ?? []).filter((message) => message.role === "tool");

/** Every call of every assistant message is answered by exactly one tool message, in order. */
function expectEveryCallAnswered(messages: readonly Message[] | null | undefined) {
  const list = messages ?? [];
  const called = list.flatMap((message) => message.toolCalls?.map((call) => call.id) ?? []);
  const answered = toolMessages(list).map((message) => message.toolCallId);
  expect(new Set(called).size).toBe(called.length);
  expect(answered).toEqual(called);
}

describe("unparsable tool arguments", () => {
  it("text mode: the call is answered with the parse error and the tool never runs", async () => {
    let ran = 0;
    const model = createScriptedModel([
      { toolCalls: [{ id: "a", name: "search", args: '{"query": "x"' }] },
      { toolCalls: [{ id: "b", name: "search", args: '{"query": "x"}' }] },
      "found it",
    ]);
    const agent = createAgent({
      prompt: "p",
      output: "text",
      tools: {
        search: ({ query }) => {
          ran += 1;
          return [`hit for ${String(query)}`];
        },
      },
    });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    expect(result.step.return).toBe("found it");
    const [first] = toolMessages(model.calls[1]?.messages);
    expect(JSON.parse(first?.content ?? "{}")).toEqual({ error: 'Invalid JSON arguments: {"query": "x"' });
    expect(ran).toBe(1);
    const succeeded = result.step.toolCalls.filter((call) => call.error === undefined);
    expect(succeeded.map((call) => call.id)).toEqual(["b"]);
    // The raw text the model sent is kept verbatim in the transcript.
    const assistant = (result.step.messages ?? []).find((message) => message.toolCalls?.[0]?.id === "a");
    expect(assistant?.toolCalls?.[0]?.args).toBe('{"query": "x"');
    expectEveryCallAnswered(result.step.messages);
  });

  it("text mode: arguments that are JSON but not an object are rejected, told to be an object", async () => {
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "search", args: "[1,2]" }] }, "ok"]);
    const agent = createAgent({ prompt: "p", output: "text", tools: { search: () => [] } });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(JSON.parse(toolMessages(model.calls[1]?.messages)[0]?.content ?? "{}").error).toBe(
      "Tool arguments must be a JSON object, got: [1,2]",
    );
  });

  it("tool_call transport: lisp_eval with unparsable arguments gets an args_error and the run continues", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "lisp_eval", args: '{"program": "(+ 1' }] },
      { toolCalls: [{ id: "c2", name: "lisp_eval", args: '{"program": "(return (+ 1 2))"}' }] },
    ]);
    const agent = createAgent({ prompt: "p", ptcTransport: "tool_call", signature: "() -> :int" });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    expect(result.step.return).toBe(3);
    const [answer] = toolMessages(model.calls[1]?.messages);
    const parsed = JSON.parse(answer?.content ?? "{}");
    expect(parsed.status).toBe("error");
    expect(parsed.reason).toBe("args_error");
    expect(answer?.content).toContain("Invalid JSON arguments");
    expect(result.step.turns?.[0]).toMatchObject({ success: false, program: null });
    expectEveryCallAnswered(result.step.messages);
  });

  it("combined mode: lisp_eval with unparsable arguments gets an args_error", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "lisp_eval", args: "{not json" }] },
      "gave up",
    ]);
    const agent = createAgent({ prompt: "p", output: "text", ptcTransport: "tool_call" });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toBe("gave up");
    expect(JSON.parse(toolMessages(model.calls[1]?.messages)[0]?.content ?? "{}")).toMatchObject({
      status: "error",
      reason: "args_error",
    });
  });
});

describe("tool call ids", () => {
  it("gives id-less calls distinct synthetic ids that the tool messages answer", async () => {
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: "echo", args: { n: 1 } },
          { name: "echo", args: { n: 2 } },
        ],
      },
      { toolCalls: [{ name: "echo", args: { n: 3 } }] },
      "done",
    ]);
    const agent = createAgent({ prompt: "p", output: "text", tools: { echo: ({ n }) => n } });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    expect(result.step.return).toBe("done");
    const ids = result.step.toolCalls.map((call) => call.id);
    expect(ids).toEqual(["tc_1", "tc_2", "tc_3"]);
    expectEveryCallAnswered(result.step.messages);
  });

  it("tool_call transport: id-less lisp_eval calls on consecutive turns get distinct ids", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ name: "lisp_eval", args: { program: "(def a 1)" } }] },
      { toolCalls: [{ name: "lisp_eval", args: { program: "(def b 2)" } }] },
      { toolCalls: [{ name: "lisp_eval", args: { program: "(return (+ a b))" } }] },
    ]);
    const agent = createAgent({ prompt: "p", ptcTransport: "tool_call", signature: "() -> :int" });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    expect(result.step.return).toBe(3);
    const ids = (result.step.messages ?? []).flatMap(
      (message) => message.toolCalls?.map((call) => call.id) ?? [],
    );
    expect(ids).toEqual(["tc_1", "tc_2", "tc_3"]);
    expectEveryCallAnswered(result.step.messages);
  });

  it("renames a duplicate id within one turn so each tool message answers one call", async () => {
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "dup", name: "echo", args: { n: 1 } },
          { id: "dup", name: "echo", args: { n: 2 } },
        ],
      },
      "done",
    ]);
    const agent = createAgent({ prompt: "p", output: "text", tools: { echo: ({ n }) => ({ n }) } });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    expect(result.ok).toBe(true);
    const answers = toolMessages(model.calls[1]?.messages);
    expect(answers).toHaveLength(2);
    expect(answers[0]?.toolCallId).toBe("dup");
    expect(answers[1]?.toolCallId).not.toBe("dup");
    expect(answers.map((answer) => JSON.parse(answer.content))).toEqual([{ n: 1 }, { n: 2 }]);
    expectEveryCallAnswered(result.step.messages);
  });

  it("tool_call transport: two lisp_eval calls with the same id are both answered", async () => {
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "same", name: "lisp_eval", args: { program: "1" } },
          { id: "same", name: "lisp_eval", args: { program: "2" } },
        ],
      },
      { toolCalls: [{ id: "next", name: "lisp_eval", args: { program: "(return 5)" } }] },
    ]);
    const agent = createAgent({ prompt: "p", ptcTransport: "tool_call", signature: "() -> :int" });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    expect(result.step.return).toBe(5);
    const answers = toolMessages(model.calls[1]?.messages);
    expect(answers).toHaveLength(2);
    expect(JSON.parse(answers[0]?.content ?? "{}").reason).toBe("multiple_tool_calls");
    expectEveryCallAnswered(result.step.messages);
  });
});

describe("unknown tool names", () => {
  it("a program calling an unknown tool gets a feedback naming it", async () => {
    const model = createScriptedModel([fenced("(tool/nope {})"), fenced("(return 1)")]);
    const result = await run(createAgent({ prompt: "p", tools: { real: () => 1 } }), { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(lastContent(model.calls[1]?.messages)).toContain("nope");
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "unknown_tool" } });
  });

  it("text mode: a native call to an unknown tool is answered with an error", async () => {
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "nope", args: {} }] }, "ok"]);
    const result = await run(createAgent({ prompt: "p", output: "text", tools: { real: () => 1 } }), {
      llm: model.llm,
    });
    expect(result.ok).toBe(true);
    expect(JSON.parse(toolMessages(model.calls[1]?.messages)[0]?.content ?? "{}").error).toContain("nope");
  });

  it("tool_call transport: a native call to an app tool is an unknown_tool protocol error", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ id: "a", name: "real", args: {} }] },
      { toolCalls: [{ id: "b", name: "lisp_eval", args: { program: "(return (tool/real {}))" } }] },
    ]);
    const agent = createAgent({ prompt: "p", ptcTransport: "tool_call", tools: { real: () => 7 } });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    expect(result.step.return).toBe(7);
    expect(JSON.parse(toolMessages(model.calls[1]?.messages)[0]?.content ?? "{}").reason).toBe(
      "unknown_tool",
    );
    expectEveryCallAnswered(result.step.messages);
  });

  it("combined mode: an unknown native name is an unknown_tool error", async () => {
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "nope", args: {} }] }, "ok"]);
    const agent = createAgent({
      prompt: "p",
      output: "text",
      ptcTransport: "tool_call",
      tools: { real: () => 1 },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(JSON.parse(toolMessages(model.calls[1]?.messages)[0]?.content ?? "{}").reason).toBe(
      "unknown_tool",
    );
  });
});

describe("empty content", () => {
  it("content mode: an empty reply is fed back as 'no code' and the run continues", async () => {
    const model = createScriptedModel(["", fenced("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), { llm: model.llm });
    expect(result.step.return).toBe(1);
    expect(lastContent(model.calls[1]?.messages)).toContain("No valid PTC-Lisp code found");
  });

  it("content mode: a reply with null content is fed back the same way", async () => {
    const model = createScriptedModel([{ content: null }, fenced("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), { llm: model.llm });
    expect(result.step.return).toBe(1);
    expect(lastContent(model.calls[1]?.messages)).toContain("No valid PTC-Lisp code found");
  });

  it("tool_call transport: no content and no tool calls is fed back", async () => {
    const model = createScriptedModel([
      { content: null },
      "",
      { toolCalls: [{ id: "c", name: "lisp_eval", args: { program: "(return 2)" } }] },
    ]);
    const agent = createAgent({ prompt: "p", ptcTransport: "tool_call", signature: "() -> :int" });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toBe(2);
    expect(lastContent(model.calls[1]?.messages)).toContain("no content and no tool calls");
    expect(result.step.turns?.map((turn) => turn.success)).toEqual([false, false, true]);
  });

  it("text tool mode: no content and no tool calls on the last turn ends with empty_response", async () => {
    const model = createScriptedModel([{ content: null }, { toolCalls: [] }]);
    const agent = createAgent({ prompt: "p", output: "text", maxTurns: 2, tools: { t: () => 1 } });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.fail?.reason).toBe("empty_response");
    expect(lastContent(model.calls[1]?.messages)).toContain("neither content nor tool calls");
    expect(result.step.turns).toHaveLength(2);
  });
});

describe("enormous content", () => {
  const prose = "lorem ipsum dolor sit amet ".repeat(40_000); // ~1 MB

  it("content mode: 1 MB of prose without code is fed back and the run continues", async () => {
    const model = createScriptedModel([prose, fenced("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), { llm: model.llm, collectMessages: true });
    expect(result.step.return).toBe(1);
    expect(lastContent(model.calls[1]?.messages)).toContain("No valid PTC-Lisp code found");
    expect(lastContent(model.calls[1]?.messages).length).toBeLessThan(5_000);
  });

  it("content mode: a program after 1 MB of prose is found and run", async () => {
    const model = createScriptedModel([`${prose}\n${fenced("(return (+ 40 2))")}`]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 1 }), { llm: model.llm });
    expect(result.step.return).toBe(42);
  });

  it("content mode: a program over 1 MB is refused with a clear error and the run continues", async () => {
    const model = createScriptedModel([
      fenced(`(return (count "${"x".repeat(1_000_000)}"))`),
      fenced(`(return (count "${"x".repeat(100_000)}"))`),
    ]);
    const result = await run(createAgent({ prompt: "p" }), { llm: model.llm });
    expect(result.step.return).toBe(100_000);
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "program_too_large" } });
    expect(lastContent(model.calls[1]?.messages)).toContain("exceeds limit");
  });

  it("text mode: a 1 MB answer is returned whole", async () => {
    const model = createScriptedModel([prose]);
    const result = await run(createAgent({ prompt: "p", output: "text" }), { llm: model.llm });
    expect(result.step.return).toBe(prose);
  });
});

describe("fenced code where a tool call was expected", () => {
  it("tool_call transport: a fenced program is fed back, asking for lisp_eval", async () => {
    const model = createScriptedModel([
      fenced("(return 1)"),
      { toolCalls: [{ id: "c", name: "lisp_eval", args: { program: "(return 1)" } }] },
    ]);
    const agent = createAgent({ prompt: "p", ptcTransport: "tool_call", signature: "() -> :int" });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toBe(1);
    expect(lastContent(model.calls[1]?.messages)).toContain("call the lisp_eval tool");
    expect(result.step.turns?.[0]).toMatchObject({
      success: false,
      result: { reason: "direct_final_invalid" },
    });
  });
});

describe("lisp_eval without a program", () => {
  for (const args of [{}, { program: "" }, { program: 42 }, { code: "(return 1)" }]) {
    it(`tool_call transport: ${JSON.stringify(args)} is an args_error naming program`, async () => {
      const model = createScriptedModel([
        { toolCalls: [{ id: "c1", name: "lisp_eval", args }] },
        { toolCalls: [{ id: "c2", name: "lisp_eval", args: { program: "(return 1)" } }] },
      ]);
      const agent = createAgent({ prompt: "p", ptcTransport: "tool_call", signature: "() -> :int" });
      const result = await run(agent, { llm: model.llm });
      expect(result.step.return).toBe(1);
      const [answer] = toolMessages(model.calls[1]?.messages);
      expect(JSON.parse(answer?.content ?? "{}").reason).toBe("args_error");
      expect(answer?.content).toContain("program");
    });
  }

  it("combined mode: a lisp_eval without program is answered with an args_error", async () => {
    const model = createScriptedModel([{ toolCalls: [{ id: "c1", name: "lisp_eval", args: {} }] }, "ok"]);
    const agent = createAgent({ prompt: "p", output: "text", ptcTransport: "tool_call" });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toBe("ok");
    expect(JSON.parse(toolMessages(model.calls[1]?.messages)[0]?.content ?? "{}").reason).toBe("args_error");
  });
});

describe("model functions that fail", () => {
  const modes = [
    { label: "content mode", options: {} },
    { label: "tool_call transport", options: { ptcTransport: "tool_call" as const } },
    { label: "text mode", options: { output: "text" as const } },
    { label: "combined mode", options: { output: "text" as const, ptcTransport: "tool_call" as const } },
  ];
  for (const { label, options } of modes) {
    it(`a throwing model ends the run with llm_error and its message (${label})`, async () => {
      const model = createScriptedModel([new Error("quota exceeded for key")]);
      const result = await run(createAgent({ prompt: "p", ...options }), { llm: model.llm });
      expect(result.ok).toBe(false);
      expect(result.step.fail?.reason).toBe("llm_error");
      expect(result.step.fail?.message).toContain("quota exceeded for key");
    });
  }

  it("a synchronous throw of a non-Error is an llm_error too", async () => {
    const result = await run(createAgent({ prompt: "p" }), {
      llm: () => {
        throw "socket hang up";
      },
    });
    expect(result.step.fail).toMatchObject({ reason: "llm_error" });
    expect(result.step.fail?.message).toContain("socket hang up");
  });

  for (const [label, value] of [
    ["null", null],
    ["a number", 42],
    ["an array", ["a"]],
    ["undefined", undefined],
    ["a boolean", true],
  ] as const) {
    it(`a model returning ${label} ends the run with llm_error`, async () => {
      const result = await run(createAgent({ prompt: "p" }), { llm: (() => value) as never });
      expect(result.step.fail?.reason).toBe("llm_error");
      expect(result.step.fail?.message).toContain("return a string or { content, toolCalls, tokens }");
    });
  }

  it("a model returning a tool call without a name ends the run with llm_error", async () => {
    const result = await run(createAgent({ prompt: "p", output: "text", tools: { t: () => 1 } }), {
      llm: () => ({ toolCalls: [{ id: "a", args: {} }] }) as never,
    });
    expect(result.step.fail?.reason).toBe("llm_error");
  });

  it("a model error on a later turn keeps the earlier turns", async () => {
    const model = createScriptedModel([fenced("(def x 1)"), new Error("boom")]);
    const result = await run(createAgent({ prompt: "p" }), { llm: model.llm, collectMessages: true });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.turns).toHaveLength(1);
    expect(result.step.memory).toEqual({ x: 1 });
    expect(result.step.messages?.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
    ]);
  });

  it("retries a retryable failure and then succeeds", async () => {
    const model = createScriptedModel([
      Object.assign(new Error("rate limited"), { status: 429 }),
      fenced("(return 3)"),
    ]);
    const result = await run(createAgent({ prompt: "p", maxTurns: 1 }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    expect(result.step.return).toBe(3);
    expect(result.step.usage.llmRequests).toBe(1);
  });

  it("does not retry a client error", async () => {
    const model = createScriptedModel([Object.assign(new Error("bad request"), { status: 400 })]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 3, baseDelayMs: 1 },
    });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(model.calls).toHaveLength(1);
  });
});

describe("a model that never answers", () => {
  it("is ended by the mission timeout (content mode)", async () => {
    const model = createScriptedModel([() => never()]);
    const result = await run(createAgent({ prompt: "p", missionTimeout: 200 }), { llm: model.llm });
    expect(result.step.fail?.reason).toBe("mission_timeout");
    model.assertConsumed();
  });

  it("is ended by the mission timeout (text mode)", async () => {
    const model = createScriptedModel([() => never()]);
    const result = await run(createAgent({ prompt: "p", output: "text", missionTimeout: 200 }), {
      llm: model.llm,
    });
    expect(result.step.fail?.reason).toBe("mission_timeout");
  });

  it("is ended by the mission timeout on a later turn, keeping the earlier ones", async () => {
    const model = createScriptedModel([fenced("(def x 1)"), () => never()]);
    // The first turn must end before the deadline: a second leaves room for a loaded machine.
    const result = await run(createAgent({ prompt: "p", missionTimeout: 1000 }), { llm: model.llm });
    expect(result.step.fail?.reason).toBe("mission_timeout");
    expect(result.step.memory).toEqual({ x: 1 });
    expect(result.step.turns).toHaveLength(1);
  });
});

describe("tool call arguments that are not JSON data", () => {
  // A model function may hand back any object as a call's arguments; the run reads them by the
  // step's one JSON rule (docs/agents.md, "JSON all the way") instead of crashing on them.
  const cyclic: Record<string, unknown> = { id: 1 };
  cyclic.self = cyclic;
  const hostile: Record<string, unknown> = {
    "a BigInt": { id: 5n, program: 5n },
    "a cycle": cyclic,
    "a throwing getter": Object.defineProperty({}, "program", {
      enumerable: true,
      get() {
        throw new Error("unreadable");
      },
    }),
    "a proxy that cannot list its keys": new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys");
        },
      },
    ),
    "a symbol and a function": { id: Symbol("id"), program: () => "(+ 1 2)" },
  };
  const modes = [
    { label: "text mode", options: { output: "text" as const }, names: ["lookup", "missing"] },
    {
      label: "combined mode",
      options: { output: "text" as const, ptcTransport: "tool_call" as const },
      names: ["lookup", "lisp_eval", "missing"],
    },
    { label: "tool_call transport", options: { ptcTransport: "tool_call" as const }, names: ["lisp_eval"] },
  ];
  for (const [kind, args] of Object.entries(hostile)) {
    for (const { label, options, names } of modes) {
      for (const name of names) {
        it(`${label}: a call of ${name} with ${kind} is answered, and everything stays JSON`, async () => {
          const agent = createAgent({
            prompt: "Look it up",
            ...options,
            maxTurns: 2,
            tools: {
              lookup: {
                signature: "(id :int) -> :int",
                execute: ({ id }: { id: number }) => id,
                ...(label === "combined mode" ? { expose: "both" as const } : {}),
              },
            },
          });
          const model = createScriptedModel([
            { toolCalls: [{ id: "c1", name, args: args as Record<string, unknown> }] },
            label === "tool_call transport" ? fenced("(return 1)") : "done",
          ]);
          const events: unknown[] = [];
          const result = await run(agent, {
            llm: model.llm,
            collectMessages: true,
            eventPayloads: true,
            onEvent: (event) => events.push(event),
          });
          expect(result.step.fail?.reason).not.toBe("internal_error");
          expect(result.step.fail?.reason).not.toBe("llm_error");
          expect(() => JSON.stringify(result.step)).not.toThrow();
          expect(() => JSON.stringify(events)).not.toThrow();
          // What the model is sent next is JSON data too: the scripted model clones every request.
          expect(model.calls).toHaveLength(2);
          expectEveryCallAnswered(result.step.messages);
        });
      }
    }
  }

  it("a call's arguments that are no object are quoted in at most a few hundred characters", async () => {
    const agent = createAgent({
      prompt: "Look it up",
      output: "text",
      tools: { lookup: (args: unknown) => args },
    });
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "lookup", args: JSON.stringify("x".repeat(100_000)) },
          { id: "b", name: "lookup", args: `{"id": "${"y".repeat(100_000)}"` },
        ],
      },
      "done",
    ]);
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    const answers = toolMessages(result.step.messages);
    expect(answers).toHaveLength(2);
    for (const answer of answers) expect(answer.content.length).toBeLessThan(1000);
  });
});

describe("token counts that are not counts", () => {
  // A model function reports what it likes; usage keeps only counts (finite, not negative), so
  // it stays numbers that read back from JSON, and a tokenLimit cannot be talked down.
  const reported: Record<string, unknown> = {
    NaN: { input: Number.NaN, output: 1 },
    Infinity: { input: Number.POSITIVE_INFINITY, output: 1 },
    "negative counts": { input: -500, output: -1 },
    text: { input: "12", output: "x" },
    "a BigInt": { input: 5n, output: 1 },
    "an object": { input: { n: 1 }, output: 1 },
    "a throwing getter": Object.defineProperty({ output: 1 }, "input", {
      enumerable: true,
      get() {
        throw new Error("unreadable");
      },
    }),
  };
  for (const [kind, tokens] of Object.entries(reported)) {
    for (const output of ["ptc_lisp", "text"] as const) {
      it(`${output}: ${kind} is left out of usage, and the run goes on`, async () => {
        const agent = createAgent({ prompt: "Answer", output });
        const reply = output === "text" ? "hi" : fenced("(return 1)");
        const model = createScriptedModel([
          { content: reply, tokens: tokens as never },
          { content: reply, tokens: { input: 10, output: 2 } },
        ]);
        const result = await run(agent, { llm: model.llm, tokenLimit: 1_000_000 });
        expect(result.ok).toBe(true);
        const { usage } = result.step;
        for (const field of ["inputTokens", "outputTokens", "totalTokens"] as const) {
          const value = usage[field];
          if (value !== undefined) {
            expect(typeof value).toBe("number");
            expect(Number.isFinite(value) && value >= 0).toBe(true);
          }
        }
        expect(JSON.parse(JSON.stringify(usage))).toEqual(usage);
      });
    }
  }

  it("negative counts cannot hide the tokens that pass tokenLimit", async () => {
    const agent = createAgent({ prompt: "Answer", maxTurns: 3 });
    const model = createScriptedModel([
      { content: fenced("(def a 1)"), tokens: { input: 600, output: 0 } },
      { content: fenced("(def b 1)"), tokens: { input: -600, output: 0 } },
      { content: fenced("(return 1)"), tokens: { input: 600, output: 0 } },
    ]);
    const result = await run(agent, { llm: model.llm, tokenLimit: 1000 });
    expect(result.step.fail?.reason).toBe("budget_callback_exceeded");
  });
});
