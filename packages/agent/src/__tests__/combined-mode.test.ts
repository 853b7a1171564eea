/**
 * Combined mode (`output: "text"`, `ptcTransport: "tool_call"`) through `run`: the request's
 * tools and system prompt, the multi-call rules with their exact protocol JSON, the expose policy
 * inside programs, program outcomes as tool results, the final answer per signature, budgets.
 */
import { describe, expect, it } from "vitest";
import { type AgentToolDefinition, createAgent, type Message, run } from "../index.js";
import { createScriptedModel, type ScriptedStep } from "../testing/index.js";
import { readToolBody } from "./read-tool-body.js";

const LISP_EVAL_SCHEMA = {
  type: "function",
  function: {
    name: "lisp_eval",
    description: "Run a PTC-Lisp program. Call no other tool in the same turn.",
    parameters: {
      type: "object",
      properties: {
        program: {
          type: "string",
          description: "PTC-Lisp source",
        },
      },
      required: ["program"],
      additionalProperties: false,
    },
  },
};

/** One tool per expose setting, each counting its executions. */
function exposureTools() {
  const executed: string[] = [];
  const make = (name: string, expose?: "native" | "ptc_lisp" | "both"): AgentToolDefinition =>
    ({
      signature: "(id :int) -> :string",
      description: `The ${name} tool.`,
      ...(expose === undefined ? {} : { expose }),
      execute: ({ id }: { id?: unknown }) => {
        executed.push(name);
        return `${name}:${String(id)}`;
      },
    }) as AgentToolDefinition;
  const tools = {
    both_tool: make("both_tool", "both"),
    default_tool: make("default_tool"),
    lisp_tool: make("lisp_tool", "ptc_lisp"),
    native_tool: make("native_tool", "native"),
  };
  return { tools, executed };
}

function combinedAgent(
  options: {
    tools?: Record<string, AgentToolDefinition>;
    signature?: string;
    maxTurns?: number;
    maxToolCalls?: number;
    systemPrompt?: string;
  } = {},
) {
  return createAgent({
    prompt: "Help the user.",
    output: "text",
    ptcTransport: "tool_call",
    maxTurns: options.maxTurns ?? 5,
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.signature === undefined ? {} : { signature: options.signature }),
    ...(options.maxToolCalls === undefined ? {} : { maxToolCalls: options.maxToolCalls }),
    ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
  });
}

function lispEval(id: string, program: string) {
  return { id, name: "lisp_eval", args: { program } };
}

function toolMessages(messages: readonly Message[] | undefined): Message[] {
  return (messages ?? []).filter((message) => message.role === "tool");
}

function lastToolBody(messages: readonly Message[] | undefined): Record<string, unknown> {
  return readToolBody(toolMessages(messages).at(-1)?.content);
}

async function runScript(agent: ReturnType<typeof combinedAgent>, steps: ScriptedStep[]) {
  const model = createScriptedModel(steps);
  const result = await run(agent, { llm: model.llm, collectMessages: true });
  model.assertConsumed();
  return { model, result };
}

