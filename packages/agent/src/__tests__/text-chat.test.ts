/**
 * `chat` with text agents: each call is one fresh run over the history; system
 * messages are dropped when the history is fed back (the agent writes its own); a text agent's
 * signature is ignored, the reply is the model's text.
 */
import { describe, expect, it } from "vitest";
import { chat, createAgent } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

describe("chat with a text-only agent", () => {
  it("builds the history [system, user, assistant, user, assistant] over two calls", async () => {
    const agent = createAgent({ prompt: "unused", output: "text", systemPrompt: "You are kind." });
    const model = createScriptedModel(["Hi Ada!", "You said your name is Ada."]);

    const first = await chat(agent, "Hello, I am Ada.", { llm: model.llm });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.reply).toBe("Hi Ada!");
    expect(first.messages).toEqual([
      { role: "system", content: "You are kind." },
      { role: "user", content: "Hello, I am Ada." },
      { role: "assistant", content: "Hi Ada!" },
    ]);

    const second = await chat(agent, "What is my name?", { llm: model.llm, messages: first.messages });
    model.assertConsumed();
    expect(second.ok).toBe(true);
    if (!second.ok) return;
    expect(second.reply).toBe("You said your name is Ada.");
    expect(second.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(second.messages.filter((message) => message.role === "system")).toHaveLength(1);
    expect(second.memory).toEqual({});
    // What the model saw on the second call: the history without its system message, then the new message.
    expect(model.calls[1]?.system).toBe("You are kind.");
    expect(model.calls[1]?.messages).toEqual([
      { role: "user", content: "Hello, I am Ada." },
      { role: "assistant", content: "Hi Ada!" },
      { role: "user", content: "What is my name?" },
    ]);
  });

  it("is idempotent when the returned history is fed back again", async () => {
    const agent = createAgent({ prompt: "unused", output: "text" });
    const model = createScriptedModel(["one", "two", "three"]);
    const first = await chat(agent, "a", { llm: model.llm });
    const second = await chat(agent, "b", { llm: model.llm, messages: first.messages });
    const third = await chat(agent, "c", { llm: model.llm, messages: second.messages });
    expect(third.messages.map((message) => [message.role, message.content])).toEqual([
      ["system", "You are a helpful assistant."],
      ["user", "a"],
      ["assistant", "one"],
      ["user", "b"],
      ["assistant", "two"],
      ["user", "c"],
      ["assistant", "three"],
    ]);
  });

  it("ignores the agent's signature and returns plain text", async () => {
    const agent = createAgent({ prompt: "unused", output: "text", signature: "() -> {count :int}" });
    const model = createScriptedModel(["There are three."]);
    const reply = await chat(agent, "How many?", { llm: model.llm });
    expect(reply.ok).toBe(true);
    if (reply.ok) expect(reply.reply).toBe("There are three.");
    expect(model.calls[0]?.schema).toBeUndefined();
    expect(model.calls[0]?.messages).toEqual([{ role: "user", content: "How many?" }]);
  });

  it("returns the failure and the history when the model fails", async () => {
    const agent = createAgent({ prompt: "unused", output: "text" });
    const model = createScriptedModel([new Error("provider down")]);
    const reply = await chat(agent, "Hi", { llm: model.llm });
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.reason).toBe("llm_error");
      expect(reply.error.message).toContain("provider down");
    }
  });
});

describe("chat with a text tool agent", () => {
  it("keeps tool calls in the history and persists the wrapped user message", async () => {
    const agent = createAgent({
      prompt: "unused",
      output: "text",
      tools: { clock: { signature: "() -> :string", execute: () => "12:00" } },
    });
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "clock", args: {} }] },
      "It is noon.",
      "Bye.",
    ]);
    const first = await chat(agent, "What time is it?", { llm: model.llm });
    expect(first.ok).toBe(true);
    expect(first.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(first.messages[1]?.content).toContain("<mission>\nWhat time is it?\n</mission>");

    const second = await chat(agent, "Thanks", { llm: model.llm, messages: first.messages });
    model.assertConsumed();
    expect(second.ok).toBe(true);
    expect(model.calls[2]?.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(model.calls[2]?.messages.at(-1)?.content).toContain("<mission>\nThanks\n</mission>");
  });
});
