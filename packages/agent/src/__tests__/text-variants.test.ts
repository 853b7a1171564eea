/**
 * Pure text mode (`output: "text"` without `ptcTransport`) through `run` with the scripted model:
 * the text-only, JSON-only and tool variants, their prompts and requests, retries
 * and terminal failures, native tool schemas and dispatch, the run-wide tool-call budget, empty
 * responses, tool exceptions and streaming.
 */
import { toNativeToolSchema } from "@ptc/tool";
import { describe, expect, it } from "vitest";
import { createAgent, type Message, run, type StreamChunk } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

function toolResults(messages: readonly Message[] | undefined): { id: string | undefined; body: unknown }[] {
  return (messages ?? [])
    .filter((message) => message.role === "tool")
    .map((message) => ({ id: message.toolCallId, body: JSON.parse(message.content) as unknown }));
}

describe("text-only variant", () => {
  it("makes one call with the expanded prompt and returns the raw content", async () => {
    const agent = createAgent({ prompt: "Say hello to {{name}}.", output: "text", maxTurns: 4 });
    const model = createScriptedModel(["  Hello, Ada!\n"]);
    const result = await run(agent, { llm: model.llm, context: { name: "Ada" } });

    model.assertConsumed();
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe("  Hello, Ada!\n");
    expect(result.step.usage.turns).toBe(1);
    expect(result.step.memory).toEqual({});
    const request = model.calls[0];
    expect(request?.system).toBe("You are a helpful assistant.");
    expect(request?.messages).toEqual([{ role: "user", content: "Say hello to Ada." }]);
    expect(request?.output).toBe("text");
    expect(request?.tools).toBeUndefined();
    expect(request?.schema).toBeUndefined();
    expect(request?.stream).toBeUndefined();
  });

  it("treats a :string signature as plain text, even when the text looks like JSON", async () => {
    const agent = createAgent({ prompt: "Quote it.", output: "text", signature: ":string" });
    const model = createScriptedModel(['{"not": "parsed"}']);
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toBe('{"not": "parsed"}');
    expect(model.calls[0]?.schema).toBeUndefined();
  });

  it("applies a string system prompt override", async () => {
    const agent = createAgent({ prompt: "Hi", output: "text", systemPrompt: "Be terse." });
    const model = createScriptedModel(["ok"]);
    await run(agent, { llm: model.llm });
    expect(model.calls[0]?.system).toBe("Be terse.");
  });
});