describe("combined-mode request", () => {
  it("offers native and both tools natively, plus lisp_eval last", async () => {
    const { tools } = exposureTools();
    const { model } = await runScript(combinedAgent({ tools }), ["done"]);
    const offered = model.calls[0]?.tools ?? [];
    expect(offered.map((tool) => tool.function.name).sort()).toEqual([
      "both_tool",
      "default_tool",
      "lisp_eval",
      "native_tool",
    ]);
    expect(offered.at(-1)).toEqual(LISP_EVAL_SCHEMA);
    expect(model.calls[0]?.output).toBe("text");
    expect(model.calls[0]?.schema).toBeUndefined();
  });

  it("offers lisp_eval even when the agent has no tools", async () => {
    const { model, result } = await runScript(combinedAgent(), ["hello"]);
    expect(model.calls[0]?.tools).toEqual([LISP_EVAL_SCHEMA]);
    expect(result.step.return).toBe("hello");
  });

  it("appends the compact reference card and lists only program-callable tools", async () => {
    const { tools } = exposureTools();
    const { model } = await runScript(combinedAgent({ tools }), ["done"]);
    const system = model.calls[0]?.system ?? "";
    expect(system.startsWith("<role>Use tools to complete the task.</role>")).toBe(true);
    expect(system).toContain("<ptc_lisp_reference>");
    expect(system).toContain("full_result_cached");
    const section = system.slice(system.indexOf("<ptc_tools>"));
    expect(section).toMatch(/^<ptc_tools>\n[\s\S]*\n<\/ptc_tools>$/);
    // A tool that is also native has its parameters and description in the request's tools:
    // only its return type is added here.
    expect(section).toContain("- tool/both_tool -> :string\n");
    expect(section).toContain("- tool/lisp_tool (id :int) -> :string — The lisp_tool tool.");
    expect(section).not.toContain("native_tool");
    expect(section).not.toContain("default_tool");
    expect(section.indexOf("both_tool")).toBeLessThan(section.indexOf("lisp_tool"));
  });

  it("keeps the card but drops <ptc_tools> when no tool is program-callable", async () => {
    const { model } = await runScript(combinedAgent({ tools: { only_native: { execute: () => 1 } } }), [
      "done",
    ]);
    const system = model.calls[0]?.system ?? "";
    expect(system).toContain("<ptc_lisp_reference>");
    expect(system).not.toContain("<ptc_tools>");
  });

  it("appends the card after a string system prompt override", async () => {
    const { model } = await runScript(combinedAgent({ systemPrompt: "You are a log analyst." }), ["done"]);
    const system = model.calls[0]?.system ?? "";
    expect(system.startsWith("You are a log analyst.\n\n<ptc_lisp_reference>")).toBe(true);
  });

  it("does not append the card in pure text mode", async () => {
    const agent = createAgent({ prompt: "Hi", output: "text", tools: { t: { execute: () => 1 } } });
    const model = createScriptedModel(["done"]);
    await run(agent, { llm: model.llm });
    expect(model.calls[0]?.system).not.toContain("ptc_lisp_reference");
    expect(model.calls[0]?.tools?.map((tool) => tool.function.name)).toEqual(["t"]);
  });
});

describe("combined-mode agents", () => {
  it("are rejected with an explicit content transport, and ptcReference must be compact", () => {
    expect(() => createAgent({ prompt: "p", output: "text", ptcTransport: "content" })).toThrow(
      /ptcTransport: "content" is not supported with output: "text"/,
    );
    expect(() =>
      createAgent({
        prompt: "p",
        output: "text",
        ptcTransport: "tool_call",
        ptcReference: "full" as "compact",
      }),
    ).toThrow(/ptcReference/);
  });

  it("can be run from a prompt string", async () => {
    const model = createScriptedModel([{ toolCalls: [lispEval("a", "(* 6 7)")] }, "42"]);
    const result = await run("Multiply.", { output: "text", ptcTransport: "tool_call", llm: model.llm });
    expect(result.step.return).toBe("42");
    expect(model.calls[0]?.tools?.map((tool) => tool.function.name)).toEqual(["lisp_eval"]);
    expect(lastToolBody(model.calls[1]?.messages).result).toBe("user=> 42");
  });

  it("carry program summaries onto the final step", async () => {
    const { result } = await runScript(combinedAgent(), [
      { toolCalls: [lispEval("a", '(step-done "fetch" "fetched 3 rows")\n3')] },
      "done",
    ]);
    expect(result.step.summaries).toEqual({ fetch: "fetched 3 rows" });
  });
});

