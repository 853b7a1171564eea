/**
 * A chat exchange that fails still hands back what it did: its turns are in `messages`, so the
 * memory its programs defined before the failure comes back as `memory`, and the next exchange
 * can go on from both. Without it a host passing `reply.memory` back would lose every earlier
 * exchange's definitions too.
 */
import { describe, expect, it } from "vitest";
import { chat, createAgent } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const program = (source: string) => `\`\`\`clojure\n${source}\n\`\`\``;

describe("chat: a failed exchange", () => {
  it("returns the memory its programs defined, and the next exchange goes on from it", async () => {
    const agent = createAgent({ prompt: "unused", maxTurns: 3 });
    const model = createScriptedModel([
      program("(def a 1)\n(return :ok)"),
      program("(def b 2)"),
      program('(fail "cannot finish")'),
      program("(return (+ a b))"),
    ]);
    const first = await chat(agent, "Remember a.", { llm: model.llm });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.memory).toMatchObject({ a: 1 });

    const second = await chat(agent, "Remember b, then give up.", {
      llm: model.llm,
      messages: first.messages,
      memory: first.memory,
    });
    expect(second.ok).toBe(false);
    if (second.ok || second.paused === true) throw new Error("expected a failed exchange");
    expect(second.error.reason).toBe("failed");
    expect(second.memory).toMatchObject({ a: 1, b: 2 });
    expect(JSON.parse(JSON.stringify(second.memory))).toEqual(second.memory);

    const third = await chat(agent, "Add them.", {
      llm: model.llm,
      messages: second.messages,
      memory: second.memory,
    });
    model.assertConsumed();
    expect(third.ok && third.reply).toBe(3);
  });
});
