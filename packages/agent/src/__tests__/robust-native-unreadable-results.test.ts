/**
 * A native tool's result that cannot be read as data (an enumerable getter that throws, a Map
 * whose key has no text) is answered to the model as a tool error it can read, in text and in
 * combined mode, cached or not, never an `internal_error` that ends the run.
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, createAgent, type Message, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const toolMessages = (messages: readonly Message[] | undefined) =>
  (messages ?? []).filter((message) => message.role === "tool");

const UNREADABLE: Record<string, () => unknown> = {
  "an object with an enumerable getter that throws": () =>
    Object.defineProperty({}, "trap", {
      enumerable: true,
      get() {
        throw new Error("trap");
      },
    }),
  "a Map keyed by a null-prototype object": () => new Map([[Object.create(null), 1]]),
  "a Map keyed by an array holding a Symbol": () => new Map([[[Symbol("s")], 1]]),
};

const MODES: Record<string, { options: Partial<AgentOptions>; tool: { expose?: "both" } }> = {
  "text mode": { options: { output: "text" }, tool: {} },
  "combined mode": { options: { output: "text", ptcTransport: "tool_call" }, tool: { expose: "both" } },
};

describe("a native tool returning a value that cannot be read", () => {
  for (const [label, value] of Object.entries(UNREADABLE)) {
    for (const [mode, { options, tool }] of Object.entries(MODES)) {
      it(`${label} is a tool error the model reads (${mode})`, async () => {
        const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "done"]);
        const agent = createAgent({
          prompt: "p",
          ...options,
          tools: { t: { signature: "() -> :any", execute: value, ...tool } },
        });
        const result = await run(agent, { llm: model.llm });
        expect(result.step.fail).toBeNull();
        expect(result.step.return).toBe("done");
        const [answer] = toolMessages(model.calls[1]?.messages);
        expect(JSON.parse(answer?.content ?? "{}")).toMatchObject({
          error: expect.stringContaining("the tool returned a value that cannot be read"),
          tool: "t",
        });
        expect(result.step.toolCalls).toMatchObject([{ name: "t", error: expect.any(String) }]);
      });
    }
  }
});