describe("multi-call rules", () => {
  const REJECTED_MULTIPLE = {
    status: "error",
    reason: "multiple_tool_calls",
    message: "exactly one lisp_eval call per assistant turn",
  };
  const REJECTED_MIXED = {
    status: "error",
    reason: "mixed_with_lisp_eval",
    message: "lisp_eval is exclusive in its assistant turn; no other native tool calls may accompany it",
  };

  it("rejects every call of a turn with two lisp_eval calls, executing nothing", async () => {
    const { tools, executed } = exposureTools();
    const { model, result } = await runScript(combinedAgent({ tools }), [
      {
        toolCalls: [
          lispEval("a", "(tool/both_tool {:id 1})"),
          lispEval("b", "(tool/both_tool {:id 2})"),
          { id: "c", name: "native_tool", args: { id: 3 } },
        ],
      },
      "done",
    ]);
    expect(executed).toEqual([]);
    const second = model.calls[1]?.messages ?? [];
    // No user feedback message follows the paired tool messages.
    expect(second.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "tool"]);
    const rejections = toolMessages(second);
    expect(rejections.map((message) => message.toolCallId)).toEqual(["a", "b", "c"]);
    for (const message of rejections) expect(JSON.parse(message.content)).toEqual(REJECTED_MULTIPLE);
    expect(result.step.return).toBe("done");
    expect(result.step.usage.turns).toBe(2);
  });

  it("rejects a lisp_eval call mixed with a native call", async () => {
    const { tools, executed } = exposureTools();
    const { model } = await runScript(combinedAgent({ tools }), [
      {
        toolCalls: [lispEval("a", "(+ 1 2)"), { id: "b", name: "both_tool", args: { id: 1 } }],
      },
      "done",
    ]);
    expect(executed).toEqual([]);
    const rejections = toolMessages(model.calls[1]?.messages);
    expect(rejections.map((message) => message.toolCallId)).toEqual(["a", "b"]);
    for (const message of rejections) expect(JSON.parse(message.content)).toEqual(REJECTED_MIXED);
  });

  it("rejects a lisp_eval call mixed with an unknown call as mixed, not unknown", async () => {
    const { model } = await runScript(combinedAgent(), [
      { toolCalls: [{ id: "a", name: "nope", args: {} }, lispEval("b", "(+ 1 2)")] },
      "done",
    ]);
    for (const message of toolMessages(model.calls[1]?.messages))
      expect(JSON.parse(message.content)).toEqual(REJECTED_MIXED);
  });

  it("executes a lone lisp_eval call", async () => {
    const { model } = await runScript(combinedAgent(), [{ toolCalls: [lispEval("a", "(+ 1 2)")] }, "3"]);
    const body = lastToolBody(model.calls[1]?.messages);
    expect(body.status).toBe("ok");
    expect(body.result).toBe("user=> 3");
  });

  it("executes native calls that are all valid", async () => {
    const { tools, executed } = exposureTools();
    const { model } = await runScript(combinedAgent({ tools }), [
      {
        toolCalls: [
          { id: "a", name: "native_tool", args: { id: 1 } },
          { id: "b", name: "both_tool", args: { id: 2 } },
          { id: "c", name: "default_tool", args: { id: 3 } },
        ],
      },
      "done",
    ]);
    expect(executed).toEqual(["native_tool", "both_tool", "default_tool"]);
    expect(toolMessages(model.calls[1]?.messages).map((message) => JSON.parse(message.content))).toEqual([
      "native_tool:1",
      "both_tool:2",
      "default_tool:3",
    ]);
  });

  it("executes the valid calls and answers unknown and ptc_lisp-only names with unknown_tool", async () => {
    const { tools, executed } = exposureTools();
    const { model } = await runScript(combinedAgent({ tools }), [
      {
        toolCalls: [
          { id: "a", name: "native_tool", args: { id: 1 } },
          { id: "b", name: "missing_tool", args: { id: 2 } },
          { id: "c", name: "lisp_tool", args: { id: 3 } },
        ],
      },
      "done",
    ]);
    expect(executed).toEqual(["native_tool"]);
    const results = toolMessages(model.calls[1]?.messages);
    expect(results.map((message) => message.toolCallId)).toEqual(["a", "b", "c"]);
    expect(JSON.parse(results[0]?.content ?? "")).toBe("native_tool:1");
    expect(JSON.parse(results[1]?.content ?? "")).toEqual({
      status: "error",
      reason: "unknown_tool",
      message: "Unknown native tool `missing_tool`.",
    });
    expect(JSON.parse(results[2]?.content ?? "")).toEqual({
      status: "error",
      reason: "unknown_tool",
      message: "Unknown native tool `lisp_tool`.",
    });
  });

  it("records unknown_tool calls in step.toolCalls with their error", async () => {
    const { tools } = exposureTools();
    const { result } = await runScript(combinedAgent({ tools }), [
      {
        toolCalls: [
          { id: "a", name: "lisp_tool", args: { id: 1 } },
          { id: "b", name: "native_tool", args: { id: 2 } },
        ],
      },
      "done",
    ]);
    expect(result.step.toolCalls.map(({ name, id, error }) => ({ name, id, error }))).toEqual([
      { name: "lisp_tool", id: "a", error: "Unknown native tool `lisp_tool`." },
      { name: "native_tool", id: "b", error: undefined },
    ]);
  });

  it("answers a turn of only unknown calls with one unknown_tool per id", async () => {
    const { model, result } = await runScript(combinedAgent(), [
      {
        toolCalls: [
          { id: "a", name: "x", args: {} },
          { id: "b", name: "y", args: {} },
        ],
      },
      "done",
    ]);
    const results = toolMessages(model.calls[1]?.messages);
    expect(results.map((message) => [message.toolCallId, JSON.parse(message.content).reason])).toEqual([
      ["a", "unknown_tool"],
      ["b", "unknown_tool"],
    ]);
    expect(result.step.return).toBe("done");
  });

  it("prefers unknown_tool over args_error, and keeps args_error for known tools", async () => {
    const { tools, executed } = exposureTools();
    const { model } = await runScript(combinedAgent({ tools }), [
      {
        toolCalls: [
          { id: "a", name: "ghost", args: "{not json" },
          { id: "b", name: "native_tool", args: "{not json" },
        ],
      },
      "done",
    ]);
    expect(executed).toEqual([]);
    const results = toolMessages(model.calls[1]?.messages).map((message) => JSON.parse(message.content));
    expect(results).toEqual([
      { status: "error", reason: "unknown_tool", message: "Unknown native tool `ghost`." },
      { error: "Invalid JSON arguments: {not json" },
    ]);
  });

  it("reports lisp_eval argument problems as args_error with feedback", async () => {
    const { model } = await runScript(combinedAgent(), [
      { toolCalls: [{ id: "a", name: "lisp_eval", args: { program: "   " } }] },
      { toolCalls: [{ id: "b", name: "lisp_eval", args: "{oops" }] },
      "done",
    ]);
    expect(lastToolBody(model.calls[1]?.messages)).toEqual({
      status: "error",
      reason: "args_error",
      message: "lisp_eval `program` must be a non-empty string.",
      feedback: "lisp_eval `program` must be a non-empty string.",
    });
    expect(lastToolBody(model.calls[2]?.messages)).toMatchObject({
      status: "error",
      reason: "args_error",
      message: "Invalid tool arguments: Invalid JSON arguments: {oops",
    });
  });
});