describe("JSON-only variant", () => {
  const signature = "() -> {count :int}";

  it("sends the answer's JSON schema and retries with the json-error feedback", async () => {
    const agent = createAgent({ prompt: "Count the things.", output: "text", signature, maxTurns: 3 });
    const model = createScriptedModel(["I think it is three.", '{"count": 3}']);
    const result = await run(agent, { llm: model.llm });

    model.assertConsumed();
    expect(result.ok).toBe(true);
    expect(result.step.return).toEqual({ count: 3 });
    expect(result.step.usage.schemaUsed).toBe(true);
    expect(model.calls[0]?.schema).toEqual({
      type: "object",
      properties: { count: { type: "integer" } },
      required: ["count"],
      additionalProperties: false,
    });
    expect(model.calls[0]?.tools).toBeUndefined();
    expect(model.calls[0]?.messages).toHaveLength(1);
    expect(model.calls[0]?.messages[0]?.content).toContain("Count the things.");
    expect(model.calls[0]?.messages[0]?.content).toContain("`count` (integer)");

    const retry = model.calls[1]?.messages ?? [];
    expect(retry).toHaveLength(3);
    expect(retry[1]).toEqual({ role: "assistant", content: "I think it is three." });
    expect(retry[2]?.role).toBe("user");
    expect(retry[2]?.content).toContain("<error_feedback>");
    expect(retry[2]?.content).toContain("Error: No valid JSON found in response");
    expect(retry[2]?.content).toContain('<untrusted_ptc_output source="invalid_response">');
    expect(retry[2]?.content).toContain("I think it is three.");
    expect(retry[2]?.content).toContain('"count": 0');
  });

  it("ends with json_parse_error when the last turn's answer is not JSON", async () => {
    const agent = createAgent({ prompt: "Count.", output: "text", signature, maxTurns: 2 });
    const model = createScriptedModel(["nope", "still nope"]);
    const result = await run(agent, { llm: model.llm });
    model.assertConsumed();
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({
      reason: "json_parse_error",
      message: "No valid JSON found in response",
    });
    expect(result.step.return).toBeNull();
  });

  it("ends with validation_error when the last turn's JSON does not match the signature", async () => {
    const agent = createAgent({ prompt: "Count.", output: "text", signature, maxTurns: 1 });
    const model = createScriptedModel(['{"count": "three"}']);
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("validation_error");
    expect(result.step.fail?.message).toContain("count");
    expect(result.step.fail?.message).toContain("expected int");
  });

  it("can never succeed with a scalar (:int) signature", async () => {
    const agent = createAgent({ prompt: "How many?", output: "text", signature: ":int", maxTurns: 2 });
    // Bare "42" is not JSON to the lenient parser; a fenced or bracketed scalar is, but has the wrong shape.
    const model = createScriptedModel(["```json\n42\n```", "[42]"]);
    const result = await run(agent, { llm: model.llm });
    model.assertConsumed();
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({
      reason: "json_parse_error",
      message: "Response must be a JSON object, not an array or primitive",
    });
    expect(model.calls[1]?.messages.at(-1)?.content).toContain(
      "Response must be a JSON object, not an array or primitive",
    );
  });

  it("accepts a list answer wrapped in items", async () => {
    const agent = createAgent({ prompt: "Names.", output: "text", signature: "() -> [:string]" });
    const model = createScriptedModel(['{"items": ["a", "b"]}']);
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toEqual(["a", "b"]);
    expect(model.calls[0]?.schema).toEqual({
      type: "object",
      properties: { items: { type: "array", items: { type: "string" } } },
      required: ["items"],
      additionalProperties: false,
    });
  });
});

function weatherAgent(options: { signature?: string; maxTurns?: number; maxToolCalls?: number } = {}) {
  const calls: Record<string, unknown>[] = [];
  const agent = createAgent({
    prompt: "What is the weather in Oslo?",
    output: "text",
    maxTurns: options.maxTurns ?? 4,
    ...(options.signature === undefined ? {} : { signature: options.signature }),
    ...(options.maxToolCalls === undefined ? {} : { maxToolCalls: options.maxToolCalls }),
    tools: {
      get_weather: {
        signature: "(city :string) -> {temp :int}",
        description: "Current temperature of a city.",
        execute: (args: Record<string, unknown>) => {
          calls.push(args);
          if (args.city === "Atlantis") throw new Error("city not found: Atlantis");
          return { temp: 5 };
        },
      },
    },
  });
  return { agent, calls };
}

