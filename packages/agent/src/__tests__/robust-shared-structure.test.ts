/**
 * A tool result with shared structure is small as a graph and enormous as a tree: `{a: v, b: v}`
 * nested 40 times is 41 objects and 2^40 leaves. Walked as a tree (to hand it to a program, to
 * write it as JSON for the model, to measure it for the cache) it blocks the host's thread for
 * good, so the agent measures it first and answers the call with a tool error saying what to do.
 * A big leaf shared a few times (a sparse array of a million slots 64 times, a string of two
 * million characters 4,096 times) is refused the same way, before the model is sent gigabytes.
 */
import { describe, expect, it } from "vitest";
import { AgentError, type AgentToolDefinition, chat, createAgent, type Message, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { programTransports } from "./support/program-transports.js";

const toolMessages = (messages: readonly Message[] | undefined) =>
  (messages ?? []).filter((message) => message.role === "tool");

/** `{a: v, b: v}` nested `levels` times over `leaf`. */
function doubled(levels: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let level = 0; level < levels; level++) value = { a: value, b: value };
  return value;
}

function sparseLeaf(): unknown[] {
  const leaf = new Array(1_000_000);
  leaf[1] = new Uint8Array(4);
  return leaf;
}

const TOO_LARGE = /too large.*more than 10000000 nodes or 50000000 characters.*shared/;

const shared = (
  value: () => unknown,
  extra: { expose?: "both"; cache?: boolean } = {},
): AgentToolDefinition => ({
  signature: "() -> :any",
  execute: value,
  ...extra,
});

const VALUES: Record<string, () => unknown> = {
  "40 levels of shared structure": () => doubled(40),
  "a sparse array of a million slots shared 64 times": () => doubled(6, sparseLeaf()),
  "a string of two million characters on 4,096 paths": () => doubled(12, "x".repeat(2_000_000)),
};

describe("a tool result with shared structure", () => {
  for (const [label, value] of Object.entries(VALUES)) {
    it(`${label}: natively in text mode, is a tool error and the run goes on`, async () => {
      const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "done"]);
      const agent = createAgent({ prompt: "p", output: "text", tools: { t: shared(value) } });
      const result = await run(agent, { llm: model.llm });
      expect(result.step.return).toBe("done");
      const [answer] = toolMessages(model.calls[1]?.messages);
      expect(JSON.parse(answer?.content ?? "{}").error).toMatch(TOO_LARGE);
      expect(result.step.toolCalls).toMatchObject([{ name: "t", error: expect.stringMatching(TOO_LARGE) }]);
      expect(() => JSON.stringify(result.step)).not.toThrow();
    });

    it(`${label}: natively in combined mode with a cached tool, is a tool error and nothing is cached`, async () => {
      const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "done"]);
      const agent = createAgent({
        prompt: "p",
        output: "text",
        ptcTransport: "tool_call",
        tools: { t: shared(value, { expose: "both", cache: true }) },
      });
      const result = await run(agent, { llm: model.llm });
      expect(result.step.return).toBe("done");
      expect(JSON.parse(toolMessages(model.calls[1]?.messages)[0]?.content ?? "{}").error).toMatch(TOO_LARGE);
      expect(result.step.toolCache?.size ?? 0).toBe(0);
    });
  }

  const programCases = programTransports();
  for (const [mode, { options, steps }] of Object.entries(programCases)) {
    it(`from a program, is a tool error the program sees (${mode})`, async () => {
      const model = createScriptedModel(steps);
      const agent = createAgent({ prompt: "p", ...options, tools: { t: shared(() => doubled(40)) } });
      const result = await run(agent, { llm: model.llm });
      expect(result.step.return).toBe(1);
      expect(JSON.stringify(model.calls[1]?.messages.at(-1)?.content)).toMatch(TOO_LARGE);
      expect(result.step.toolCalls).toMatchObject([
        { name: "t", exposureLayer: "ptc_lisp", error: expect.stringMatching(TOO_LARGE) },
      ]);
    });
  }

  it("a little shared structure is still data: 3 levels reach the model as 8 copies", async () => {
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "done"]);
    const agent = createAgent({ prompt: "p", output: "text", tools: { t: shared(() => doubled(3)) } });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toBe("done");
    expect(JSON.parse(toolMessages(model.calls[1]?.messages)[0]?.content ?? "null")).toEqual(doubled(3));
  });
});

describe("a thrown value with shared structure", () => {
  it("is read within a budget: the model's error and a tool's error stay short", async () => {
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "done"]);
    const agent = createAgent({
      prompt: "p",
      output: "text",
      tools: {
        t: () => {
          throw doubled(40);
        },
      },
    });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.return).toBe("done");
    expect(result.step.toolCalls[0]?.error?.length).toBeLessThan(2100);

    const failed = await run(createAgent({ prompt: "p" }), {
      llm: async () => {
        throw doubled(40);
      },
    });
    expect(failed.step.fail?.reason).toBe("llm_error");
    expect(failed.step.fail?.message.length).toBeLessThan(2100);
  });
});

describe("host data with shared structure", () => {
  const HOST_TOO_LARGE = /too large as a tree: more than 10000000 nodes or 50000000 characters/;
  const cachedAgent = () =>
    createAgent({
      prompt: "p",
      output: "text",
      ptcTransport: "tool_call",
      tools: { t: shared(() => [1], { expose: "both", cache: true }) },
    });

  for (const [label, value] of Object.entries(VALUES)) {
    it(`${label} in a toolCache entry is refused before the model is called`, async () => {
      const model = createScriptedModel(["done"]);
      const attempt = run(cachedAgent(), { llm: model.llm, toolCache: { "t:{}": { result: value() } } });
      await expect(attempt).rejects.toThrow(HOST_TOO_LARGE);
      await expect(attempt).rejects.toMatchObject({
        code: "PTC_AGENT_INVALID_RUN_OPTION",
        details: { option: "toolCache", entry: 'toolCache entry "t:{}"' },
      });
      expect(model.calls).toHaveLength(0);
    });
  }

  it("in initialMemory, and in a chat's state or memory, is refused the same way", async () => {
    const model = createScriptedModel(["done"]);
    await expect(
      run(cachedAgent(), { llm: model.llm, initialMemory: { big: doubled(40) } }),
    ).rejects.toBeInstanceOf(AgentError);
    const agent = createAgent({ prompt: "p", tools: { t: shared(() => [1], { cache: true }) } });
    await expect(
      chat(agent, "hi", { llm: model.llm, state: { toolCache: { "t:{}": { result: doubled(40) } } } }),
    ).rejects.toThrow(HOST_TOO_LARGE);
    await expect(chat(agent, "hi", { llm: model.llm, memory: { big: doubled(40) } })).rejects.toThrow(
      HOST_TOO_LARGE,
    );
    expect(model.calls).toHaveLength(0);
  });

  it("a previous step's cache and a chat reply's state are accepted as they are", async () => {
    const model = createScriptedModel([{ toolCalls: [{ id: "a", name: "t", args: {} }] }, "first", "second"]);
    const agent = cachedAgent();
    const first = await run(agent, { llm: model.llm });
    expect(first.step.toolCache?.size).toBe(1);
    const second = await run(agent, { llm: model.llm, toolCache: first.step.toolCache });
    expect(second.step.return).toBe("second");
    expect(second.step.toolCache?.size).toBe(1);
  });
});
