/**
 * `for` and `doseq` on the general evaluator (comprehension.ts): a binding followed by a :when
 * runs the test in the binding's own loop. These programs put :when, :while and :let in every
 * order, with tests that wait on a tool, and check each against its expected value and against
 * the other engines.
 */
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { comprehensionStats } from "./comprehension.js";

const rows = Array.from({ length: 40 }, (_, i) => ({
  id: i,
  status: i % 3 === 0 ? "paid" : "open",
  n: i % 7,
}));

const cases: [source: string, expected: string][] = [
  ['(for [r data/rows :when (= (:status r) "paid")] (:id r))', "[0 3 6 9 12 15 18 21 24 27 30 33 36 39]"],
  ["(for [x [1 2 3 4 5 6] :when (odd? x) :when (> x 1)] x)", "[3 5]"],
  ["(for [x [1 2 3 4 5 6] :when (odd? x) :while (< x 5)] x)", "[1 3]"],
  ["(for [x [1 2 3 4 5 6] :while (< x 5) :when (odd? x)] x)", "[1 3]"],
  ["(for [x [1 2 3] :let [y (* x 10)] :when (> y 10)] y)", "[20 30]"],
  ["(for [x [1 2 3] :when (> x 1) y [:a :b] :when (not= y :a)] [x y])", "[[2 :b] [3 :b]]"],
  ["(for [[a b] [[1 2] [3 4] [5 nil]] :when b] (+ a b))", "[3 7]"],
  ["(for [{:keys [n]} data/rows :when (= n 6)] n)", "[6 6 6 6 6]"],
  ["(for [x nil :when true] x)", "[]"],
  ["(for [x [nil false 0] :when (nil? x)] x)", "[nil]"],
  // The test waits on a tool: the loop goes on from the element it stopped at.
  ["(for [x [1 2 3 4] :when (tool/keep? {:x x})] x)", "[2 4]"],
  ["(for [x [1 2 3 4] :when (tool/keep? {:x x}) :while (< x 4)] (tool/keep? {:x (inc x)}))", "[false]"],
  ["(count (for [x (range 30000) :when (zero? (mod x 7))] x))", "4286"],
];

const tools = { "keep?": (args: Record<string, unknown>) => (args.x as number) % 2 === 0 };

describe("for with :when on the general evaluator", () => {
  test.each(cases)("%s", async (source, expected) => {
    const values: string[] = [];
    for (const engine of ["general", "adaptive", "fast"] as const) {
      const result = await run(source, { context: { rows }, tools, engine });
      if (!result.ok) throw new Error(`${engine}: ${result.error.message}`);
      values.push(format(result.value));
    }
    expect(values).toEqual([expected, expected, expected]);
  });

  test("doseq runs its body for the elements the :when keeps, in order", async () => {
    for (const engine of ["general", "adaptive"] as const) {
      const result = await run("(doseq [x [1 2 3 4] :when (even? x)] (println x))", { engine });
      expect(result.ok && result.prints).toEqual(["2", "4"]);
    }
  });

  test("elements a :when filters out still count against the clock", async () => {
    const result = await run("(count (for [x (range 10000) y (range 10000) :when (neg? y)] 1))", {
      engine: "general",
      limits: { timeoutMs: 200 },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe("timeout");
  });
});

/** Bindings over a two-item vector written in the clause, which the general engine runs unmade. */
const pairs: string[] = [
  '(->> (for [o data/rows :when (= (:status o) "paid") x [(:id o) (* 10 (:n o))] :when (> x 20)] x) (reduce + 0))',
  "(for [x [1 2 3] y [x (* x x)]] [x y])",
  "(for [x [1 2 3] y [x nil] :when y] y)",
  "(for [x [1 2 3] y [x (- x)] :while (pos? y)] y)",
  "(for [x [1 2] y [x (inc x)] z [y 0] :when (pos? z)] [x y z])",
  "(for [x [1 2] y [x (inc x)] :let [w (* 2 y)]] w)",
  "(for [y [(tool/keep? {:x 2}) (tool/keep? {:x 3})]] y)",
  "(for [x [1 2 3 4] y [x (inc x)] :when (tool/keep? {:x y})] y)",
  "(for [x [1 2 3] y [x (inc x)]] (tool/keep? {:x y}))",
  "(for [x [1 2 3] y [x (inc x)] :while (tool/keep? {:x y})] y)",
  "(for [x [1 2] y [x (/ 1 (dec x))]] y)",
  "(doseq [x [1 2] y [x (* 10 x)]] (println y))",
  "(count (for [x (range 20000) y [x (inc x)] :when (odd? y)] y))",
];

function outcome(result: RunResult): unknown {
  if (!result.ok) return `${result.error.reason}: ${result.error.message}`;
  return [format(result.value), result.prints, result.toolCalls.map((call) => call.args)];
}

describe("for over a two-item vector written in the clause", () => {
  test.each(pairs)("%s answers as the default engine and runs without the vector", async (source) => {
    const expected = outcome(await run(source, { context: { rows }, tools }));
    const before = comprehensionStats.literalPairs;
    const result = await run(source, { context: { rows }, tools, engine: "general" });
    expect(outcome(result)).toEqual(expected);
    expect(comprehensionStats.literalPairs - before).toBeGreaterThan(0);
  });

  test("the unmade vector is charged against the memory budget all the same", async () => {
    // The same program with the vector made (the second item hidden behind identity: still a
    // vector of two, no longer written in the clause) is charged the same bytes.
    const unmade = await run("(count (for [x (range 1000) y [x x]] 1))", { engine: "general" });
    const made = await run("(count (for [x (range 1000) y (identity [x x])] 1))", { engine: "general" });
    expect(unmade.ok && made.ok).toBe(true);
    expect(unmade.usage?.memoryBytes).toBe(made.usage?.memoryBytes);
  });

  test.each([
    "(for [x [1 2 3] y [4 5]] x)",
    "(for [x [1 2 3] y [4 5]] [x y])",
    '(for [x (range 50) y [:a "b"] :when (odd? x)] [x y])',
  ])("%s: a pair of constants is one shared vector, charged as on every engine", async (source) => {
    const charged: Record<string, unknown> = {};
    for (const engine of ["fast", "general", "adaptive"] as const) {
      const result = await run(source, { engine });
      expect(result.ok).toBe(true);
      charged[engine] = result.usage?.memoryBytes;
    }
    expect(charged.general).toBe(charged.fast);
    expect(charged.adaptive).toBe(charged.fast);
  });
});
