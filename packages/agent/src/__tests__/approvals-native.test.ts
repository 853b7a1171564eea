/**
 * Approvals of native calls (text mode, combined mode), of calls inside `lisp_eval` programs in
 * combined mode, and of `chat` exchanges: the turn that needs a decision pauses the run, the calls
 * of that turn that could run have run (and are never run again), and `resume` answers every call
 * of the turn in order before the model is asked again.
 */
import { describe, expect, it } from "vitest";
import {
  type ChatReply,
  chat,
  createAgent,
  type PausedRunResult,
  type RunResult,
  resume,
  resumeChat,
  run,
} from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { refundDesk } from "./__fixtures__/refund-tools.js";

function paused(result: RunResult): PausedRunResult {
  if (!result.paused) throw new Error(`expected a paused run, got ${JSON.stringify(result.step.fail)}`);
  return result;
}

const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value));

function toolMessages(model: ReturnType<typeof createScriptedModel>, call: number) {
  return (model.calls[call]?.messages ?? []).filter((message) => message.role === "tool");
}

describe("a native call that needs approval", () => {
  it("pauses its turn; the turn's other calls run once, the approved one after the resume", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund order 7", output: "text", tools: desk.tools });
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "get_order", args: { id: 7 } },
          { id: "b", name: "refund", args: { id: 7, amount: 70 } },
          { id: "c", name: "get_order", args: { id: 9 } },
        ],
      },
      "Order 7 is refunded.",
    ]);
    const first = paused(await run(agent, { llm: model.llm }));
    expect(first.pending).toEqual([
      { id: expect.any(String), toolName: "refund", args: { id: 7, amount: 70 }, layer: "native" },
    ]);
    expect(desk.calls).toEqual({ get_order: 2 });
    expect(first.step.toolCalls.map((call) => call.id)).toEqual(["a", "c"]);

    const second = await resume(agent, stored(first.state), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
    });
    expect(second.ok && second.step.return).toBe("Order 7 is refunded.");
    expect(desk.calls).toEqual({ get_order: 2, refund: 1 });
    // Every call of the turn answered, in the order the model made them.
    const answers = toolMessages(model, 1);
    expect(answers.map((message) => message.toolCallId)).toEqual(["a", "b", "c"]);
    expect(JSON.parse(answers[1]?.content ?? "")).toEqual({ refunded: 7 });
    expect(second.step.toolCalls.map((call) => [call.id, call.approval])).toEqual([
      ["a", undefined],
      ["b", "approved"],
      ["c", undefined],
    ]);
  });

  it("answers a rejected native call with a tool error the model reads", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund order 8", output: "text", tools: desk.tools });
    const model = createScriptedModel([
      { toolCalls: [{ id: "r", name: "refund", args: { id: 8, amount: 250 } }] },
      "The refund was not approved.",
    ]);
    const first = paused(await run(agent, { llm: model.llm }));
    const second = await resume(agent, stored(first.state), {
      llm: model.llm,
      reject: [{ id: first.pending[0]?.id ?? "", message: "over the limit" }],
    });
    expect(second.ok).toBe(true);
    expect(desk.calls).toEqual({});
    expect(JSON.parse(toolMessages(model, 1)[0]?.content ?? "")).toMatchObject({
      error: "not approved: over the limit",
      tool: "refund",
    });
    expect(second.step.toolCalls).toMatchObject([{ id: "r", approval: "rejected" }]);
  });

  it("pauses all gated calls of one response together", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund 7 and 9", output: "text", tools: desk.tools });
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "x", name: "refund", args: { id: 7, amount: 70 } },
          { id: "y", name: "refund", args: { id: 9, amount: 15 } },
        ],
      },
      "Done.",
    ]);
    const first = paused(await run(agent, { llm: model.llm }));
    expect(first.pending.map((call) => call.args.id)).toEqual([7, 9]);
    const second = await resume(agent, stored(first.state), {
      llm: model.llm,
      approve: first.pending.map((call) => call.id),
    });
    expect(second.ok).toBe(true);
    expect(desk.refunds).toEqual([
      { id: 7, amount: 70 },
      { id: 9, amount: 15 },
    ]);
  });
});

