/**
 * A paused run's state: plain JSON, signed with `stateSecret` (a state changed by one byte is
 * refused with `invalid_state` and runs nothing), with an optional expiry, bound to its agent;
 * decisions must match the pending calls one to one; a resume can be aborted like any run; and a
 * ledger larger than the program's memory limit is charged and stops the program cleanly.
 */
import { describe, expect, it, vi } from "vitest";
import { AgentError, createAgent, type PausedRunResult, type RunResult, resume, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { fence, refundDesk } from "./__fixtures__/refund-tools.js";

const SECRET = "test-secret-0123456789abcdef0123456789";

function paused(result: RunResult): PausedRunResult {
  if (!result.paused) throw new Error(`expected a paused run, got ${JSON.stringify(result.step.fail)}`);
  return result;
}

async function pausedRefund(options: { stateSecret?: string; stateTtlMs?: number } = {}) {
  const desk = refundDesk();
  const agent = createAgent({ prompt: "Refund order 7", tools: desk.tools });
  const model = createScriptedModel([
    fence("(def o (tool/get_order {:id 7}))\n(tool/refund {:id 7 :amount (:amount o)})"),
    fence("(return :done)"),
  ]);
  const first = paused(await run(agent, { llm: model.llm, ...options }));
  return { desk, agent, model, first, id: first.pending[0]?.id ?? "" };
}

describe("a signed state", () => {
  it("resumes with the secret it was signed with, after a JSON round trip", async () => {
    const { agent, model, first, id, desk } = await pausedRefund({ stateSecret: SECRET });
    expect(first.state.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const text = JSON.stringify(first.state);
    const second = await resume(agent, JSON.parse(text), {
      llm: model.llm,
      approve: [id],
      stateSecret: SECRET,
    });
    expect(second.ok).toBe(true);
    expect(desk.calls).toEqual({ get_order: 1, refund: 1 });
  });

  it("verifies whatever order a store writes its keys in", async () => {
    const { agent, model, first, id } = await pausedRefund({ stateSecret: SECRET });
    const reordered = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reordered)
        : typeof value === "object" && value !== null
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, item]) => [key, reordered(item)]),
            )
          : value;
    const second = await resume(agent, reordered(JSON.parse(JSON.stringify(first.state))) as never, {
      llm: model.llm,
      approve: [id],
      stateSecret: SECRET,
    });
    expect(second.ok).toBe(true);
  });

  it("is refused with invalid_state when one byte changed, and nothing runs", async () => {
    const { agent, model, first, id, desk } = await pausedRefund({ stateSecret: SECRET });
    const text = JSON.stringify(first.state);
    // The recorded answer of get_order: a forged result would reach the program without a check.
    const at = text.indexOf('"amount":70');
    expect(at).toBeGreaterThan(0);
    const forged = `${text.slice(0, at + 10)}1${text.slice(at + 11)}`;
    expect(forged.length).toBe(text.length);
    const events: string[] = [];
    const second = await resume(agent, JSON.parse(forged), {
      llm: model.llm,
      approve: [id],
      stateSecret: SECRET,
      onEvent: (event) => events.push(event.type),
    });
    expect(second.ok).toBe(false);
    expect(second.paused).toBeFalsy();
    expect(second.step.fail).toMatchObject({ reason: "invalid_state" });
    expect(second.step.fail?.message).toContain("the state was changed after it was made");
    expect(desk.calls).toEqual({ get_order: 1 });
    expect(model.calls).toHaveLength(1);
    expect(events).toEqual(["run-start", "run-end"]);
  });

  it("is refused with another secret, or without one", async () => {
    const { agent, model, first, id } = await pausedRefund({ stateSecret: SECRET });
    const wrong = await resume(agent, first.state, {
      llm: model.llm,
      approve: [id],
      stateSecret: `${SECRET}x`,
    });
    expect(wrong.step.fail?.reason).toBe("invalid_state");
    const none = await resume(agent, first.state, { llm: model.llm, approve: [id] });
    expect(none.step.fail).toMatchObject({ reason: "invalid_state" });
    expect(none.step.fail?.message).toContain("pass the stateSecret it was signed with");
  });

  it("refuses an unsigned state when a secret is given (it was not made with that secret)", async () => {
    const { agent, model, first, id } = await pausedRefund();
    const result = await resume(agent, first.state, { llm: model.llm, approve: [id], stateSecret: SECRET });
    expect(result.step.fail?.reason).toBe("invalid_state");
  });

  it("is refused with a removed signature when the secret is given", async () => {
    const { agent, model, first, id } = await pausedRefund({ stateSecret: SECRET });
    const { signature: _removed, ...unsigned } = first.state;
    const result = await resume(agent, unsigned as never, {
      llm: model.llm,
      approve: [id],
      stateSecret: SECRET,
    });
    expect(result.step.fail?.reason).toBe("invalid_state");
  });
});

