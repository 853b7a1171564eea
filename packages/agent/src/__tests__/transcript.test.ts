import { describe, expect, test } from "vitest";
import { createAgent, createJsonlTranscript, run } from "../index.js";
import {
  createScriptedModel,
  replayTranscript,
  stepsFromTranscript,
  TranscriptFormatError,
} from "../testing/index.js";

const orders = [
  { id: 1, customer: "ada", amount: 120 },
  { id: 2, customer: "bob", amount: 80 },
  { id: 3, customer: "ada", amount: 30 },
];

function agent() {
  return createAgent({
    prompt: "Total spent per customer",
    signature: "{ada :int, bob :int}",
    tools: {
      list_orders: { execute: () => orders, signature: "() -> [{id :int, customer :string, amount :int}]" },
    },
  });
}

const SCRIPT = [
  "```clojure\n(def by (->> (tool/list_orders {}) (group-by :customer)))\n(println (keys by))\n```",
  "```clojure\n(return (into {} (map (fn [[k rows]] [k (sum-by :amount rows)]) by)))\n```",
];

describe("transcripts", () => {
  test("a recorded run replays to the same answer and the same conversation", async () => {
    const transcript = createJsonlTranscript();
    const recorded = await run(agent(), {
      llm: createScriptedModel(SCRIPT).llm,
      transcript: transcript.write,
      collectMessages: true,
    });
    expect(recorded.ok).toBe(true);
    const text = transcript.text();
    const types = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).type);
    expect(types[0]).toBe("run");
    expect(types.filter((type) => type === "request")).toHaveLength(2);
    expect(types.filter((type) => type === "response")).toHaveLength(2);
    expect(types.at(-1)).toBe("step");
    // Tool calls are in the transcript with their arguments and results.
    const toolEnd = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .find((record) => record.type === "event" && record.event.type === "tool-call-end");
    expect(toolEnd.event).toMatchObject({ toolName: "list_orders", args: {}, result: orders });

    const replay = replayTranscript(text);
    const replayed = await run(agent(), { llm: replay.llm, collectMessages: true });
    replay.assertConsumed();
    expect(replayed.step.return).toEqual({ ada: 150, bob: 80 });
    expect(replayed.step.messages).toEqual(recorded.step.messages);
  });

  test("API keys never reach a transcript", async () => {
    const secret = "sk-test-SECRET0123456789";
    const transcript = createJsonlTranscript();
    const leaky = createScriptedModel([
      () => {
        throw new Error(`401 from provider: invalid key ${secret}`);
      },
    ]);
    const result = await run(agent(), { llm: leaky.llm, transcript: transcript.write });
    expect(result.ok).toBe(false);
    expect(transcript.text()).not.toContain(secret);
    expect(transcript.text()).toContain("[redacted]");
  });

  test("API keys at the start of a line, a tab or any escaped character never reach a transcript", async () => {
    // JSON writes a line break as \n: the key then follows the letter n, and a pattern that wants
    // a word boundary before "sk-" or "Bearer" finds none in the JSON text.
    const secrets = ["sk-proj-SECRET0123456789", "Bearer abcdefgh12345678", "api_key=ZYXWVUTS9876"];
    const transcript = createJsonlTranscript();
    const leaky = createScriptedModel([
      () => {
        throw new Error(`401 from provider, keys tried:\n${secrets[0]}\r\n${secrets[1]}\t${secrets[2]}`);
      },
    ]);
    const vault = createAgent({
      prompt: "Read the env file",
      tools: { env: { execute: () => `OPENAI=\n${secrets[0]}`, signature: "() -> :string" } },
    });
    await run(agent(), { llm: leaky.llm, transcript: transcript.write });
    await run(vault, {
      llm: createScriptedModel(["```clojure\n(return (tool/env {}))\n```"]).llm,
      transcript: transcript.write,
    });
    for (const secret of secrets) expect(transcript.text()).not.toContain(secret.slice(-8));
    for (const line of transcript.lines) JSON.parse(line);
  });

  test("failed model calls replay as failures", async () => {
    const steps = stepsFromTranscript(
      `${JSON.stringify({ type: "model-error", agentId: "x", message: "boom" })}\n${JSON.stringify({ type: "response", agentId: "x", response: "hi" })}\n`,
    );
    expect(steps[0]).toBeInstanceOf(Error);
    expect(steps[1]).toBe("hi");
    expect(() => stepsFromTranscript("not json")).toThrow(TranscriptFormatError);
  });
});
