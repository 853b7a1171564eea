/**
 * Nodes of the general evaluator that answer part of their work in place of a child node's call:
 * an `if`/`when` whose else is a constant (constantElse), a destructuring `let` over a local, the
 * shape the analyzer wraps around a fn whose parameter is a pattern (localInits). These tests prove
 * those nodes were made (counters) and that they answer what the default engine answers, for
 * truthy, falsy and waiting (tool) tests; and a builtin call of four or more arguments that
 * evaluates them in its own node (manyArgumentStats), with an argument that waits on a tool.
 */
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { manyArgumentStats } from "./calls.js";
import { shortcutStats } from "./number-shortcuts.js";

function outcome(result: RunResult): unknown {
  return result.ok ? format(result.value) : `${result.error.reason}: ${result.error.message}`;
}

const rows =
  '[{:id 1 :region "west" :amount 1200} {:id 2 :region "east" :amount 5} {:id 3 :region "west" :amount 10}]';
const tools = { flag: (args: Record<string, unknown>) => args.v ?? null };

/** Each program with the counter it must raise on the general engine. */
const programs: [source: string, counter: keyof typeof shortcutStats][] = [
  [`(some #(when (and (= (:region %) "west") (> (:amount %) 999)) (:id %)) ${rows})`, "constantElse"],
  [`(mapv #(when (= (:region %) "west") (:id %)) ${rows})`, "constantElse"],
  [`(mapv #(if (:amount %) (:id %) :none) (conj ${rows} {:id 4}))`, "constantElse"],
  [`(mapv #(when % 1) [nil false 0 "" []])`, "constantElse"],
  ["(when (tool/flag {:v true}) :yes)", "constantElse"],
  ["(when (tool/flag {:v false}) :yes)", "constantElse"],
  [`(reduce (fn [acc {:keys [amount id]}] (+ acc (* amount id))) 0 ${rows})`, "localInits"],
  [`(mapv (fn [[a b]] (+ a b)) [[1 2] [3 4]])`, "localInits"],
  [`(mapv (fn [{:keys [amount]}] amount) [nil {:amount 2} {"amount" 3}])`, "localInits"],
  ['(mapv (fn [[a b]] [a b]) ["ab"])', "localInits"],
  ["(mapv (fn [{:keys [a]}] a) [1])", "localInits"],
];

describe("general evaluator node shortcuts", () => {
  test("answer as the default engine does, and are what ran", async () => {
    for (const [source, counter] of programs) {
      const expected = outcome(await run(source, { tools }));
      const before = shortcutStats[counter];
      const result = await run(source, { engine: "general", tools });
      expect(outcome(result), source).toBe(expected);
      expect(shortcutStats[counter] - before, source).toBeGreaterThan(0);
    }
  });

  test("calls of four or more arguments answer as the default engine does, in order", async () => {
    const sources = [
      `(mapv #(str "order " (:id %) " in " (:region %) ": " (:amount %)) ${rows})`,
      '(format "%s-%s-%s" 1 (tool/flag {:v "two"}) 3)',
      '(str "a" (tool/flag {:v 1}) "b" (tool/flag {:v 2}) "c")',
      '(str "a" "b" "c" (tool/flag {:v 1}))',
      "(max 1 2 3 4 5)",
      '(max 1 2 3 "x")',
      "(assoc {} :a 1 :b)",
    ];
    for (const source of sources) {
      const expected = await run(source, { tools });
      const before = manyArgumentStats.inline;
      const result = await run(source, { engine: "general", tools });
      expect(outcome(result), source).toBe(outcome(expected));
      expect(
        result.toolCalls.map((call) => call.args),
        source,
      ).toEqual(expected.toolCalls.map((call) => call.args));
      expect(manyArgumentStats.inline - before, source).toBeGreaterThan(0);
    }
  });

  test("a when-guarded loop is still cut off by the iteration limit", async () => {
    const result = await run("(loop [i 0] (when (>= i 0) (recur (inc i))))", {
      engine: "general",
      limits: { maxIterations: 10_000, timeoutMs: 5000 },
    });
    expect(result.ok).toBe(false);
  });
});