describe("what resume refuses", () => {
  it("a state past its expiry: state_expired, nothing runs; before it, the state resumes", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-01-01T00:00:00Z") });
    try {
      const { agent, model, first, id, desk } = await pausedRefund({
        stateTtlMs: 60_000,
        stateSecret: SECRET,
      });
      expect(first.state.expiresAt).toBe("2026-01-01T00:01:00.000Z");
      vi.setSystemTime(Date.parse("2026-01-01T00:01:00.001Z"));
      const late = await resume(agent, first.state, { llm: model.llm, approve: [id], stateSecret: SECRET });
      expect(late.step.fail).toMatchObject({ reason: "state_expired" });
      expect(late.step.fail?.message).toContain("the state expired at 2026-01-01T00:01:00.000Z");
      expect(desk.calls).toEqual({ get_order: 1 });
      vi.setSystemTime(Date.parse("2026-01-01T00:00:59Z"));
      const inTime = await resume(agent, first.state, { llm: model.llm, approve: [id], stateSecret: SECRET });
      expect(inTime.ok).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a stateTtlMs past what a Date can hold (Infinity: no expiry) pauses and resumes", async () => {
    for (const stateTtlMs of [Number.POSITIVE_INFINITY, 1e20, Number.MAX_VALUE]) {
      const { agent, model, first, id, desk } = await pausedRefund({ stateTtlMs });
      expect(first.state.expiresAt).toBe("+275760-09-13T00:00:00.000Z");
      const second = await resume(agent, JSON.parse(JSON.stringify(first.state)), {
        llm: model.llm,
        approve: [id],
      });
      expect(second.ok).toBe(true);
      expect(desk.calls).toEqual({ get_order: 1, refund: 1 });
    }
  });

  it("a state of another agent", async () => {
    const { model, first, id } = await pausedRefund();
    const other = createAgent({ prompt: "Refund order 8", tools: refundDesk().tools });
    const result = await resume(other, first.state, { llm: model.llm, approve: [id] });
    expect(result.step.fail).toMatchObject({ reason: "invalid_state" });
    expect(result.step.fail?.message).toContain("made by another agent");
  });

  it("what is not a state at all", async () => {
    const { agent, model, id } = await pausedRefund();
    for (const state of [null, "text", { format: "ptc-paused-run", version: 9 }, { format: "x" }]) {
      const result = await resume(agent, state as never, { llm: model.llm, approve: [id] });
      expect(result.step.fail?.reason).toBe("invalid_state");
    }
  });

  it('a version or agent id that has no text form (JSON such as {"toString": 1})', async () => {
    const { agent, model, first, id } = await pausedRefund();
    for (const field of ["version", "agentId"]) {
      const broken = JSON.parse(JSON.stringify(first.state));
      broken[field] = JSON.parse('{"toString": 1}');
      const result = await resume(agent, broken, { llm: model.llm, approve: [id] });
      expect(result.step.fail?.reason).toBe("invalid_state");
      expect(result.step.fail?.message).toContain('{"toString":1}');
    }
  });

  it("a state whose run part does not hold what a run holds", async () => {
    const { agent, model, first, id } = await pausedRefund();
    const broken = JSON.parse(JSON.stringify(first.state));
    broken.run.loop.messages = "lost";
    const result = await resume(agent, broken, { llm: model.llm, approve: [id] });
    expect(result.step.fail?.reason).toBe("invalid_state");
    expect(result.step.fail?.message).toContain("messages is missing or not what a paused run's state holds");
  });

  it("throws for decisions that do not match the pending calls one to one", async () => {
    const { agent, model, first, id } = await pausedRefund();
    const attempt = (options: object) => resume(agent, first.state, { llm: model.llm, ...options });
    await expect(attempt({})).rejects.toThrow(/every pending call needs a decision/);
    await expect(attempt({ approve: ["nope"] })).rejects.toThrow(
      /"nope" is not a pending call of this state/,
    );
    await expect(attempt({ approve: [id], reject: [{ id, message: "no" }] })).rejects.toThrow(
      /decided twice/,
    );
    await expect(attempt({ reject: [{ id }] })).rejects.toBeInstanceOf(AgentError);
  });
});

