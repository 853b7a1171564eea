/**
 * The edges of approvals: a bad `needsApproval` is refused when the agent is made; an agent
 * called as a tool cannot pause its parent (its gated call fails, the tool does not run); and a
 * transcript of a paused run and its resume replays to the same answer.
 */
import { describe, expect, it } from "vitest";
import { AgentError, asTool, createAgent, createJsonlTranscript, resume, run } from "../index.js";
import { createScriptedModel, replayTranscript } from "../testing/index.js";
import { fence, refundDesk } from "./__fixtures__/refund-tools.js";

describe("approvals at the edges", () => {
  it("refuses a needsApproval that is neither a boolean nor a function", () => {
    const make = () =>
      createAgent({ prompt: "p", tools: { refund: { execute: () => 1, needsApproval: "yes" as never } } });
    expect(make).toThrow(AgentError);
    expect(make).toThrow('tools: tool "refund": needsApproval must be true, false or a function');
  });

  it("fails the gated call of an agent called as a tool, which cannot pause its parent", async () => {
    const desk = refundDesk();
    const child = createAgent({
      prompt: "Refund order {{id}}",
      signature: "(id :int) -> :any",
      description: "Refunds one order.",
      tools: desk.tools,
    });
    const parent = createAgent({ prompt: "Refund order 7", tools: { refunder: asTool(child) } });
    const model = createScriptedModel([
      fence("(tool/refunder {:id 7})"),
      fence("(return (tool/refund {:id 7 :amount 70}))"),
      fence('(return "could not refund")'),
    ]);
    const result = await run(parent, { llm: model.llm });
    expect(result.paused).toBeFalsy();
    expect(desk.calls).toEqual({});
    const childStep = result.step.childSteps[0];
    const failed = childStep?.turns?.[0]?.result as { error: { reason: string; message: string } };
    expect(failed.error.reason).toBe("tool_error");
    expect(failed.error.message).toContain(
      "tool refund needs approval, and an agent called as a tool cannot pause for it: the call did not run",
    );
  });

  it("gates an agent called as a tool with asTool's needsApproval: the child runs once, after approval", async () => {
    const desk = refundDesk({ needsApproval: false });
    const child = createAgent({
      prompt: "Refund order {{id}}",
      signature: "(id :int) -> :any",
      description: "Refunds one order.",
      tools: desk.tools,
    });
    const parent = createAgent({
      prompt: "Refund order 7",
      tools: { refunder: asTool(child, { needsApproval: true }) },
    });
    const model = createScriptedModel([
      fence("(return (tool/refunder {:id 7}))"),
      fence("(return (tool/refund {:id 7 :amount 70}))"),
    ]);
    const first = await run(parent, { llm: model.llm });
    if (!first.paused) throw new Error("expected a pause");
    expect(first.pending).toMatchObject([{ toolName: "refunder", args: { id: 7 } }]);
    expect(model.calls).toHaveLength(1);
    const second = await resume(parent, first.state, {
      llm: model.llm,
      approve: first.pending.map((call) => call.id),
    });
    expect(second.ok && second.step.return).toEqual({ refunded: 7 });
    expect(desk.calls).toEqual({ refund: 1 });
  });

  it("replays a transcript of a paused run and its resume to the same answer", async () => {
    const program = fence("(def o (tool/get_order {:id 7}))\n(tool/refund {:id 7 :amount (:amount o)})");
    const transcript = createJsonlTranscript();
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund order 7", tools: desk.tools });
    const model = createScriptedModel([program, fence("(return *1)")]);
    const first = await run(agent, { llm: model.llm, transcript: transcript.write });
    if (!first.paused) throw new Error("expected a pause");
    const done = await resume(agent, first.state, {
      llm: model.llm,
      approve: first.pending.map((call) => call.id),
      transcript: transcript.write,
    });

    const replayed = replayTranscript(transcript.lines.join("\n"));
    const again = refundDesk();
    const replayAgent = createAgent({ prompt: "Refund order 7", tools: again.tools });
    const pausedAgain = await run(replayAgent, { llm: replayed.llm });
    if (!pausedAgain.paused) throw new Error("expected a pause");
    const doneAgain = await resume(replayAgent, pausedAgain.state, {
      llm: replayed.llm,
      approve: pausedAgain.pending.map((call) => call.id),
    });
    replayed.assertConsumed();
    expect(doneAgain.step.return).toEqual(done.step.return);
    expect(again.calls).toEqual(desk.calls);
  });
});
