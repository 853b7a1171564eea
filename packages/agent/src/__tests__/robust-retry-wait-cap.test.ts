// A provider decides how long a retry waits (`Retry-After`), and some answer with hours: a quota
// that resets tomorrow, or a hostile endpoint. `llmRetry.maxDelayMs` (default one minute) bounds
// every wait: the backoff stops growing there, and a provider asking for longer ends the run at
// once with its own error, saying why it was not retried.
import { describe, expect, test } from "vitest";
import { AgentError, createAgent, ModelCallError, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const fence = (code: string) => `\`\`\`clojure\n${code}\n\`\`\``;

const rateLimited = (retryAfterMs: number) =>
  new ModelCallError("rate_limit", "rate limited: slow down", { status: 429, retryAfterMs });

describe("llmRetry.maxDelayMs", () => {
  test("by default a Retry-After of an hour is not waited: the run ends at once with the provider's error", async () => {
    const model = createScriptedModel([rateLimited(3_600_000), fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 3, baseDelayMs: 1 },
    });
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message).toContain("rate limited: slow down");
    expect(result.step.fail?.message).toContain(
      "not retried: the provider asked to wait 3,600,000 ms, longer than llmRetry.maxDelayMs, 60,000 ms",
    );
    expect(model.calls).toHaveLength(1);
  });

  test("a wait within maxDelayMs is waited and the call retried", async () => {
    const model = createScriptedModel([rateLimited(20), fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1000 },
    });
    expect(result).toMatchObject({ ok: true, step: { return: 1 } });
    expect(model.calls).toHaveLength(2);
  });

  test("a lower maxDelayMs refuses shorter asks too, and the agent option is the run's default", async () => {
    const model = createScriptedModel([rateLimited(5_000), fence("(return 1)")]);
    const agent = createAgent({ prompt: "p", llmRetry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 100 } });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.fail?.message).toContain("5,000 ms, longer than llmRetry.maxDelayMs, 100 ms");
    expect(model.calls).toHaveLength(1);
  });

  test("the backoff stops growing at maxDelayMs instead of refusing to retry", async () => {
    // Uncapped, a 10-minute base delay would hold this test far past its timeout.
    const model = createScriptedModel([
      new ModelCallError("server_error", "HTTP 503", { status: 503 }),
      new ModelCallError("server_error", "HTTP 503", { status: 503 }),
      fence("(return 1)"),
    ]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 3, baseDelayMs: 600_000, maxDelayMs: 5 },
    });
    expect(result).toMatchObject({ ok: true, step: { return: 1 } });
    expect(model.calls).toHaveLength(3);
  });

  test("Infinity waits however long the provider asks (until the run is aborted)", async () => {
    const model = createScriptedModel([rateLimited(3_600_000), fence("(return 1)")]);
    const controller = new AbortController();
    const pending = run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: Number.POSITIVE_INFINITY },
      signal: controller.signal,
    });
    // The run is waiting, not failed: nothing has settled it after a while.
    const early = await Promise.race([pending.then(() => "settled"), delay(300).then(() => "waiting")]);
    expect(early).toBe("waiting");
    controller.abort();
    expect((await pending).step.fail?.reason).toBe("aborted");
    expect(model.calls).toHaveLength(1);
  });

  test("a provider asking to wait forever is not retried, even with maxDelayMs: Infinity", async () => {
    // An endless wait sets no timer, so nothing would keep the process alive: a script awaiting
    // the run would exit with the run never settled (and a Retry-After of 308 digits reads as
    // Infinity in the adapters). No retry can follow such a wait: the run ends with the error.
    const model = createScriptedModel([rateLimited(Number.POSITIVE_INFINITY), fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), {
      llm: model.llm,
      llmRetry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: Number.POSITIVE_INFINITY },
    });
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message).toContain("rate limited: slow down");
    expect(result.step.fail?.message).toContain("(not retried: the provider asked to wait without end)");
    expect(model.calls).toHaveLength(1);
  }, 2000);

  test.each([
    ["NaN", Number.NaN],
    ["a negative number", -1],
    ["a string", "60000"],
  ])("%s is refused with a clear error, as an agent option and as a run option", async (_label, value) => {
    const llmRetry = { maxAttempts: 2, maxDelayMs: value as number };
    expect(() => createAgent({ prompt: "p", llmRetry })).toThrow(AgentError);
    expect(() => createAgent({ prompt: "p", llmRetry })).toThrow(
      /llmRetry\.maxDelayMs must be a number of milliseconds ≥ 0/,
    );
    const model = createScriptedModel([fence("(return 1)")]);
    await expect(run(createAgent({ prompt: "p" }), { llm: model.llm, llmRetry })).rejects.toThrow(
      /llmRetry\.maxDelayMs must be a number of milliseconds ≥ 0/,
    );
  });
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