describe("expose policy inside programs", () => {
  it("rejects a native-only tool before the program runs, listing the available tools", async () => {
    const { tools, executed } = exposureTools();
    const { model, result } = await runScript(combinedAgent({ tools }), [
      { toolCalls: [lispEval("a", "(tool/both_tool {:id 1})\n(tool/native_tool {:id 2})")] },
      "done",
    ]);
    // Nothing ran: not even the allowed call that comes first.
    expect(executed).toEqual([]);
    const body = lastToolBody(model.calls[1]?.messages);
    expect(body.status).toBe("error");
    expect(body.reason).toBe("runtime_error");
    expect(body.message).toContain("Unknown tool: native_tool");
    expect(body.message).toContain("Available tools: both_tool, lisp_tool");
    expect(result.ok).toBe(true);
  });

  it("rejects the default (native) exposure inside programs too", async () => {
    const { tools, executed } = exposureTools();
    const { model } = await runScript(combinedAgent({ tools }), [
      { toolCalls: [lispEval("a", "(tool/default_tool {:id 1})")] },
      "done",
    ]);
    expect(executed).toEqual([]);
    expect(String(lastToolBody(model.calls[1]?.messages).message)).toContain("Unknown tool: default_tool");
  });

  it("lets programs call both and ptc_lisp tools", async () => {
    const { tools, executed } = exposureTools();
    const { model } = await runScript(combinedAgent({ tools }), [
      { toolCalls: [lispEval("a", "[(tool/both_tool {:id 1}) (tool/lisp_tool {:id 2})]")] },
      "done",
    ]);
    expect(executed).toEqual(["both_tool", "lisp_tool"]);
    expect(lastToolBody(model.calls[1]?.messages).result).toBe('user=> ["both_tool:1" "lisp_tool:2"]');
  });

  it("fails a tool call at run time when no tool is program-callable", async () => {
    let called = 0;
    const agent = combinedAgent({
      tools: {
        only_native: {
          execute: () => {
            called += 1;
            return 1;
          },
        },
      },
    });
    const { model } = await runScript(agent, [
      { toolCalls: [lispEval("a", '(println "before")\n(tool/only_native {})')] },
      "done",
    ]);
    expect(called).toBe(0);
    const body = lastToolBody(model.calls[1]?.messages);
    expect(body.status).toBe("error");
    expect(body.reason).toBe("runtime_error");
  });

  it("runs programs that call no tool with zero exposed tools", async () => {
    const { model, result } = await runScript(combinedAgent(), [
      { toolCalls: [lispEval("a", "(reduce + (map #(* % %) [1 2 3]))")] },
      "14",
    ]);
    expect(lastToolBody(model.calls[1]?.messages)).toMatchObject({ status: "ok", result: "user=> 14" });
    expect(result.step.return).toBe("14");
  });

  it("reads context data under data/", async () => {
    const model = createScriptedModel([{ toolCalls: [lispEval("a", "(count data/orders)")] }, "2"]);
    await run(combinedAgent(), { llm: model.llm, context: { orders: [{ id: 1 }, { id: 2 }] } });
    expect(lastToolBody(model.calls[1]?.messages).result).toBe("user=> 2");
  });
});

