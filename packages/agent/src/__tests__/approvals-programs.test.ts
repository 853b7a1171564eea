/**
 * Approvals of calls made by programs (PTC-Lisp agents, both transports): the run pauses at a
 * call that needs approval, `resume` runs the program again from its start with its earlier calls
 * answered from its ledger, an approved call runs once, a rejected one is a tool error the
 * program and the model see, and a program that no longer makes the calls it made ends the run
 * with `replay_diverged`.
 */
import { describe, expect, it, vi } from "vitest";
import {
  type AgentEvent,
  createAgent,
  createJsonlTranscript,
  type PausedRunResult,
  type RunResult,
  resume,
  run,
} from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { fence, refundDesk } from "./__fixtures__/refund-tools.js";

function paused(result: RunResult): PausedRunResult {
  if (!result.paused) throw new Error(`expected a paused run, got ${JSON.stringify(result.step.fail)}`);
  return result;
}

/** What a host does with a state: keep it as text, read it back later. */
const stored = (result: PausedRunResult) => JSON.parse(JSON.stringify(result.state));

const REFUND_ONE = fence(
  "(def order (tool/get_order {:id 7}))\n(tool/refund {:id (:id order) :amount (:amount order)})",
);

describe("a program's call that needs approval", () => {
  it("pauses the run before the call runs, with the call pending and the step so far", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund order 7", tools: desk.tools });
    const model = createScriptedModel([REFUND_ONE]);
    const result = paused(await run(agent, { llm: model.llm }));

    expect(result.ok).toBe(false);
    expect(result.pending).toEqual([
      {
        id: expect.stringMatching(/^apv[0-9a-f]{12}_1$/),
        toolName: "refund",
        args: { id: 7, amount: 70 },
        layer: "ptc_lisp",
      },
    ]);
    expect(desk.calls).toEqual({ get_order: 1 });
    expect(result.step.fail?.reason).toBe("paused");
    expect(result.step.usage.turns).toBe(1);
    // The call that ran is in the step; the paused turn is not a turn yet.
    expect(result.step.toolCalls).toMatchObject([{ name: "get_order", result: { id: 7, amount: 70 } }]);
    expect(result.step.turns).toEqual([]);
    expect(JSON.parse(JSON.stringify(result.state))).toEqual(result.state);
    model.assertConsumed();
  });

  it("resumes: earlier calls come from the ledger, the approved call runs once, the turn goes on", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund order 7", tools: desk.tools });
    const model = createScriptedModel([REFUND_ONE, fence("(return {:refunded 7})")]);
    const first = paused(await run(agent, { llm: model.llm }));
    const second = await resume(agent, stored(first), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
    });

    expect(second.ok).toBe(true);
    expect(second.step.return).toEqual({ refunded: 7 });
    expect(desk.calls).toEqual({ get_order: 1, refund: 1 });
    expect(desk.refunds).toEqual([{ id: 7, amount: 70 }]);
    // One turn record for the paused turn, with every call that ran in it, the approved one marked.
    expect(second.step.turns?.map((turn) => turn.number)).toEqual([1, 2]);
    expect(second.step.turns?.[0]?.toolCalls).toMatchObject([
      { name: "get_order" },
      { name: "refund", approval: "approved", result: { refunded: 7 } },
    ]);
    expect(second.step.toolCalls.map((call) => call.name)).toEqual(["get_order", "refund"]);
    expect(second.step.usage.llmRequests).toBe(2);
    // The model read the refund's result after the resume, as if nothing had paused.
    expect(model.calls[1]?.messages.at(-1)?.content).toContain('user=> {"refunded" 7}');
    model.assertConsumed();
  });

  it("keeps the turns before the pause, their memory, calls and messages, through a JSON round trip", async () => {
    const desk = refundDesk();
    const agent = createAgent({
      prompt: "Refund order 7",
      tools: desk.tools,
      signature: "-> {refunded :int}",
    });
    const model = createScriptedModel([
      fence(
        '(def order (tool/get_order {:id 7}))\n(def note {:reason "late" :tags #{:vip}})\n(:amount order)',
      ),
      fence("(tool/refund {:id (:id order) :amount (:amount order)})"),
      fence("(return *1)"),
    ]);
    const first = paused(await run(agent, { llm: model.llm, collectMessages: true }));
    expect(first.step.turns).toHaveLength(1);
    const second = await resume(agent, stored(first), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
      collectMessages: true,
    });
    expect(second.ok && second.step.return).toEqual({ refunded: 7 });
    // The turn before the pause is the same turn, messages and system prompt included.
    expect(second.step.turns?.[0]).toEqual(first.step.turns?.[0]);
    expect(second.step.turns?.[0]?.messages?.length).toBe(1);
    expect(second.step.turns?.[1]?.messages).toEqual(model.calls[1]?.messages);
    expect(second.step.toolCalls.map((call) => call.name)).toEqual(["get_order", "refund"]);
    expect(second.step.memory).toMatchObject({
      order: { id: 7, amount: 70 },
      note: { reason: "late", tags: ["vip"] },
    });
    expect(second.step.usage.llmRequests).toBe(3);
    expect(second.step.messages?.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(desk.calls).toEqual({ get_order: 1, refund: 1 });
  });

  it("tells a resumed program that a function defined before the pause is gone, instead of an unknown name", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund order 7", tools: desk.tools });
    const model = createScriptedModel([
      fence("(defn half [x] (quot x 2))"),
      fence("(tool/refund {:id 7 :amount (half 70)})"),
      fence("(defn half [x] (quot x 2))\n(return (tool/refund {:id 7 :amount (half 70)}))"),
    ]);
    const first = paused(await run(agent, { llm: model.llm }));
    expect(first.pending[0]?.args).toEqual({ id: 7, amount: 35 });
    const second = paused(
      await resume(agent, stored(first), { llm: model.llm, approve: [first.pending[0]?.id ?? ""] }),
    );
    // The paused program could not call `half` again: it failed, the model read why and redefined it.
    expect(model.calls[2]?.messages.at(-1)?.content).toContain(
      'not callable: "function half was lost in the pause: define it again" is a string',
    );
    expect(second.pending[0]?.args).toEqual({ id: 7, amount: 35 });
    expect(desk.calls).toEqual({});
  });

  it("shows a rejected call to the program and the model as a tool error, and never runs it", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund order 7", tools: desk.tools });
    const model = createScriptedModel([REFUND_ONE, fence('(return "not refunded")')]);
    const first = paused(await run(agent, { llm: model.llm }));
    const second = await resume(agent, stored(first), {
      llm: model.llm,
      reject: [{ id: first.pending[0]?.id ?? "", message: "refunds over 50 need a manager" }],
    });

    expect(second.ok).toBe(true);
    expect(desk.calls).toEqual({ get_order: 1 });
    const feedback = model.calls[1]?.messages.at(-1)?.content ?? "";
    expect(feedback).toContain("not approved: refunds over 50 need a manager");
    expect(second.step.turns?.[0]?.result).toMatchObject({ error: { reason: "tool_error" } });
    expect(second.step.toolCalls).toMatchObject([
      { name: "get_order" },
      { name: "refund", approval: "rejected", error: "not approved: refunds over 50 need a manager" },
    ]);
  });

  it("pauses one call at a time in sequence, and runs each exactly once over several resumes", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund orders 7 and 9", tools: desk.tools });
    const program = fence(
      "(def a (tool/refund {:id 7 :amount 70}))\n(def b (tool/refund {:id 9 :amount 15}))\n(return [a b])",
    );
    const model = createScriptedModel([program]);
    const first = paused(await run(agent, { llm: model.llm }));
    expect(first.pending.map((call) => call.args)).toEqual([{ id: 7, amount: 70 }]);
    const second = paused(
      await resume(agent, stored(first), { llm: model.llm, approve: first.pending.map((call) => call.id) }),
    );
    expect(second.pending.map((call) => call.args)).toEqual([{ id: 9, amount: 15 }]);
    expect(second.pending[0]?.id).not.toBe(first.pending[0]?.id);
    expect(desk.refunds).toEqual([{ id: 7, amount: 70 }]);
    const third = await resume(agent, stored(second), {
      llm: model.llm,
      approve: second.pending.map((call) => call.id),
    });
    expect(third.ok && third.step.return).toEqual([{ refunded: 7 }, { refunded: 9 }]);
    expect(desk.refunds).toEqual([
      { id: 7, amount: 70 },
      { id: 9, amount: 15 },
    ]);
    expect(third.step.toolCalls.map((call) => call.approval)).toEqual(["approved", "approved"]);
  });

  it("pauses the gated calls of pmap branches together, and a rejection fails the program where it stands", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund orders 7, 8 and 9", tools: desk.tools });
    const program = fence(
      "(return (pmap (fn [id] (let [o (tool/get_order {:id id})] (tool/refund {:id id :amount (:amount o)}))) [7 8 9]))",
    );
    const model = createScriptedModel([program, fence('(return "refunded 7 only")')]);
    const first = paused(await run(agent, { llm: model.llm }));
    expect(first.pending.map((call) => call.args.id)).toEqual([7, 8, 9]);
    expect(new Set(first.pending.map((call) => call.id)).size).toBe(3);
    expect(desk.calls).toEqual({ get_order: 3 });

    const [seven, eight, nine] = first.pending.map((call) => call.id);
    const second = await resume(agent, stored(first), {
      llm: model.llm,
      approve: [seven ?? "", nine ?? ""],
      reject: [{ id: eight ?? "", message: "too large" }],
    });
    // Branches start in order: 7's refund runs, 8's rejection fails the pmap, so 9's is never
    // reached (a program's tool error stops it, as any tool's would). Nothing ran twice.
    expect(desk.calls).toEqual({ get_order: 3, refund: 1 });
    expect(desk.refunds).toEqual([{ id: 7, amount: 70 }]);
    expect(second.ok && second.step.return).toBe("refunded 7 only");
    expect(model.calls[1]?.messages.at(-1)?.content).toContain("not approved: too large");
  });

  it("with every pmap branch approved, answers with every branch's result", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund 7 and 9", tools: desk.tools });
    const program = fence("(return (pmap #(tool/refund {:id % :amount 1}) [7 9]))");
    const model = createScriptedModel([program]);
    const first = paused(await run(agent, { llm: model.llm }));
    const second = await resume(agent, stored(first), {
      llm: model.llm,
      approve: first.pending.map((call) => call.id),
    });
    expect(second.ok && second.step.return).toEqual([{ refunded: 7 }, { refunded: 9 }]);
    expect(desk.calls).toEqual({ refund: 2 });
  });

  it("ends with replay_diverged when the resumed program makes another call than before", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund the order of this minute", tools: desk.tools });
    // The program reads the clock: resumed a minute later, it would look up another order.
    const model = createScriptedModel([
      fence(
        "(def o (tool/get_order {:id (+ 7 (mod (quot (System/currentTimeMillis) 60000) 2))}))\n(tool/refund {:id (:id o) :amount 1})",
      ),
    ]);
    vi.useFakeTimers({ toFake: ["Date"], now: 0 });
    try {
      const first = paused(await run(agent, { llm: model.llm }));
      expect(desk.calls).toEqual({ get_order: 1 });
      vi.setSystemTime(60_000);
      const second = await resume(agent, stored(first), {
        llm: model.llm,
        approve: [first.pending[0]?.id ?? ""],
      });
      expect(second.ok).toBe(false);
      expect(second.step.fail?.reason).toBe("replay_diverged");
      expect(second.step.fail?.message).toContain(
        "at call 0 it called (tool/get_order {:id 8}), where the earlier run called (tool/get_order {:id 7})",
      );
    } finally {
      vi.useRealTimers();
    }
    // Nothing ran again, the refund never ran, and the model was not asked again.
    expect(desk.calls).toEqual({ get_order: 1 });
    expect(model.calls).toHaveLength(1);
  });

  it("asks a needsApproval function with the checked arguments, and pauses only when it says so", async () => {
    const asked: unknown[] = [];
    const desk = refundDesk({
      needsApproval: async (args: { amount: number }, context) => {
        asked.push({ args, layer: context.layer, toolName: context.toolName, turn: context.turn });
        return args.amount > 50;
      },
    });
    const agent = createAgent({ prompt: "Refund small orders", tools: desk.tools });
    const model = createScriptedModel([
      fence("(tool/refund {:id 9 :amount 15})\n(tool/refund {:id 8 :amount 250})"),
    ]);
    const result = paused(await run(agent, { llm: model.llm }));
    expect(desk.refunds).toEqual([{ id: 9, amount: 15 }]);
    expect(result.pending.map((call) => call.args)).toEqual([{ id: 8, amount: 250 }]);
    expect(asked).toEqual([
      { args: { id: 9, amount: 15 }, layer: "ptc_lisp", toolName: "refund", turn: 1 },
      { args: { id: 8, amount: 250 }, layer: "ptc_lisp", toolName: "refund", turn: 1 },
    ]);
  });

  it("fails closed: a needsApproval function that throws leaves the call to a person", async () => {
    const desk = refundDesk({
      needsApproval: () => {
        throw new Error("policy service down");
      },
    });
    const agent = createAgent({ prompt: "Refund", tools: desk.tools });
    const model = createScriptedModel([fence("(tool/refund {:id 9 :amount 15})")]);
    const result = paused(await run(agent, { llm: model.llm }));
    expect(result.pending).toHaveLength(1);
    expect(desk.calls).toEqual({});
  });

  it("pauses and resumes over lisp_eval (the tool_call transport)", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund order 7", ptcTransport: "tool_call", tools: desk.tools });
    const program = "(tool/refund {:id 7 :amount 70})";
    const model = createScriptedModel([
      { toolCalls: [{ id: "call_1", name: "lisp_eval", args: { program } }] },
      { toolCalls: [{ id: "call_2", name: "lisp_eval", args: { program: "(return *1)" } }] },
    ]);
    const first = paused(await run(agent, { llm: model.llm }));
    expect(first.pending).toMatchObject([{ toolName: "refund", layer: "ptc_lisp" }]);
    const second = await resume(agent, stored(first), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
    });
    expect(second.ok && second.step.return).toEqual({ refunded: 7 });
    expect(desk.calls).toEqual({ refund: 1 });
    // The paused lisp_eval was answered once, after the resume, with the refund's result.
    const toolMessages = model.calls[1]?.messages.filter((message) => message.role === "tool") ?? [];
    expect(toolMessages).toHaveLength(1);
    expect(toolMessages[0]?.content).toContain('user=> {\\"refunded\\" 7}');
  });

  it("reports approval-requested and run-resumed events, and keeps them in the transcript", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund order 7", tools: desk.tools });
    const model = createScriptedModel([REFUND_ONE, fence("(return :done)")]);
    const events: AgentEvent[] = [];
    const transcript = createJsonlTranscript();
    const first = paused(
      await run(agent, {
        llm: model.llm,
        onEvent: (event) => events.push(event),
        transcript: transcript.write,
      }),
    );
    const requested = events.filter((event) => event.type === "approval-requested");
    expect(requested).toMatchObject([
      { approvalId: first.pending[0]?.id, toolName: "refund", exposureLayer: "ptc_lisp", turn: 1 },
    ]);
    expect(requested[0]).not.toHaveProperty("args");
    const turnSpan = events.find((event) => event.type === "turn-start")?.spanId;
    expect(requested[0]?.parentSpanId).toBe(turnSpan);
    expect(events.at(-1)).toMatchObject({ type: "run-end", ok: false, fail: { reason: "paused" } });

    events.length = 0;
    await resume(agent, stored(first), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
      onEvent: (event) => events.push(event),
      transcript: transcript.write,
    });
    const types = events.map((event) => event.type);
    expect(types.slice(0, 3)).toEqual(["run-start", "run-resumed", "turn-start"]);
    expect(events[1]).toMatchObject({ approved: [first.pending[0]?.id], rejected: [], turn: 1 });
    expect(types.filter((type) => type === "tool-call-end")).toHaveLength(1);
    const lines = transcript.lines.map((line) => JSON.parse(line));
    const recorded = lines.filter((line) => line.type === "event").map((line) => line.event.type);
    expect(recorded).toContain("approval-requested");
    expect(recorded).toContain("run-resumed");
  });
});