describe("aborting a resume", () => {
  it("with a signal already aborted: nothing runs, the model is not asked", async () => {
    const { agent, model, id, first, desk } = await pausedRefund();
    const controller = new AbortController();
    controller.abort(new Error("user left"));
    const result = await resume(agent, first.state, {
      llm: model.llm,
      approve: [id],
      signal: controller.signal,
    });
    expect(result.step.fail).toMatchObject({ reason: "aborted", message: "The run was aborted: user left" });
    expect(desk.calls).toEqual({ get_order: 1 });
    expect(model.calls).toHaveLength(1);
    // The call that ran before the pause is still in the step.
    expect(result.step.toolCalls.map((call) => call.name)).toEqual(["get_order"]);
  });

  it("while the approved call runs: the tool is told, the run ends aborted", async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const agent = createAgent({
      prompt: "Refund",
      tools: {
        refund: {
          signature: "(id :int) -> :map",
          needsApproval: true,
          execute: (_args: { id: number }, { signal }) =>
            new Promise((_resolve, reject) => {
              signal?.addEventListener("abort", () => {
                sawAbort = true;
                reject(new Error("stopped"));
              });
              controller.abort(new Error("user left"));
            }),
        },
      },
    });
    const model = createScriptedModel([fence("(tool/refund {:id 7})")]);
    const first = paused(await run(agent, { llm: model.llm }));
    const result = await resume(agent, first.state, {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
      signal: controller.signal,
    });
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("aborted");
    expect(sawAbort).toBe(true);
    expect(model.calls).toHaveLength(1);
  });
});

describe("a ledger larger than the program's memory limit", () => {
  it("is charged when the program runs again, and stops it cleanly before anything runs", async () => {
    let lookups = 0;
    let refunds = 0;
    const rows = Array.from({ length: 3000 }, (_, id) => ({ id, note: "a refund candidate" }));
    const agent = createAgent({
      prompt: "Refund the first candidate",
      limits: { maxMemoryBytes: 20_000 },
      tools: {
        candidates: {
          signature: "() -> [:map]",
          execute: () => {
            lookups += 1;
            return rows;
          },
        },
        refund: {
          signature: "(id :int) -> :map",
          needsApproval: true,
          execute: () => {
            refunds += 1;
            return { ok: true };
          },
        },
      },
    });
    const model = createScriptedModel([
      fence("(tool/refund {:id (:id (first (tool/candidates {})))})"),
      fence("(return :gave-up)"),
    ]);
    // The live run reads the rows as host data (not charged): it reaches the refund and pauses.
    const first = paused(await run(agent, { llm: model.llm }));
    // The state holds the rows once: more than five times the program's memory limit.
    expect(JSON.stringify(first.state).length).toBeGreaterThan(5 * 20_000);
    const second = await resume(agent, JSON.parse(JSON.stringify(first.state)), {
      llm: model.llm,
      approve: [first.pending[0]?.id ?? ""],
    });
    // The replay holds the whole ledger: over the limit, the program fails before its first call,
    // the approved refund never runs, and the model reads why (a failed turn, not a crash).
    expect(lookups).toBe(1);
    expect(refunds).toBe(0);
    expect(second.step.turns?.[0]?.result).toMatchObject({ error: { reason: "memory_exceeded" } });
    expect(model.calls[1]?.messages.at(-1)?.content).toContain(
      "the ledger of 2 tool calls this run replays holds more than its memory limit of 20000 bytes",
    );
    expect(second.ok && second.step.return).toBe("gave-up");
  });
});