describe("program outcomes are tool results", () => {
  it("turns (return v) into a success tool result and lets the model answer", async () => {
    const { model, result } = await runScript(combinedAgent({ signature: "() -> {total :int}" }), [
      { toolCalls: [lispEval("a", "(return {:total 7})")] },
      '{"total": 7}',
    ]);
    expect(lastToolBody(model.calls[1]?.messages)).toMatchObject({
      status: "ok",
      result: "user=> {:total 7}",
    });
    expect(result.ok).toBe(true);
    expect(result.step.return).toEqual({ total: 7 });
    expect(model.calls).toHaveLength(2);
  });

  it("turns (fail v) into an error tool result with reason fail and the value, without ending the run", async () => {
    const { model, result } = await runScript(combinedAgent(), [
      { toolCalls: [lispEval("a", '(fail {:why "no data"})')] },
      "Sorry, there was no data.",
    ]);
    const body = lastToolBody(model.calls[1]?.messages);
    expect(body.status).toBe("error");
    expect(body.reason).toBe("fail");
    expect(body.result).toBe('{:why "no data"}');
    expect(typeof body.message).toBe("string");
    expect(body.message).toContain("no data");
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe("Sorry, there was no data.");
  });

  it("reports Lisp errors with the classified reason", async () => {
    const { model } = await runScript(combinedAgent(), [
      { toolCalls: [lispEval("a", "(+ 1")] },
      { toolCalls: [lispEval("b", "(undefined-thing 1)")] },
      "done",
    ]);
    expect(lastToolBody(model.calls[1]?.messages)).toMatchObject({ status: "error", reason: "parse_error" });
    expect(lastToolBody(model.calls[2]?.messages)).toMatchObject({
      status: "error",
      reason: "runtime_error",
    });
  });

  it("threads program memory from one lisp_eval to the next", async () => {
    const { model, result } = await runScript(combinedAgent(), [
      { toolCalls: [lispEval("a", "(def base 40)")] },
      { toolCalls: [lispEval("b", "(+ base 2)")] },
      "42",
    ]);
    expect(lastToolBody(model.calls[2]?.messages).result).toBe("user=> 42");
    expect(result.step.memory).toEqual({ base: 40 });
  });

  it("records each lisp_eval call with its program value", async () => {
    const { result } = await runScript(combinedAgent(), [
      { toolCalls: [lispEval("a", "(return [1 2])")] },
      "done",
    ]);
    const record = result.step.toolCalls.find((call) => call.name === "lisp_eval");
    expect(record).toMatchObject({
      name: "lisp_eval",
      exposureLayer: "native",
      cached: false,
      result: [1, 2],
    });
    expect(record?.args).toEqual({ program: "(return [1 2])" });
  });
});

