/**
 * some, every?, not-any?, not-every? search with a loop of their own while every answer is ready
 * (higher-order.ts, scan), and go on as eachResult does from the first answer that waits on a
 * tool. These tests prove the loop ran (a counter) and that both ways give the same answers, tool
 * calls and order.
 */
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { searchStats } from "./higher-order.js";

function outcome(result: RunResult): unknown {
  const tools = result.toolCalls.map((call) => call.args);
  return result.ok ? { tools, value: format(result.value) } : { tools, error: result.error.reason };
}

const tools = { echo: (args: Record<string, unknown>) => Promise.resolve(args.x) };

describe("searches on the general engine", () => {
  test("ready answers: found, not found, every kind of predicate, counted", async () => {
    const cases: Array<[string, string]> = [
      ["(some #(when (> % 2) (* % 10)) [1 2 3 4])", "30"],
      ["(some #(> % 9) [1 2 3])", "nil"],
      ["(some :a [{:b 1} {:a false} {:a 2}])", "2"],
      ["(some #{3 4} [1 4 3])", "4"],
      ["(every? odd? [1 3 5])", "true"],
      ["(every? odd? [1 2 5])", "false"],
      ["(every? odd? [])", "true"],
      ["(not-any? nil? [1 2])", "true"],
      ["(not-every? pos? [1 -2])", "true"],
      ["(some identity [nil false])", "nil"],
    ];
    for (const [source, expected] of cases) {
      const before = searchStats.readyScans;
      const result = await run(source, { engine: "general" });
      expect(outcome(result), source).toEqual({ tools: [], value: expected });
      expect(searchStats.readyScans - before, source).toBe(1);
    }
  });

  test("answers that wait on tools: awaited in order from the first one, none called past the answer", async () => {
    const cases: Array<[string, unknown[], string]> = [
      ["(some (fn [x] (tool/echo {:x x})) [nil false 3 4])", [{ x: null }, { x: false }, { x: 3 }], "3"],
      ["(some (fn [x] (if (> x 2) (tool/echo {:x (* x 10)}) nil)) [1 2 3 4])", [{ x: 30 }], "30"],
      ["(some (fn [x] (if (> x 2) (tool/echo {:x nil}) nil)) [1 2 3 4])", [{ x: null }, { x: null }], "nil"],
      [
        "(every? (fn [x] (tool/echo {:x (odd? x)})) [1 3 4 5])",
        [{ x: true }, { x: true }, { x: false }],
        "false",
      ],
      ["(not-any? (fn [x] (tool/echo {:x (> x 5)})) [1 2])", [{ x: false }, { x: false }], "true"],
    ];
    for (const [source, calls, expected] of cases) {
      const result = await run(source, { engine: "general", tools });
      expect(outcome(result), source).toEqual({ tools: calls, value: expected });
    }
  });

  test("a predicate that never ends is still cut off", async () => {
    const result = await run("(some (fn [x] (loop [] (recur))) [1 2])", {
      engine: "general",
      limits: { maxIterations: 10_000 },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe("loop_limit_exceeded");
  });
});