describe("combined mode", () => {
  function combinedAgent(desk: ReturnType<typeof refundDesk>) {
    return createAgent({
      prompt: "Refund order 7",
      output: "text",
      ptcTransport: "tool_call",
      tools: desk.tools,
    });
  }

  it("pauses and resumes a native call", async () => {
    const desk = refundDesk({ expose: "both" });
    const model = createScriptedModel([
      { toolCalls: [{ id: "n1", name: "refund", args: { id: 7, amount: 70 } }] },
      "Refunded.",
    ]);
    const agent = combinedAgent(desk);
    const first = paused(await run(agent, { llm: model.llm }));
    expect(first.pending[0]?.layer).toBe("native");
    const second = await resume(agent, stored(first.state), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
    });
    expect(second.ok && second.step.return).toBe("Refunded.");
    expect(desk.calls).toEqual({ refund: 1 });
  });

  it("pauses and resumes a call inside a lisp_eval program, which then answers lisp_eval once", async () => {
    const desk = refundDesk({ expose: "both" });
    const program = "(let [o (tool/get_order {:id 7})] (tool/refund {:id 7 :amount (:amount o)}))";
    const model = createScriptedModel([
      { toolCalls: [{ id: "e1", name: "lisp_eval", args: { program } }] },
      "Refunded 70.",
    ]);
    const agent = combinedAgent(desk);
    const first = paused(await run(agent, { llm: model.llm }));
    expect(first.pending).toMatchObject([
      { toolName: "refund", layer: "ptc_lisp", args: { id: 7, amount: 70 } },
    ]);
    expect(desk.calls).toEqual({ get_order: 1 });
    const second = await resume(agent, stored(first.state), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
    });
    expect(second.ok && second.step.return).toBe("Refunded 70.");
    expect(desk.calls).toEqual({ get_order: 1, refund: 1 });
    const answers = toolMessages(model, 1);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.content).toContain('{\\"refunded\\" 7}');
    expect(second.step.toolCalls.map((call) => call.name)).toEqual(["lisp_eval", "get_order", "refund"]);
  });

  it("does not ask about a call the run's cache answers: the tool does not run", async () => {
    const desk = refundDesk({ expose: "both" });
    const agent = createAgent({
      prompt: "Look up order 7",
      output: "text",
      ptcTransport: "tool_call",
      tools: {
        get_order: {
          signature: "(id :int) -> :map",
          expose: "both",
          cache: true,
          needsApproval: true,
          execute: () => ({ id: 7 }),
        },
      },
    });
    const model = createScriptedModel([
      { toolCalls: [{ id: "n1", name: "get_order", args: { id: 7 } }] },
      { toolCalls: [{ id: "e1", name: "lisp_eval", args: { program: "(tool/get_order {:id 7})" } }] },
      "Order 7.",
    ]);
    const first = paused(await run(agent, { llm: model.llm }));
    const second = await resume(agent, stored(first.state), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
    });
    // Approved once natively; the program's call is answered from the cache without a new pause.
    expect(second.ok).toBe(true);
    expect(second.step.toolCalls.map((call) => [call.name, call.cached])).toEqual([
      ["get_order", false],
      ["lisp_eval", false],
      ["get_order", true],
    ]);
    expect(desk.calls).toEqual({});
  });
});

describe("chat across a pause", () => {
  it("pauses an exchange, resumes it with resumeChat, and the conversation goes on", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "unused", output: "text", tools: desk.tools });
    const model = createScriptedModel([
      { toolCalls: [{ id: "q", name: "refund", args: { id: 7, amount: 70 } }] },
      "Refunded order 7.",
      "You asked me to refund order 7.",
    ]);
    const first: ChatReply = await chat(agent, "Refund order 7", { llm: model.llm });
    if (!first.paused) throw new Error("expected the exchange to pause");
    expect(first.pending).toMatchObject([{ toolName: "refund" }]);
    expect(first.error.reason).toBe("paused");

    const second = await resumeChat(agent, stored(first.state), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
    });
    if (!second.ok) throw new Error(`expected an answer, got ${second.error.message}`);
    expect(second.reply).toBe("Refunded order 7.");
    expect(second.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(second.state.paused).toBeUndefined();

    const third = await chat(agent, "What did I ask?", { llm: model.llm, messages: second.messages });
    expect(third.ok && third.reply).toBe("You asked me to refund order 7.");
    expect(model.calls[2]?.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(desk.calls).toEqual({ refund: 1 });
  });
});
