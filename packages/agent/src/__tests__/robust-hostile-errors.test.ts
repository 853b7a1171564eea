/**
 * Model functions and tools may throw anything JavaScript lets one throw: an Error whose `message`
 * or `name` getter throws, a revoked proxy, an array nested 5,000 deep, a null-prototype object, a
 * cyclic array holding a Symbol. Reading what they say must never crash the run: a model error ends
 * it with `llm_error` (never a rejected promise or a stack overflow), and a tool error is answered
 * to the model as a tool error, recorded in `step.toolCalls`, and the run goes on.
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, createAgent, type Message, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { programTransports } from "./support/program-transports.js";

const toolMessages = (messages: readonly Message[] | undefined) =>
  (messages ?? []).filter((message) => message.role === "tool");

function errorWithThrowing(field: "message" | "name"): Error {
  const error = new Error("the real message");
  Object.defineProperty(error, field, {
    get() {
      throw new Error(`${field} getter trap`);
    },
  });
  return error;
}

/** Each thrown value that once made `errorMessage` (or the retry classifier) throw. */
const HOSTILE_THROWS: Record<string, () => unknown> = {
  "an Error whose message getter throws": () => errorWithThrowing("message"),
  "an Error whose name getter throws": () => errorWithThrowing("name"),
  "a revoked proxy": () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
  "an array nested 5,000 deep": () => {
    let nested: unknown[] = [];
    for (let level = 0; level < 5000; level++) nested = [nested];
    return nested;
  },
  "a null-prototype object": () => Object.create(null),
  "a cyclic array holding a Symbol": () => {
    const cyclic: unknown[] = [Symbol("s")];
    cyclic.push(cyclic);
    return cyclic;
  },
};

const MODES: Record<string, Partial<AgentOptions>> = {
  "content mode": {},
  "tool_call transport": { ptcTransport: "tool_call" },
  "text mode": { output: "text" },
  "combined mode": { output: "text", ptcTransport: "tool_call" },
};

describe("a model function throwing a hostile value", () => {
  for (const [label, make] of Object.entries(HOSTILE_THROWS)) {
    for (const [mode, options] of Object.entries(MODES)) {
      it(`${label} ends the run with llm_error in ${mode}`, async () => {
        const result = await run(createAgent({ prompt: "p", ...options }), {
          llm: async () => {
            throw make();
          },
        });
        expect(result.ok).toBe(false);
        expect(result.step.fail?.reason).toBe("llm_error");
        expect(result.step.fail?.message).toMatch(/^LLM call failed: ./);
        expect(() => JSON.stringify(result.step)).not.toThrow();
      });
    }
  }

  it("names the Error when its message cannot be read", async () => {
    const scripted = createScriptedModel([errorWithThrowing("message")]);
    const result = await run(createAgent({ prompt: "p" }), { llm: scripted.llm });
    expect(result.step.fail).toEqual({ reason: "llm_error", message: "LLM call failed: Error" });
  });

  it("keeps a long message short", async () => {
    const result = await run(createAgent({ prompt: "p" }), {
      llm: async () => {
        throw new Error("x".repeat(100_000));
      },
    });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message.length).toBeLessThan(2100);
  });
});

describe("a native tool throwing a hostile value", () => {
  for (const [label, make] of Object.entries(HOSTILE_THROWS)) {
    it(`${label} is a tool error the model reads, and the run goes on (text mode)`, async () => {
      const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "done"]);
      const agent = createAgent({
        prompt: "p",
        output: "text",
        tools: {
          t: () => {
            throw make();
          },
        },
      });
      const result = await run(agent, { llm: model.llm });
      expect(result.step.fail).toBeNull();
      expect(result.step.return).toBe("done");
      const [answer] = toolMessages(model.calls[1]?.messages);
      expect(JSON.parse(answer?.content ?? "{}")).toMatchObject({ error: expect.any(String), tool: "t" });
      expect(result.step.toolCalls).toMatchObject([{ name: "t", id: "a", error: expect.any(String) }]);
    });
  }
});

describe("a tool called from a program throwing an Error whose message getter throws", () => {
  const throwing = {
    t: {
      signature: "() -> :any",
      execute: () => {
        throw errorWithThrowing("message");
      },
    },
  };
  const cases = programTransports();
  for (const [mode, { options, steps }] of Object.entries(cases)) {
    it(`is a tool error the program sees, recorded in step.toolCalls (${mode})`, async () => {
      const result = await run(createAgent({ prompt: "p", ...options, tools: throwing }), {
        llm: createScriptedModel(steps).llm,
      });
      expect(result.step.fail).toBeNull();
      expect(result.step.return).toBe(1);
      expect(result.step.toolCalls).toMatchObject([
        { name: "t", exposureLayer: "ptc_lisp", error: expect.any(String) },
      ]);
    });
  }
});
