/**
 * The entry points other than `run` given what a host's code gets wrong: no agent, null options,
 * a history with a hole in it. Each throws `AgentError` naming what was wrong, as `run` does for
 * the same mistakes, instead of a TypeError from deep inside.
 */
import { describe, expect, it } from "vitest";
import {
  type AgentError,
  asTool,
  chat,
  createAgent,
  isAgentError,
  previewPrompt,
  resumeChat,
} from "../index.js";
import { createScriptedModel } from "../testing/index.js";

async function thrown(call: () => unknown): Promise<AgentError> {
  try {
    await call();
  } catch (error) {
    if (isAgentError(error)) return error;
    throw new Error(`expected an AgentError, got ${String(error)}`);
  }
  throw new Error("expected an AgentError, nothing was thrown");
}

const agent = createAgent({ prompt: "Help", output: "text", description: "A helper" });
const llm = createScriptedModel(["unused"]).llm;

describe("a host's mistakes outside run", () => {
  it("chat without an agent", async () => {
    const error = await thrown(() => chat(undefined as never, "hi", { llm }));
    expect(error.code).toBe("PTC_AGENT_INVALID_RUN_OPTION");
    expect(error.message).toContain("chat needs an agent made by createAgent");
  });

  it("chat with null options", async () => {
    const error = await thrown(() => chat(agent, "hi", null as never));
    expect(error.code).toBe("PTC_AGENT_INVALID_RUN_OPTION");
    expect(error.message).toContain("chat options must be an object, got null");
  });

  it("chat with a history that holds something other than messages", async () => {
    for (const hole of [null, undefined, 7]) {
      const error = await thrown(() =>
        chat(agent, "hi", { llm, messages: [{ role: "user", content: "a" }, hole as never] }),
      );
      expect(error.code).toBe("PTC_AGENT_INVALID_RUN_OPTION");
      expect(error.message).toContain("initialMessages[1] must be");
    }
  });

  it("resumeChat without an agent", async () => {
    const error = await thrown(() => resumeChat(undefined as never, { toolCache: {} }, { llm }));
    expect(error.message).toContain("resumeChat needs an agent made by createAgent");
  });

  it("previewPrompt without an agent, or with null options", async () => {
    expect((await thrown(() => previewPrompt(undefined as never))).message).toContain(
      "previewPrompt needs an agent made by createAgent",
    );
    expect((await thrown(() => previewPrompt(agent, null as never))).message).toContain(
      "previewPrompt options must be an object, got null",
    );
  });

  it("asTool with null options", async () => {
    const error = await thrown(() => asTool(agent, null as never));
    expect(error.message).toContain("asTool options must be an object, got null");
  });
});
