/**
 * A native call waits on the host twice before its tool runs: the tool's argument check (an async
 * Standard Schema can take as long as it likes) and its `needsApproval` policy (possibly async).
 * The run's `signal` and `missionTimeout` end those waits as they end the model call and the tool
 * itself; inside a program the sandbox's own limits already do. And a turn cancelled after one of
 * its calls was held for approval ends as aborted, like a program's, not as a paused run the host
 * never asked for.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, type RunResult, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** The run's result, or "hung" when it has not settled in time (well past every limit here). */
function settled(pending: Promise<RunResult>): Promise<RunResult | "hung"> {
  return Promise.race([pending, new Promise<"hung">((done) => setTimeout(() => done("hung"), 10_000))]);
}

/**
 * The mission deadline of the missionTimeout tests: long enough that a loaded machine reaches the
 * wait before it (the deadline counts from the start of the run), far below `settled`'s.
 */
const MISSION_MS = 1000;

const oneCall = (name: string) => ({ toolCalls: [{ id: "c1", name, args: {} }] });

/** Tools whose check or policy never settles; `started` is called as the wait begins. */
const waits = {
  "an argument check": (started: () => void) => ({
    parameters: z.object({}).refine(() => {
      started();
      return never<boolean>();
    }),
    execute: () => "ran",
  }),
  "a needsApproval policy": (started: () => void) => ({
    signature: "() -> :string",
    needsApproval: () => {
      started();
      return never<boolean>();
    },
    execute: () => "ran",
  }),
};

const modes = {
  "text mode": { output: "text" as const },
  "combined mode": { output: "text" as const, ptcTransport: "tool_call" as const },
};

describe("a native call waiting on the host", () => {
  for (const [wait, makeTool] of Object.entries(waits)) {
    for (const [mode, options] of Object.entries(modes)) {
      const exposed = mode === "combined mode" ? { expose: "both" as const } : {};
      const toolsWaiting = (started: () => void) => ({ slow: { ...makeTool(started), ...exposed } });

      it(`is ended by the run's signal: ${wait}, ${mode}`, async () => {
        const controller = new AbortController();
        // Aborted once the wait has begun, so the abort ends the wait, not an earlier step.
        const tools = toolsWaiting(() => setTimeout(() => controller.abort(new Error("stop")), 10));
        const agent = createAgent({ prompt: "Use the tool", ...options, tools });
        const model = createScriptedModel([oneCall("slow"), "unused"]);
        const result = await settled(run(agent, { llm: model.llm, signal: controller.signal }));
        expect(result).not.toBe("hung");
        if (result === "hung") return;
        expect(result.step.fail?.reason).toBe("aborted");
        expect(result.step.toolCalls).toMatchObject([
          { name: "slow", error: expect.stringMatching(/abort/) },
        ]);
        expect(JSON.stringify(result.step)).not.toContain('"ran"');
      });

      it(`is ended by missionTimeout: ${wait}, ${mode}`, async () => {
        const tools = toolsWaiting(() => undefined);
        const agent = createAgent({ prompt: "Use the tool", ...options, tools, missionTimeout: MISSION_MS });
        const model = createScriptedModel([oneCall("slow"), "unused"]);
        const result = await settled(run(agent, { llm: model.llm }));
        expect(result).not.toBe("hung");
        if (result === "hung") return;
        expect(result.step.fail?.reason).toBe("mission_timeout");
        expect(result.step.toolCalls).toMatchObject([
          { name: "slow", error: expect.stringMatching(/mission/) },
        ]);
      });
    }
  }
});

describe("a native turn cancelled after a call was held for approval", () => {
  it("ends as aborted, with the calls that ran, and no state to resume", async () => {
    let ran = 0;
    const controller = new AbortController();
    const agent = createAgent({
      prompt: "Refund, then look up",
      output: "text",
      tools: {
        refund: { signature: "() -> :string", needsApproval: true, execute: () => "refunded" },
        lookup: {
          signature: "() -> :string",
          execute: () => {
            ran += 1;
            controller.abort(new Error("stop"));
            return "found";
          },
        },
      },
    });
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "refund", args: {} },
          { id: "b", name: "lookup", args: {} },
        ],
      },
      "unused",
    ]);
    const result = await run(agent, { llm: model.llm, signal: controller.signal });
    expect(result.paused).toBeFalsy();
    expect(result.step.fail?.reason).toBe("aborted");
    expect("state" in result).toBe(false);
    expect(ran).toBe(1);
    expect(result.step.toolCalls.map((call) => call.name)).toEqual(["lookup"]);
  });
});