describe("tool variant", () => {
  it("offers the tools natively, answers each call and returns the final text", async () => {
    const { agent, calls } = weatherAgent();
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Oslo" } }] },
      "It is 5 degrees in Oslo.",
    ]);
    const result = await run(agent, { llm: model.llm });

    model.assertConsumed();
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe("It is 5 degrees in Oslo.");
    expect(calls).toEqual([{ city: "Oslo" }]);
    expect(model.calls[0]?.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Current temperature of a city.",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ]);
    expect(model.calls[0]?.tools).toEqual([toNativeToolSchema(agent.tools.get_weather as never)]);
    expect(model.calls[0]?.schema).toBeUndefined();
    expect(model.calls[0]?.system).toContain("<role>Use tools to complete the task.</role>");
    expect(model.calls[0]?.system).not.toContain("ptc_lisp_reference");
    expect(model.calls[0]?.messages).toEqual([
      {
        role: "user",
        content:
          "<output_format>\nWhen you have the final answer, return it as plain text.\n</output_format>\n\n<mission>\nWhat is the weather in Oslo?\n</mission>",
      },
    ]);
    const second = model.calls[1]?.messages ?? [];
    expect(second[1]).toEqual({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Oslo" } }],
    });
    expect(second[2]).toEqual({ role: "tool", toolCallId: "c1", content: JSON.stringify({ temp: 5 }) });
    expect(result.step.toolCalls.map((call) => [call.name, call.args, call.result])).toEqual([
      ["get_weather", { city: "Oslo" }, { temp: 5 }],
    ]);
    expect(result.step.memory).toEqual({});
    expect(result.step.toolCache.size).toBe(0);
  });

  it("parses a JSON final answer, retrying with the tool-variant message while turns remain", async () => {
    const { agent } = weatherAgent({ signature: "() -> {temp :int, city :string}" });
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Oslo" } }] },
      "five degrees",
      '{"temp": 5, "city": "Oslo"}',
    ]);
    const result = await run(agent, { llm: model.llm });
    model.assertConsumed();
    expect(result.ok).toBe(true);
    expect(result.step.return).toEqual({ temp: 5, city: "Oslo" });
    for (const call of model.calls) expect(call.schema).toBeUndefined();
    expect(model.calls[0]?.messages[0]?.content).toContain(
      "When you have the final answer, return a JSON object matching this schema:",
    );
    expect(model.calls[2]?.messages.slice(-2)).toEqual([
      { role: "assistant", content: "five degrees" },
      {
        role: "user",
        content:
          "Error: No valid JSON found in response. Please return a valid JSON object matching the expected output format.",
      },
    ]);
  });

  it("fails with validation_error when the last turn's JSON answer is invalid", async () => {
    const { agent } = weatherAgent({ signature: "() -> {temp :int}", maxTurns: 2 });
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Oslo" } }] },
      '{"temp": "warm"}',
    ]);
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("validation_error");
    expect(result.step.fail?.message).toContain("temp");
  });

  it("fails with max_turns_exceeded when the model only ever calls tools", async () => {
    const { agent, calls } = weatherAgent({ maxTurns: 2 });
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Oslo" } }] },
      { toolCalls: [{ id: "c2", name: "get_weather", args: { city: "Oslo" } }] },
    ]);
    const result = await run(agent, { llm: model.llm });
    model.assertConsumed();
    expect(result.step.fail).toEqual({
      reason: "max_turns_exceeded",
      message: "Exceeded max_turns limit of 2",
    });
    expect(calls).toHaveLength(2);
    expect(result.step.usage.turns).toBe(2);
  });

  it("sanitizes hyphenated tool names and resolves the called name back", async () => {
    let called = 0;
    const agent = createAgent({
      prompt: "Look it up.",
      output: "text",
      tools: {
        "lookup-user": {
          signature: "(user-id :int) -> :string",
          execute: () => {
            called += 1;
            return "Ada";
          },
        },
      },
    });
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "lookup_user", args: { "user-id": 7 } }] },
      "Ada",
    ]);
    const result = await run(agent, { llm: model.llm });
    expect(model.calls[0]?.tools?.[0]?.function.name).toBe("lookup_user");
    expect(called).toBe(1);
    expect(result.step.toolCalls[0]?.name).toBe("lookup-user");
    expect(toolResults(model.calls[1]?.messages)).toEqual([{ id: "c1", body: "Ada" }]);
  });

  it("gives id-less calls synthetic ids unique across turns", async () => {
    const { agent } = weatherAgent();
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: "get_weather", args: { city: "Oslo" } },
          { name: "get_weather", args: { city: "Bergen" } },
        ],
      },
      { toolCalls: [{ name: "get_weather", args: { city: "Oslo" } }] },
      "done",
    ]);
    await run(agent, { llm: model.llm });
    const messages = model.calls[2]?.messages ?? [];
    const assistantIds = messages.flatMap((message) => message.toolCalls?.map((call) => call.id) ?? []);
    expect(assistantIds).toEqual(["tc_1", "tc_2", "tc_3"]);
    expect(toolResults(messages).map((result) => result.id)).toEqual(["tc_1", "tc_2", "tc_3"]);
  });

  it("keeps provider ids and pairs every call with exactly one tool message", async () => {
    const { agent } = weatherAgent();
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "get_weather", args: { city: "Oslo" } },
          { id: "b", name: "get_weather", args: { city: "Bergen" } },
        ],
      },
      "done",
    ]);
    await run(agent, { llm: model.llm });
    expect(toolResults(model.calls[1]?.messages).map((result) => result.id)).toEqual(["a", "b"]);
  });

  it("answers calls over maxToolCalls with the limit error, after the executed results", async () => {
    const { agent, calls } = weatherAgent({ maxToolCalls: 2 });
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "get_weather", args: { city: "Oslo" } },
          { id: "b", name: "get_weather", args: { city: "Bergen" } },
          { id: "c", name: "get_weather", args: { city: "Tromsø" } },
        ],
      },
      { toolCalls: [{ id: "d", name: "get_weather", args: { city: "Oslo" } }] },
      "done",
    ]);
    const result = await run(agent, { llm: model.llm });
    model.assertConsumed();
    expect(result.ok).toBe(true);
    expect(calls).toEqual([{ city: "Oslo" }, { city: "Bergen" }]);
    const limit = { error: "Tool call limit reached (max: 2)" };
    expect(toolResults(model.calls[1]?.messages)).toEqual([
      { id: "a", body: { temp: 5 } },
      { id: "b", body: { temp: 5 } },
      { id: "c", body: limit },
    ]);
    expect(toolResults(model.calls[2]?.messages).at(-1)).toEqual({ id: "d", body: limit });
  });

  it("retries an empty response with a user message, then fails with empty_response on the last turn", async () => {
    const { agent } = weatherAgent({ maxTurns: 2 });
    const model = createScriptedModel([{ content: null }, {}]);
    const result = await run(agent, { llm: model.llm });
    model.assertConsumed();
    const second = model.calls[1]?.messages ?? [];
    expect(second).toHaveLength(2);
    expect(second[1]).toEqual({
      role: "user",
      content:
        "Error: LLM returned neither content nor tool calls. Please use tools or return a final answer.",
    });
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({
      reason: "empty_response",
      message: "LLM returned neither content nor tool calls",
    });
  });

  it("recovers after an empty response", async () => {
    const { agent } = weatherAgent({ maxTurns: 3 });
    const model = createScriptedModel([{ toolCalls: [] }, "It is 5 degrees."]);
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toBe("It is 5 degrees.");
  });

  it("shows a tool's exception to the model with the thrown message, the tool and its arguments", async () => {
    const { agent } = weatherAgent();
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Atlantis" } }] },
      "No such city.",
    ]);
    const result = await run(agent, { llm: model.llm });
    expect(result.ok).toBe(true);
    expect(toolResults(model.calls[1]?.messages)).toEqual([
      {
        id: "c1",
        body: {
          error: "city not found: Atlantis",
          tool: "get_weather",
          args_received: { city: "Atlantis" },
          hint: null,
        },
      },
    ]);
    expect(result.step.toolCalls[0]?.error).toBe("city not found: Atlantis");
  });

  it("answers an unknown tool and unparsable arguments with legacy error objects", async () => {
    const { agent, calls } = weatherAgent();
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "c1", name: "get_forecast", args: { city: "Oslo" } },
          { id: "c2", name: "get_weather", args: '{"city": "Os' },
          { id: "c3", name: "lisp_eval", args: { program: "(+ 1 2)" } },
        ],
      },
      "done",
    ]);
    await run(agent, { llm: model.llm });
    expect(calls).toEqual([]);
    expect(toolResults(model.calls[1]?.messages)).toEqual([
      { id: "c1", body: { error: "Tool 'get_forecast' not found" } },
      { id: "c2", body: { error: 'Invalid JSON arguments: {"city": "Os' } },
      { id: "c3", body: { error: "Tool 'lisp_eval' not found" } },
    ]);
  });

  it("records calls that could not run in step.toolCalls with their error", async () => {
    const { agent } = weatherAgent();
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "c1", name: "get_forecast", args: { city: "Oslo" } },
          { id: "c2", name: "get_weather", args: "{oops" },
          { id: "c3", name: "get_weather", args: { city: "Oslo" } },
        ],
      },
      "done",
    ]);
    const result = await run(agent, { llm: model.llm });
    expect(
      result.step.toolCalls.map(({ name, id, error, result: value }) => ({ name, id, error, value })),
    ).toEqual([
      { name: "get_forecast", id: "c1", error: "Tool 'get_forecast' not found", value: undefined },
      { name: "get_weather", id: "c2", error: "Invalid JSON arguments: {oops", value: undefined },
      { name: "get_weather", id: "c3", error: undefined, value: { temp: 5 } },
    ]);
    expect(result.step.turns?.[0]?.toolCalls).toHaveLength(3);
  });
});