describe("program state across lisp_eval calls", () => {
  it("gives id-less lisp_eval calls distinct synthetic ids on consecutive turns", async () => {
    const { model } = await runScript(combinedAgent(), [
      { toolCalls: [{ name: "lisp_eval", args: { program: "1" } }] },
      { toolCalls: [{ name: "lisp_eval", args: { program: "2" } }] },
      "done",
    ]);
    const messages = model.calls[2]?.messages ?? [];
    expect(messages.flatMap((message) => message.toolCalls?.map((call) => call.id) ?? [])).toEqual([
      "tc_1",
      "tc_2",
    ]);
    expect(toolMessages(messages).map((message) => message.toolCallId)).toEqual(["tc_1", "tc_2"]);
  });

  it("advances *1 for plain values but not for (return v)", async () => {
    const { model } = await runScript(combinedAgent(), [
      { toolCalls: [lispEval("a", "7")] },
      { toolCalls: [lispEval("b", "(return 99)")] },
      { toolCalls: [lispEval("c", "*1")] },
      "done",
    ]);
    expect(lastToolBody(model.calls[3]?.messages).result).toBe("user=> 7");
  });

  it("shows the last failure to the next program as data/fail", async () => {
    const { model } = await runScript(combinedAgent(), [
      { toolCalls: [lispEval("a", "(/ 1 0)")] },
      { toolCalls: [lispEval("b", '(get data/fail "reason")')] },
      "done",
    ]);
    expect(lastToolBody(model.calls[1]?.messages).status).toBe("error");
    expect(lastToolBody(model.calls[2]?.messages).result).toMatch(/^user=> "\w+"$/);
  });

  it("rolls a turn back over the memory limit with the rollback strategy", async () => {
    const agent = createAgent({
      prompt: "p",
      output: "text",
      ptcTransport: "tool_call",
      memoryLimit: 200,
      memoryStrategy: "rollback",
    });
    const model = createScriptedModel([
      { toolCalls: [lispEval("a", "(def small 1)")] },
      { toolCalls: [lispEval("b", "(def big (range 1000))")] },
      "done",
    ]);
    const result = await run(agent, { llm: model.llm });
    const body = lastToolBody(model.calls[2]?.messages);
    expect(body.status).toBe("error");
    expect(body.reason).toBe("memory_limit");
    expect(String(body.message)).toMatch(
      /^Memory limit exceeded \(\d+ bytes > 200 bytes\)\. Last turn rolled back\.$/,
    );
    expect(result.ok).toBe(true);
    expect(result.step.memory).toEqual({ small: 1 });
  });

  it("ends the run over the memory limit with the strict strategy, pairing the tool message", async () => {
    const agent = createAgent({ prompt: "p", output: "text", ptcTransport: "tool_call", memoryLimit: 200 });
    const model = createScriptedModel([{ toolCalls: [lispEval("a", "(def big (range 1000))")] }]);
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    model.assertConsumed();
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("memory_limit_exceeded");
    expect(result.step.fail?.message).toMatch(/^Memory limit exceeded \(\d+ bytes > 200 bytes\)\.$/);
    const last = result.step.messages?.at(-1);
    expect(last?.toolCallId).toBe("a");
    expect(JSON.parse(last?.content ?? "").reason).toBe("memory_limit");
  });
});

