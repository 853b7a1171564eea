/**
 * Resumable runs in a worker: the host asks `pauseBefore` before serving a call, the worker holds
 * what the host held and pauses once nothing else can move, and a ledger replays in the worker.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../run.js";
import { builtWorker } from "./__fixtures__/built-worker.js";
import { isolatedRunner } from "./isolated.js";

const { workerUrl } = builtWorker();
const runIsolated = isolatedRunner(workerUrl);

function paused(result: RunResult) {
  if (result.ok || result.error.reason !== "paused")
    throw new Error(`expected a pause: ${JSON.stringify(result)}`);
  return { held: result.paused ?? [], toolCalls: result.toolCalls };
}

describe("resumable runs in an isolated worker", () => {
  it("holds calls on the host, pauses pmap branches together, and resumes from the ledger", async () => {
    let refunds = 0;
    let lookups = 0;
    const tools = {
      lookup: ({ id }: Record<string, unknown>) => {
        lookups += 1;
        return { id };
      },
      refund: async ({ id }: Record<string, unknown>) => {
        refunds += 1;
        return { refunded: id };
      },
    };
    const pauseBefore = (call: { name: string }) => call.name === "refund";
    const source = "(pmap (fn [id] (tool/refund {:id (:id (tool/lookup {:id id}))})) [1 2])";
    const first = paused(await runIsolated(source, { tools, pauseBefore }));
    expect(first.held.map((call) => call.position).sort()).toEqual(["0.0/1", "0.1/1"]);
    expect(first.toolCalls.map((call) => call.position).sort()).toEqual(["0.0/0", "0.1/0"]);
    expect({ lookups, refunds }).toEqual({ lookups: 2, refunds: 0 });

    const ledger = [...first.toolCalls, ...first.held.map((call) => ({ ...call, approved: true }))];
    const second = await runIsolated(source, { tools, pauseBefore, ledger });
    expect(second.ok ? second.value : second.error).toEqual([{ refunded: 1 }, { refunded: 2 }]);
    expect({ lookups, refunds }).toEqual({ lookups: 2, refunds: 2 });
  });

  it("ends with replay_diverged in the worker when the program makes another call", async () => {
    const result = await runIsolated("(tool/lookup {:id 2})", {
      tools: { lookup: () => 1 },
      ledger: [{ position: "0", name: "lookup", args: { id: 1 }, result: 1 }],
    });
    expect(!result.ok && result.error.reason).toBe("replay_diverged");
  });
});
