/**
 * An approved call hands its approval id to the tool (`execute`'s `approvalId`): the same id on
 * every resume of the same state, and no id on calls nobody approved. A state holds no record of
 * being used, so a host that resumes it twice runs the approved call twice; a tool that keys its
 * irreversible work by the id does that work once.
 */
import { describe, expect, it } from "vitest";
import {
  type AgentToolDefinition,
  createAgent,
  type PausedRunResult,
  type RunResult,
  resume,
  run,
} from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { fence } from "./__fixtures__/refund-tools.js";

function paused(result: RunResult): PausedRunResult {
  if (!result.paused) throw new Error(`expected a paused run, got ${JSON.stringify(result.step.fail)}`);
  return result;
}

const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** A payment desk whose refunds are idempotent by approval id, as a payment API's keys are. */
function paymentDesk(expose?: "native" | "ptc_lisp" | "both") {
  const seen: { tool: string; approvalId: string | undefined; hasKey: boolean }[] = [];
  const refunded = new Map<string, unknown>();
  const exposed = expose === undefined ? {} : { expose };
  const tools: Record<string, AgentToolDefinition> = {
    get_order: {
      signature: "(id :int) -> {id :int, amount :int}",
      ...exposed,
      execute: (args: { id: number }, options) => {
        seen.push({ tool: "get_order", approvalId: options.approvalId, hasKey: "approvalId" in options });
        return { id: args.id, amount: 70 };
      },
    },
    refund: {
      signature: "(id :int, amount :int) -> {refunded :int}",
      ...exposed,
      needsApproval: true,
      execute: (args: { id: number; amount: number }, options) => {
        seen.push({ tool: "refund", approvalId: options.approvalId, hasKey: "approvalId" in options });
        const key = options.approvalId ?? `unkeyed-${seen.length}`;
        if (!refunded.has(key)) refunded.set(key, args);
        return { refunded: args.id };
      },
    },
  };
  return { tools, seen, refunded };
}

describe("execute's approvalId", () => {
  it("is the pending id for an approved program call, the same when the state is resumed twice", async () => {
    const desk = paymentDesk();
    const agent = createAgent({ prompt: "Refund order 7", tools: desk.tools });
    const program = fence(
      "(def order (tool/get_order {:id 7}))\n(tool/refund {:id 7 :amount (:amount order)})",
    );
    const first = paused(await run(agent, { llm: createScriptedModel([program]).llm }));
    const id = first.pending[0]?.id ?? "";
    const state = stored(first.state);

    for (let attempt = 0; attempt < 2; attempt++) {
      const model = createScriptedModel([fence("(return :done)")]);
      const resumed = await resume(agent, stored(state), { llm: model.llm, approve: [id] });
      expect(resumed.ok).toBe(true);
    }

    // get_order ran once (the first attempt; resumes answer it from the ledger), without an id.
    expect(desk.seen).toEqual([
      { tool: "get_order", approvalId: undefined, hasKey: false },
      { tool: "refund", approvalId: id, hasKey: true },
      { tool: "refund", approvalId: id, hasKey: true },
    ]);
    // The tool ran twice (the state was resumed twice); keyed by the id, the refund was made once.
    expect([...desk.refunded.keys()]).toEqual([id]);
  });

  it("is the pending id for an approved native call, and absent on the turn's other calls", async () => {
    const desk = paymentDesk();
    const agent = createAgent({ prompt: "Refund order 7", output: "text", tools: desk.tools });
    const turn = {
      toolCalls: [
        { id: "a", name: "get_order", args: { id: 7 } },
        { id: "b", name: "refund", args: { id: 7, amount: 70 } },
      ],
    };
    const first = paused(await run(agent, { llm: createScriptedModel([turn]).llm }));
    const id = first.pending[0]?.id ?? "";
    expect(first.pending[0]?.layer).toBe("native");

    for (let attempt = 0; attempt < 2; attempt++) {
      const model = createScriptedModel(["Refunded."]);
      const resumed = await resume(agent, stored(first.state), { llm: model.llm, approve: [id] });
      expect(resumed.ok && resumed.step.return).toBe("Refunded.");
    }

    expect(desk.seen).toEqual([
      { tool: "get_order", approvalId: undefined, hasKey: false },
      { tool: "refund", approvalId: id, hasKey: true },
      { tool: "refund", approvalId: id, hasKey: true },
    ]);
    expect([...desk.refunded.keys()]).toEqual([id]);
  });

  it("differs per approved call of one program, each call pausing the run in turn", async () => {
    const desk = paymentDesk();
    const agent = createAgent({ prompt: "Refund orders 7 and 9", tools: desk.tools });
    const program = fence(
      "(tool/refund {:id 7 :amount 70})\n(tool/refund {:id 9 :amount 15})\n(return :done)",
    );
    const first = paused(await run(agent, { llm: createScriptedModel([program]).llm }));
    const firstId = first.pending[0]?.id ?? "";
    // The resumed program runs the approved refund of 7, then pauses at the refund of 9.
    const second = paused(
      await resume(agent, stored(first.state), { llm: createScriptedModel([]).llm, approve: [firstId] }),
    );
    const secondId = second.pending[0]?.id ?? "";
    const third = await resume(agent, stored(second.state), {
      llm: createScriptedModel([]).llm,
      approve: [secondId],
    });

    expect(third.ok && third.step.return).toBe("done");
    expect(firstId).not.toBe(secondId);
    // Each refund ran once, under its own approval; the second resume answered 7 from the ledger.
    expect(desk.seen).toEqual([
      { tool: "refund", approvalId: firstId, hasKey: true },
      { tool: "refund", approvalId: secondId, hasKey: true },
    ]);
  });
});