describe("final answer per signature", () => {
  it("returns raw text without a signature and with :any", async () => {
    const { result } = await runScript(combinedAgent({ signature: ":any" }), ['  {"raw": true} ']);
    expect(result.step.return).toBe('  {"raw": true} ');
    const { result: plain } = await runScript(combinedAgent(), ["[1, 2]"]);
    expect(plain.step.return).toBe("[1, 2]");
  });

  it("parses map answers as JSON, retrying with the JSON message while turns remain", async () => {
    const { model, result } = await runScript(combinedAgent({ signature: "() -> {total :int}" }), [
      "The total is 3.",
      '```json\n{"total": 3}\n```',
    ]);
    expect(result.step.return).toEqual({ total: 3 });
    expect(model.calls[1]?.messages.slice(-2)).toEqual([
      { role: "assistant", content: "The total is 3." },
      {
        role: "user",
        content:
          "Error: No valid JSON found in response. Please return a valid JSON object matching the expected output format.",
      },
    ]);
  });

  it("parses list answers, bare or wrapped in items", async () => {
    const { result } = await runScript(combinedAgent({ signature: "() -> [:int]" }), ["[1, 2, 3]"]);
    expect(result.step.return).toEqual([1, 2, 3]);
    const { result: wrapped } = await runScript(combinedAgent({ signature: "() -> [:int]" }), [
      '{"items": [4]}',
    ]);
    expect(wrapped.step.return).toEqual([4]);
  });

  it("normalizes hyphenated keys of map answers", async () => {
    const { result } = await runScript(combinedAgent({ signature: "() -> {was_improved :bool}" }), [
      '{"was-improved": true}',
    ]);
    expect(result.step.return).toEqual({ was_improved: true });
  });

  it("coerces an :int answer strictly, retrying with the scalar message", async () => {
    const { model, result } = await runScript(combinedAgent({ signature: ":int" }), [
      "forty-two",
      "4.5",
      " 42\n",
    ]);
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe(42);
    expect(model.calls[1]?.messages.at(-1)).toEqual({
      role: "user",
      content:
        "Error: Could not parse JSON from response.. Please return a valid value matching the expected output.",
    });
    expect(model.calls[2]?.messages.at(-1)?.content).toContain("Return validation failed:");
    expect(model.calls[2]?.messages.at(-1)?.content).toContain("expected int");
  });

  it("coerces :bool and :float answers", async () => {
    const { result } = await runScript(combinedAgent({ signature: ":bool" }), ["false"]);
    expect(result.step.return).toBe(false);
    const { result: float } = await runScript(combinedAgent({ signature: ":float" }), ["2"]);
    expect(float.step.return).toBe(2);
  });

  it("fails with validation_error when the last turn's answer does not coerce", async () => {
    const { result } = await runScript(combinedAgent({ signature: ":int", maxTurns: 2 }), ["one", "two"]);
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({
      reason: "validation_error",
      message: "Could not parse JSON from response.",
    });
  });

  it("fails a map answer on the last turn with the JSON reasons", async () => {
    const { result } = await runScript(combinedAgent({ signature: "() -> {total :int}", maxTurns: 1 }), [
      '{"total": "many"}',
    ]);
    expect(result.step.fail?.reason).toBe("validation_error");
    const { result: unparsed } = await runScript(
      combinedAgent({ signature: "() -> {total :int}", maxTurns: 1 }),
      ["many"],
    );
    expect(unparsed.step.fail?.reason).toBe("json_parse_error");
  });

  it("treats fenced code as the final answer, not as a program", async () => {
    const { result } = await runScript(combinedAgent(), ["```clojure\n(+ 1 2)\n```"]);
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe("```clojure\n(+ 1 2)\n```");
  });
});