describe("streaming (onChunk)", () => {
  it("passes the model's streamed deltas to onChunk", async () => {
    const agent = createAgent({ prompt: "Hi", output: "text" });
    const model = createScriptedModel(["Hello world"], { streamChunkSize: 4 });
    const chunks: StreamChunk[] = [];
    const result = await run(agent, { llm: model.llm, onChunk: (chunk) => chunks.push(chunk) });
    expect(typeof model.calls[0]?.stream).toBe("function");
    expect(chunks).toEqual([{ delta: "Hell" }, { delta: "o wo" }, { delta: "rld" }]);
    expect(result.step.return).toBe("Hello world");
  });

  it("accepts { delta } objects from the model's stream callback", async () => {
    const agent = createAgent({ prompt: "Hi", output: "text" });
    const model = createScriptedModel([
      (request) => {
        request.stream?.({ delta: "Hel" });
        request.stream?.("lo");
        return "Hello";
      },
    ]);
    const chunks: StreamChunk[] = [];
    await run(agent, { llm: model.llm, onChunk: (chunk) => chunks.push(chunk) });
    expect(chunks).toEqual([{ delta: "Hel" }, { delta: "lo" }]);
  });

  it("delivers the whole text once when the model never streams", async () => {
    const agent = createAgent({ prompt: "Hi", output: "text" });
    const model = createScriptedModel(["Hello world"]);
    const chunks: StreamChunk[] = [];
    await run(agent, { llm: model.llm, onChunk: (chunk) => chunks.push(chunk) });
    expect(chunks).toEqual([{ delta: "Hello world" }]);
  });

  it("streams only the final answer of the tool variant", async () => {
    const { agent } = weatherAgent();
    const model = createScriptedModel([
      { content: "Let me check.", toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Oslo" } }] },
      "It is 5 degrees.",
    ]);
    const chunks: StreamChunk[] = [];
    const result = await run(agent, { llm: model.llm, onChunk: (chunk) => chunks.push(chunk) });
    expect(result.step.return).toBe("It is 5 degrees.");
    expect(chunks).toEqual([{ delta: "It is 5 degrees." }]);
    expect(model.calls[1]?.messages[1]?.content).toBe("Let me check.");
  });

  it("is for the text modes only: a PTC-Lisp run sends no stream and never passes program text", async () => {
    const agent = createAgent({ prompt: "Add.", maxTurns: 2 });
    const model = createScriptedModel(["```clojure\n(return (+ 1 2))\n```"], { streamChunkSize: 3 });
    const chunks: StreamChunk[] = [];
    const result = await run(agent, { llm: model.llm, onChunk: (chunk) => chunks.push(chunk) });
    expect(result.step.return).toBe(3);
    expect(model.calls[0]?.stream).toBeUndefined();
    expect(chunks).toEqual([]);
  });

  it("streams combined-mode final answers", async () => {
    const agent = createAgent({ prompt: "Hi", output: "text", ptcTransport: "tool_call" });
    const model = createScriptedModel(
      [{ toolCalls: [{ id: "c1", name: "lisp_eval", args: { program: "(+ 1 2)" } }] }, "It is 3."],
      { streamChunkSize: 5 },
    );
    const chunks: StreamChunk[] = [];
    await run(agent, { llm: model.llm, onChunk: (chunk) => chunks.push(chunk) });
    expect(chunks).toEqual([{ delta: "It is" }, { delta: " 3." }]);
  });

  it("survives an onChunk callback that throws", async () => {
    const agent = createAgent({ prompt: "Hi", output: "text" });
    const model = createScriptedModel(["Hello"], { streamChunkSize: 2 });
    const result = await run(agent, {
      llm: model.llm,
      onChunk: () => {
        throw new Error("consumer broke");
      },
    });
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe("Hello");
  });
});
