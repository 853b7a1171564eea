import { describe, expect, it } from "vitest";
import { LispError } from "../errors.js";
import { type RunResult, run } from "../run.js";
import type { LedgerEntry } from "./ledger.js";

/** Tools that count their calls: a side effect a replay must never repeat. */
function counters() {
  const calls: Record<string, number> = {};
  const count = (name: string) => {
    calls[name] = (calls[name] ?? 0) + 1;
  };
  const tools = {
    lookup: async ({ id }: Record<string, unknown>) => {
      count("lookup");
      return { id, amount: Number(id) * 10 };
    },
    refund: async ({ id }: Record<string, unknown>) => {
      count("refund");
      return { refunded: id };
    },
  };
  return { calls, tools };
}

const gateRefunds = (call: { name: string }) => call.name === "refund";

function pausedOf(result: RunResult) {
  if (result.ok || result.error.reason !== "paused") {
    throw new Error(`expected a paused run, got ${JSON.stringify(result)}`);
  }
  return { paused: result.paused ?? [], toolCalls: result.toolCalls };
}

const approve = (calls: readonly { position: string; name: string; args: object }[]): LedgerEntry[] =>
  calls.map((call) => ({ position: call.position, name: call.name, args: { ...call.args }, approved: true }));

describe("resumable runs: ledger and pauseBefore", () => {
  it("holds a call the host asks to pause before, without running it", async () => {
    const { calls, tools } = counters();
    const source = "(let [o (tool/lookup {:id 7})] (tool/refund {:id (:id o)}))";
    const first = await run(source, { tools, pauseBefore: gateRefunds });
    const { paused, toolCalls } = pausedOf(first);
    expect(paused).toEqual([{ position: "1", name: "refund", args: { id: 7 } }]);
    expect(toolCalls).toMatchObject([{ name: "lookup", position: "0", result: { id: 7, amount: 70 } }]);
    expect(calls).toEqual({ lookup: 1 });
    expect(first.ok === false && first.error.message).toContain("(tool/refund {:id 7}) at 1");
  });

  it("resumes from the ledger: earlier calls are answered from it, the approved call runs once", async () => {
    const { calls, tools } = counters();
    const source = "(let [o (tool/lookup {:id 7})] (tool/refund {:id (:id o)}))";
    const first = pausedOf(await run(source, { tools, pauseBefore: gateRefunds }));
    const second = await run(source, {
      tools,
      pauseBefore: gateRefunds,
      ledger: [...first.toolCalls, ...approve(first.paused)],
    });
    expect(second.ok && second.value).toEqual({ refunded: 7 });
    expect(calls).toEqual({ lookup: 1, refund: 1 });
    expect(second.toolCalls).toMatchObject([
      { name: "lookup", position: "0", replayed: true },
      { name: "refund", position: "1", result: { refunded: 7 } },
    ]);
    expect(second.toolCalls[1]).not.toHaveProperty("replayed");
  });

  it("answers a refused call with its error, as the tool's failure", async () => {
    const { calls, tools } = counters();
    const source = "(tool/refund {:id 3})";
    const first = pausedOf(await run(source, { tools, pauseBefore: gateRefunds }));
    const refused = first.paused.map((call) => ({ ...call, error: "refused: over the limit" }));
    const second = await run(source, { tools, pauseBefore: gateRefunds, ledger: refused });
    expect(second.ok).toBe(false);
    expect(!second.ok && second.error).toMatchObject({
      reason: "tool_error",
      message: "Tool 'refund' failed: \"refused: over the limit\"",
    });
    expect(calls).toEqual({});
  });

  it("pauses one call at a time in sequential code, and never runs a call twice", async () => {
    const { calls, tools } = counters();
    const source = "[(tool/refund {:id 1}) (tool/refund {:id 2})]";
    const first = pausedOf(await run(source, { tools, pauseBefore: gateRefunds }));
    expect(first.paused.map((call) => call.position)).toEqual(["0"]);
    const second = pausedOf(
      await run(source, { tools, pauseBefore: gateRefunds, ledger: approve(first.paused) }),
    );
    expect(second.paused).toEqual([{ position: "1", name: "refund", args: { id: 2 } }]);
    const third = await run(source, {
      tools,
      pauseBefore: gateRefunds,
      ledger: [...second.toolCalls, ...approve(second.paused)],
    });
    expect(third.ok && third.value).toEqual([{ refunded: 1 }, { refunded: 2 }]);
    expect(calls).toEqual({ refund: 2 });
  });

  it("pauses the held calls of pmap branches together, each at a position of its own branch", async () => {
    const { calls, tools } = counters();
    const source = "(pmap (fn [id] (let [o (tool/lookup {:id id})] (tool/refund {:id (:id o)}))) [1 2 3])";
    const first = pausedOf(await run(source, { tools, pauseBefore: gateRefunds }));
    expect(first.paused.map((call) => call.position).sort()).toEqual(["0.0/1", "0.1/1", "0.2/1"]);
    expect(first.toolCalls.map((call) => call.position).sort()).toEqual(["0.0/0", "0.1/0", "0.2/0"]);
    expect(calls).toEqual({ lookup: 3 });
    const second = await run(source, {
      tools,
      pauseBefore: gateRefunds,
      ledger: [...first.toolCalls, ...approve(first.paused)],
    });
    expect(second.ok && second.value).toEqual([{ refunded: 1 }, { refunded: 2 }, { refunded: 3 }]);
    expect(calls).toEqual({ lookup: 3, refund: 3 });
  });

  it("lets the branches that need no decision finish before it pauses", async () => {
    const { calls, tools } = counters();
    const source = "(pmap (fn [id] (if (odd? id) (tool/refund {:id id}) (tool/lookup {:id id}))) [1 2 3 4])";
    const first = pausedOf(await run(source, { tools, pauseBefore: gateRefunds }));
    expect(first.paused.map((call) => call.args)).toEqual([{ id: 1 }, { id: 3 }]);
    expect(calls).toEqual({ lookup: 2 });
    const second = await run(source, {
      tools,
      pauseBefore: gateRefunds,
      ledger: [...first.toolCalls, ...approve(first.paused)],
    });
    expect(second.ok).toBe(true);
    expect(calls).toEqual({ lookup: 2, refund: 2 });
  });

  it("ends with replay_diverged when a call differs from the ledger at its position", async () => {
    const { calls, tools } = counters();
    const ledger: LedgerEntry[] = [{ position: "0", name: "lookup", args: { id: 8 }, result: { id: 8 } }];
    const result = await run("(tool/lookup {:id 7})", { tools, ledger });
    expect(!result.ok && result.error.reason).toBe("replay_diverged");
    expect(!result.ok && result.error.message).toContain(
      "at call 0 it called (tool/lookup {:id 7}), where the earlier run called (tool/lookup {:id 8})",
    );
    expect(calls).toEqual({});
  });

  it("ends with replay_diverged when the program finishes without a call the ledger recorded", async () => {
    const { tools } = counters();
    const ledger: LedgerEntry[] = [
      { position: "0", name: "lookup", args: { id: 7 }, result: { id: 7 } },
      { position: "1", name: "lookup", args: { id: 8 }, result: { id: 8 } },
    ];
    const result = await run("(tool/lookup {:id 7})", { tools, ledger });
    expect(!result.ok && result.error.reason).toBe("replay_diverged");
    expect(!result.ok && result.error.message).toContain("without making 1 of the calls");
  });

  it("charges the ledger to the memory budget and stops before anything runs when it is larger", async () => {
    const { calls, tools } = counters();
    const rows = Array.from({ length: 2000 }, (_, id) => ({ id, note: "x".repeat(40) }));
    const ledger: LedgerEntry[] = [{ position: "0", name: "lookup", args: { id: 1 }, result: rows }];
    const result = await run("(count (tool/lookup {:id 1}))", {
      tools,
      ledger,
      limits: { maxMemoryBytes: 50_000 },
    });
    expect(!result.ok && result.error.reason).toBe("memory_exceeded");
    expect(!result.ok && result.error.message).toContain(
      "the ledger of 1 tool calls this run replays holds more than its memory limit of 50000 bytes",
    );
    expect(calls).toEqual({});
    const roomy = await run("(count (tool/lookup {:id 1}))", { tools, ledger });
    expect(roomy.ok && roomy.value).toBe(2000);
  });

  it("gives every tool call its position, the same in every run of the program", async () => {
    const seen: string[] = [];
    const tools = {
      note: (_args: Record<string, unknown>, options: { position?: string }) => {
        seen.push(options.position ?? "none");
        return 1;
      },
    };
    await run("[(tool/note {}) (pmap (fn [_] (tool/note {})) [1 2]) (tool/note {})]", { tools });
    expect(seen.sort()).toEqual(["0", "1.0/0", "1.1/0", "2"]);
  });

  it("refuses a ledger that is not one", async () => {
    await expect(run("1", { ledger: [{ position: "0", name: "x", args: {} }] as never })).rejects.toThrow(
      /ledger\[0\] must have exactly one of result, error/,
    );
    await expect(run("1", { ledger: {} as never })).rejects.toBeInstanceOf(LispError);
  });
});
