import { expect, test } from "vitest";
import { createAgent, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

test("native tools are offered sorted by name, whatever order the agent lists them in", async () => {
  const model = createScriptedModel(["done"]);
  const agent = createAgent({
    prompt: "Go",
    output: "text",
    ptcTransport: "tool_call",
    tools: { zeta: () => 1, alpha: () => 2, "mid-name": () => 3 },
  });
  const result = await run(agent, { llm: model.llm });
  expect(result.ok).toBe(true);
  expect(model.calls[0]?.tools?.map((tool) => tool.function.name)).toEqual([
    "alpha",
    "mid_name",
    "zeta",
    "lisp_eval",
  ]);
});
