import { describe, expect, it } from "vitest";
import { type AgentError, chat, createAgent, isAgentError, resume, resumeChat, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

async function refusal(action: () => unknown): Promise<AgentError> {
  try {
    await action();
  } catch (error) {
    if (isAgentError(error)) return error;
    throw error;
  }
  throw new Error("expected an AgentError");
}

const agent = createAgent({ prompt: "p" });
const noModel = createScriptedModel([]);

describe("misspelled options are refused with the nearest valid one", () => {
  it("createAgent", async () => {
    const error = await refusal(() => createAgent({ prompt: "p", maxTurn: 3 } as never));
    expect(error.code).toBe("PTC_AGENT_INVALID_OPTION");
    expect(error.message).toContain('createAgent: unknown option "maxTurn" (did you mean "maxTurns"?)');
    expect(error.details).toMatchObject({ option: "maxTurn", suggestion: "maxTurns" });
  });

  it("a tool definition, with needsApproval among the keys an agent's tool takes", async () => {
    const exposed = await refusal(() =>
      createAgent({ prompt: "p", tools: { search: { execute: () => [], exposed: "both" } as never } }),
    );
    expect(exposed.code).toBe("PTC_AGENT_INVALID_OPTION");
    expect(exposed.message).toContain('tool "search": unknown option "exposed" (did you mean "expose"?)');
    expect(exposed.message).toContain("needsApproval");
    const approval = await refusal(() =>
      createAgent({ prompt: "p", tools: { refund: { execute: () => 1, needsAproval: true } as never } }),
    );
    expect(approval.details.suggestion).toBe("needsApproval");
  });

  it("run, both forms", async () => {
    const withAgent = await refusal(() => run(agent, { llm: noModel.llm, contxt: {} } as never));
    expect(withAgent.code).toBe("PTC_AGENT_INVALID_RUN_OPTION");
    expect(withAgent.message).toContain('run: unknown option "contxt" (did you mean "context"?)');
    const withPrompt = await refusal(() => run("p", { llm: noModel.llm, maxTurn: 1 } as never));
    expect(withPrompt.details.suggestion).toBe("maxTurns");
    expect(noModel.calls).toHaveLength(0);
  });

  it("chat, resume and resumeChat", async () => {
    const chatError = await refusal(() => chat(agent, "hi", { llm: noModel.llm, memroy: {} } as never));
    expect(chatError.details.suggestion).toBe("memory");
    const resumeError = await refusal(() => resume(agent, {} as never, { aprove: [] } as never));
    expect(resumeError.details.suggestion).toBe("approve");
    const chatResumeError = await refusal(() =>
      resumeChat(agent, {} as never, { approve: [], rejected: [] } as never),
    );
    expect(chatResumeError.details.suggestion).toBe("reject");
  });

  it("accepts every option a run of the prompt form shares with the agent", async () => {
    const model = createScriptedModel(["```clojure\n(return 1)\n```"]);
    const result = await run("p", { llm: model.llm, maxTurns: 2, toolTimeoutMs: 100, llmRetry: {} });
    expect(result.ok).toBe(true);
  });
});
