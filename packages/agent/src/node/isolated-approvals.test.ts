/**
 * Approvals with programs in a worker thread (`createWorkerIsolation`): the worker holds the calls
 * the host says need approval, pauses once nothing else can move, and replays its ledger on
 * resume; the host's tools run exactly once across pauses, as on the host's thread.
 */
import { afterAll, describe, expect, it } from "vitest";
import { fence, refundDesk } from "../__tests__/__fixtures__/refund-tools.js";
import { createAgent, type PausedRunResult, type RunResult, resume, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { testIsolation } from "./__fixtures__/worker-isolation.js";

const isolation = testIsolation();
afterAll(() => {
  expect(isolation.opened).toBeGreaterThan(0);
  expect(isolation.closed).toBe(isolation.opened);
});

function paused(result: RunResult): PausedRunResult {
  if (!result.paused) throw new Error(`expected a paused run, got ${JSON.stringify(result.step.fail)}`);
  return result;
}

const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value));

describe("approvals under worker isolation", () => {
  it("pauses pmap branches together in the worker and resumes each approved call once", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund 7 and 9", tools: desk.tools, isolation });
    const model = createScriptedModel([
      fence(
        "(def done (pmap (fn [id] (let [o (tool/get_order {:id id})] (tool/refund {:id id :amount (:amount o)}))) [7 9]))\n(return done)",
      ),
    ]);
    const first = paused(await run(agent, { llm: model.llm }));
    expect(first.pending.map((call) => call.args)).toEqual([
      { id: 7, amount: 70 },
      { id: 9, amount: 15 },
    ]);
    expect(desk.calls).toEqual({ get_order: 2 });
    const second = await resume(agent, stored(first.state), {
      llm: model.llm,
      approve: first.pending.map((call) => call.id),
    });
    expect(second.ok && second.step.return).toEqual([{ refunded: 7 }, { refunded: 9 }]);
    expect(desk.calls).toEqual({ get_order: 2, refund: 2 });
  });

  it("pauses again at the next call in sequence, and shows a rejection to the program", async () => {
    const desk = refundDesk();
    const agent = createAgent({ prompt: "Refund 7 then 8", tools: desk.tools, isolation });
    const model = createScriptedModel([
      fence(
        "(def a (tool/refund {:id 7 :amount 70}))\n(def b (tool/refund {:id 8 :amount 250}))\n(return [a b])",
      ),
      fence('(return "7 refunded, 8 refused")'),
    ]);
    const first = paused(await run(agent, { llm: model.llm }));
    const second = paused(
      await resume(agent, stored(first.state), { llm: model.llm, approve: [first.pending[0]?.id ?? ""] }),
    );
    expect(second.pending.map((call) => call.args.id)).toEqual([8]);
    const third = await resume(agent, stored(second.state), {
      llm: model.llm,
      reject: [{ id: second.pending[0]?.id ?? "", message: "too large" }],
    });
    expect(third.ok && third.step.return).toBe("7 refunded, 8 refused");
    expect(desk.refunds).toEqual([{ id: 7, amount: 70 }]);
    expect(model.calls[1]?.messages.at(-1)?.content).toContain("not approved: too large");
  });

  it("pauses and resumes a lisp_eval program of a combined-mode agent", async () => {
    const desk = refundDesk({ expose: "both" });
    const agent = createAgent({
      prompt: "Refund 9",
      output: "text",
      ptcTransport: "tool_call",
      tools: desk.tools,
      isolation,
    });
    const model = createScriptedModel([
      { toolCalls: [{ id: "e", name: "lisp_eval", args: { program: "(tool/refund {:id 9 :amount 15})" } }] },
      "Refunded 9.",
    ]);
    const first = paused(await run(agent, { llm: model.llm }));
    const second = await resume(agent, stored(first.state), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
    });
    expect(second.ok && second.step.return).toBe("Refunded 9.");
    expect(desk.calls).toEqual({ refund: 1 });
  });
});