describe("combined-mode budgets", () => {
  it("exempts lisp_eval from maxToolCalls while native calls consume it", async () => {
    const { tools, executed } = exposureTools();
    const { model, result } = await runScript(combinedAgent({ tools, maxToolCalls: 1, maxTurns: 6 }), [
      { toolCalls: [{ id: "a", name: "native_tool", args: { id: 1 } }] },
      { toolCalls: [lispEval("b", "(+ 1 1)")] },
      { toolCalls: [lispEval("c", "(+ 2 2)")] },
      { toolCalls: [{ id: "d", name: "native_tool", args: { id: 2 } }] },
      "done",
    ]);
    expect(executed).toEqual(["native_tool"]);
    expect(lastToolBody(model.calls[2]?.messages).result).toBe("user=> 2");
    expect(lastToolBody(model.calls[3]?.messages).result).toBe("user=> 4");
    expect(lastToolBody(model.calls[4]?.messages)).toEqual({ error: "Tool call limit reached (max: 1)" });
    expect(result.step.return).toBe("done");
  });

  it("limits tool calls per program with maxToolCalls as well", async () => {
    const { tools, executed } = exposureTools();
    const { model } = await runScript(combinedAgent({ tools, maxToolCalls: 1 }), [
      { toolCalls: [lispEval("a", "[(tool/both_tool {:id 1}) (tool/both_tool {:id 2})]")] },
      "done",
    ]);
    expect(executed).toEqual(["both_tool"]);
    const body = lastToolBody(model.calls[1]?.messages);
    expect(body.status).toBe("error");
    expect(body.reason).toBe("runtime_error");
    expect(String(body.message)).toContain("tool call limit of 1");
  });

  it("ends with max_turns_exceeded when lisp_eval takes the last turn, pairing its tool message", async () => {
    const model = createScriptedModel([
      { toolCalls: [lispEval("a", "(def x 1)")] },
      { toolCalls: [lispEval("b", "(return {:answer 42})")] },
    ]);
    const result = await run(combinedAgent({ maxTurns: 2 }), { llm: model.llm, collectMessages: true });
    model.assertConsumed();
    expect(result.ok).toBe(false);
    expect(result.step.fail).toEqual({
      reason: "max_turns_exceeded",
      message: "Exceeded max_turns limit of 2",
    });
    expect(result.step.return).toBeNull();
    const messages = result.step.messages ?? [];
    expect(messages.at(-2)?.toolCalls?.[0]?.id).toBe("b");
    expect(messages.at(-1)?.role).toBe("tool");
    expect(messages.at(-1)?.toolCallId).toBe("b");
    expect(readToolBody(messages.at(-1)?.content).result).toBe("user=> {:answer 42}");
  });

  it("does not spend maxToolCalls on rejected turns", async () => {
    const { tools, executed } = exposureTools();
    const { model } = await runScript(combinedAgent({ tools, maxToolCalls: 1 }), [
      { toolCalls: [lispEval("a", "1"), { id: "b", name: "native_tool", args: { id: 1 } }] },
      { toolCalls: [{ id: "c", name: "native_tool", args: { id: 2 } }] },
      "done",
    ]);
    expect(executed).toEqual(["native_tool"]);
    expect(JSON.parse(toolMessages(model.calls[2]?.messages).at(-1)?.content ?? "")).toBe("native_tool:2");
  });

  it("counts rejected turns against maxTurns", async () => {
    const model = createScriptedModel([{ toolCalls: [lispEval("a", "1"), lispEval("b", "2")] }]);
    const result = await run(combinedAgent({ maxTurns: 1 }), { llm: model.llm });
    expect(result.step.fail?.reason).toBe("max_turns_exceeded");
  });
});
