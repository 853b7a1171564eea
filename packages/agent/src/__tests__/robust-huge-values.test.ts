import { expect, test } from "vitest";
import { createAgent, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const fence = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;

test("a returned value with enormous shared structure ends the run with the sandbox's reason, not a crash", async () => {
  const model = createScriptedModel([fence("(return (reduce (fn [m _] {:a m :b m}) {} (range 40)))")]);
  const result = await run(createAgent({ prompt: "Build it" }), { llm: model.llm, collectMessages: true });
  expect(result.ok).toBe(false);
  expect(result.step.fail?.reason).toBe("memory_exceeded");
  expect(result.step.turns).toHaveLength(1);
  expect(result.step.messages?.length).toBeGreaterThan(1);
});

test("a returned value nested deeper than the host stack ends the run with a clear reason", async () => {
  const model = createScriptedModel([fence("(return (reduce (fn [acc _] [acc]) [] (range 100000)))")]);
  const result = await run(createAgent({ prompt: "Nest it" }), { llm: model.llm });
  expect(result.ok).toBe(false);
  expect(["recursion_limit_exceeded", "memory_exceeded"]).toContain(result.step.fail?.reason);
  expect(result.step.fail?.reason).not.toBe("internal_error");
});
