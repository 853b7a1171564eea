/**
 * `chat` with combined-mode agents: each call is a combined run of its own. The
 * tool cache does not carry over by itself (an old `cache_hint` then makes the tool run again),
 * but a previous reply's `state`, passed back (JSON round trip included), carries it, so a
 * `lisp_eval` on the next call reads the cached result without running the tool.
 */
import { canonicalCacheKey } from "@ptc/tool";
import { describe, expect, it } from "vitest";
import { type ChatState, chat, createAgent } from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { readToolBody } from "./read-tool-body.js";

function setup() {
  let executions = 0;
  const agent = createAgent({
    prompt: "unused",
    output: "text",
    ptcTransport: "tool_call",
    signature: "() -> {count :int}",
    tools: {
      search_logs: {
        signature: "(query :string) -> [:any]",
        expose: "both",
        cache: true,
        execute: ({ query }: { query?: unknown }) => {
          executions += 1;
          return Array.from({ length: 120 }, (_, index) => ({ id: index, query }));
        },
      },
    },
  });
  const model = createScriptedModel([
    { toolCalls: [{ id: "c1", name: "search_logs", args: { query: "error" } }] },
    "There are 120 matching events.",
    {
      toolCalls: [
        { id: "c2", name: "lisp_eval", args: { program: '(count (tool/search_logs {:query "error"}))' } },
      ],
    },
    "Still 120.",
  ]);
  return { agent, model, executions: () => executions };
}

describe("chat with a combined-mode agent", () => {
  it("stays combined: lisp_eval is offered and the signature is ignored", async () => {
    const { agent, model } = setup();
    const first = await chat(agent, "How many errors?", { llm: model.llm });
    expect(first.ok).toBe(true);
    if (first.ok) expect(first.reply).toBe("There are 120 matching events.");
    expect(model.calls[0]?.tools?.map((tool) => tool.function.name)).toEqual(["search_logs", "lisp_eval"]);
    expect(model.calls[0]?.system).toContain("<ptc_lisp_reference>");
    expect(model.calls[0]?.messages[0]?.content).toContain("return it as plain text");
    expect(first.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
  });

  it("carries the tool cache across calls through state, round-tripped through JSON", async () => {
    const { agent, model, executions } = setup();
    const first = await chat(agent, "How many errors?", { llm: model.llm });
    expect(first.state.toolCache).toHaveProperty([canonicalCacheKey("search_logs", { query: "error" })]);
    const state = JSON.parse(JSON.stringify(first.state)) as ChatState;

    const second = await chat(agent, "Count them exactly.", {
      llm: model.llm,
      messages: first.messages,
      state,
    });
    model.assertConsumed();
    expect(second.ok).toBe(true);
    if (second.ok) expect(second.reply).toBe("Still 120.");
    expect(executions()).toBe(1);
    const programResult = model.calls[3]?.messages.at(-1);
    expect(programResult?.toolCallId).toBe("c2");
    expect(readToolBody(programResult?.content).result).toBe("user=> 120");
    // System messages of the fed-back history were dropped.
    expect(model.calls[2]?.messages.some((message) => message.role === "system")).toBe(false);
    expect(second.messages.filter((message) => message.role === "system")).toHaveLength(1);
  });

  it("runs the tool again on the next call without state", async () => {
    const { agent, model, executions } = setup();
    const first = await chat(agent, "How many errors?", { llm: model.llm });
    const second = await chat(agent, "Count them exactly.", { llm: model.llm, messages: first.messages });
    model.assertConsumed();
    expect(second.ok).toBe(true);
    expect(executions()).toBe(2);
    expect(readToolBody(model.calls[3]?.messages.at(-1)?.content).result).toBe("user=> 120");
    expect(second.state.toolCache).toHaveProperty([canonicalCacheKey("search_logs", { query: "error" })]);
  });

  it("rejects a state that is not a previous reply's state", async () => {
    const { agent, model } = setup();
    await expect(
      chat(agent, "Hi", { llm: model.llm, state: { toolCache: [] } as unknown as ChatState }),
    ).rejects.toMatchObject({ code: "PTC_AGENT_INVALID_RUN_OPTION" });
    expect(model.calls).toHaveLength(0);
  });
});
