/**
 * What a tool returned is kept in `step.toolCalls[].result` and, for cached tools, in a chat's
 * `state`: both are JSON-safe (json/to-json-safe.ts) whatever the tool returned. A BigInt is
 * written as its decimal text; a value met again inside itself (a cycle) as null where it recurs.
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, chat, createAgent, run } from "../index.js";
import { createScriptedModel, type ScriptedStep } from "../testing/index.js";
import { programTransports } from "./support/program-transports.js";

const BIGINT_CASES: Record<string, { options: Partial<AgentOptions>; steps: ScriptedStep[] }> = {
  ...programTransports(),
  "text mode": {
    options: { output: "text" },
    steps: [{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "done"],
  },
  "combined mode": {
    options: { output: "text", ptcTransport: "tool_call" },
    steps: [{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "done"],
  },
};

describe("raw tool results in the step and in chat state", () => {
  for (const [mode, { options, steps }] of Object.entries(BIGINT_CASES)) {
    it(`a BigInt result is kept as its decimal text (${mode})`, async () => {
      const agent = createAgent({
        prompt: "p",
        ...options,
        tools: { t: { signature: "() -> :any", execute: () => 12345678901234567890n, expose: "both" } },
      });
      const result = await run(agent, { llm: createScriptedModel(steps).llm });
      expect(result.step.fail).toBeNull();
      const step = JSON.parse(JSON.stringify(result.step));
      expect(step.toolCalls).toMatchObject([{ name: "t", result: "12345678901234567890" }]);
    });
  }

  it("a cyclic result of a cached native call is cut where it recurs, in the step and in chat state", async () => {
    const agent = createAgent({
      prompt: "p",
      output: "text",
      ptcTransport: "tool_call",
      tools: {
        t: {
          signature: "() -> :any",
          expose: "both",
          cache: true,
          execute: () => {
            const value: Record<string, unknown> = { id: 1 };
            value.self = value;
            return value;
          },
        },
      },
    });
    const steps: ScriptedStep[] = [{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "done"];
    const result = await run(agent, { llm: createScriptedModel(steps).llm });
    expect(JSON.parse(JSON.stringify(result.step)).toolCalls).toMatchObject([
      { name: "t", result: { id: 1, self: null } },
    ]);

    const reply = await chat(agent, "hi", { llm: createScriptedModel(steps).llm });
    expect(reply.ok).toBe(true);
    const state = JSON.parse(JSON.stringify(reply.state));
    expect(JSON.stringify(state)).toContain('{"id":1,"self":null}');
  });
});
