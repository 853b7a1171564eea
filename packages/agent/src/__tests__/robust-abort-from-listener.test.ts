/**
 * The host may abort a run from its own `onEvent` listener. Aborting on `turn-start` or
 * `llm-call-start`, which come just before the model is called, must keep the model from being
 * called at all (no request goes out with an aborted signal), and the run ends `aborted`, not with
 * whatever error the model function would give for an aborted request.
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, createAgent, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const MODES: Record<string, Partial<AgentOptions>> = {
  "content mode": {},
  "tool_call transport": { ptcTransport: "tool_call" },
  "text mode": { output: "text" },
  "combined mode": { output: "text", ptcTransport: "tool_call" },
};

describe("aborting from an onEvent listener before the model call", () => {
  for (const eventType of ["turn-start", "llm-call-start"] as const) {
    for (const [mode, options] of Object.entries(MODES)) {
      it(`on ${eventType}: the model is not called and the run ends aborted (${mode})`, async () => {
        const controller = new AbortController();
        // An empty script fails any call it gets: the run must not get that far.
        const model = createScriptedModel([]);
        const agent = createAgent({ prompt: "p", ...options, tools: { t: () => 1 } });
        const result = await run(agent, {
          llm: model.llm,
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === eventType) controller.abort(new Error("the user left"));
          },
        });
        expect(model.calls).toHaveLength(0);
        expect(result.ok).toBe(false);
        expect(result.step.fail).toEqual({
          reason: "aborted",
          message: "The run was aborted: the user left",
        });
      });
    }
  }

  it("on the second turn's turn-start: the first turn's work is kept and the model is called once", async () => {
    const controller = new AbortController();
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "never sent"]);
    const agent = createAgent({ prompt: "p", output: "text", tools: { t: () => 1 } });
    const result = await run(agent, {
      llm: model.llm,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === "turn-start" && event.turn === 2) controller.abort();
      },
    });
    expect(model.calls).toHaveLength(1);
    expect(result.step.fail?.reason).toBe("aborted");
    expect(result.step.toolCalls).toMatchObject([{ name: "t", result: 1 }]);
  });
});
