import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { main } from "./observability.js";

test("the observability example runs as written: preview, events, a transcript read back and replayed", async () => {
  const outcome = await main();
  expect(outcome.answer).toBe(150);
  expect(outcome.replayed).toBe(150);
  expect(outcome.previewMatchesFirstRequest).toBe(true);
  expect(outcome.recordTypes).toEqual(["run", "event", "request", "response", "step"]);
  expect(outcome.toolCalls).toEqual([
    {
      tool: "list_orders",
      args: { status: "paid" },
      result: [
        { id: 1, customer: "ada", status: "paid", amount: 120 },
        { id: 3, customer: "ada", status: "paid", amount: 30 },
      ],
    },
  ]);
  // The feedback of turn 1, which the model read before it answered.
  expect(outcome.lastMessage).toContain("2 paid");
});

test("docs/observability.md shows the example verbatim", () => {
  const guide = readFileSync(new URL("../../../../docs/observability.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("./observability.ts", import.meta.url), "utf8").trim();
  expect(guide).toContain(example);
});
