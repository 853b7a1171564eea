/**
 * `take` and `first` over sequence stages pull items one at a time (analyzer/pipelines.ts,
 * builtins/lazy-pipeline.ts). These tests prove the lazy path runs, gives the eager answer, and
 * hands every case it cannot do exactly back to the eager builtins.
 */
import { describe, expect, test } from "vitest";
import { format, type RunOptions, type RunResult, run } from "../index.js";
import { lazyPipelineStats } from "./lazy-pipeline.js";

const rows = Array.from({ length: 5000 }, (_, i) => ({
  id: i,
  amount: (i * 37) % 1000,
  quantity: (i % 9) + 1,
}));
const context = { rows, xs: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] };

function outcome(result: RunResult): unknown {
  const common = { prints: result.prints, tools: result.toolCalls.map((call) => [call.name, call.args]) };
  return result.ok ? { ...common, value: format(result.value) } : { ...common, error: result.error };
}

async function counted(source: string, options: RunOptions = {}) {
  const before = { ...lazyPipelineStats };
  const result = await run(source, { context, ...options });
  return {
    result,
    lazy: lazyPipelineStats.lazyRuns - before.lazyRuns,
    fallbacks: lazyPipelineStats.eagerFallbacks - before.eagerFallbacks,
  };
}

/** The same pipeline with its collection bound by let first: not fused, so run eagerly. */
const eagerly = (consumer: string, pipeline: string) => `(let [all ${pipeline}] (${consumer} all))`;

const pipelines: ReadonlyArray<readonly [consumer: string, pipeline: string]> = [
  ["take 5", "(map :amount data/rows)"],
  ["take 3", "(filter #(> (:amount %) 900) data/rows)"],
  ["take 3", "(remove #(> (:amount %) 10) data/rows)"],
  ["take 4", "(keep #(when (odd? %) (* % %)) data/xs)"],
  ["take 4", "(map-indexed (fn [i x] [i x]) data/xs)"],
  ["take 3", "(map + data/xs (map inc data/xs))"],
  ["take 3", "(map vector data/xs data/xs (map dec data/xs))"],
  ["take 2", "(partition 3 data/xs)"],
  ["take 9", "(partition 3 data/xs)"],
  ["take 9", "(partition 4 6 data/xs)"],
  ["take 9", "(partition 3 3 [:a :b] data/xs)"],
  ["take 9", "(partition 4 4 [] data/xs)"],
  ["take 9", "(partition-all 4 data/xs)"],
  ["take 9", "(partition-all 3 5 data/xs)"],
  ["take 7", "(interleave data/xs (map :id data/rows))"],
  ["take 100", "(interleave [1 2 3] [:a :b])"],
  ["take 0", "(map inc data/xs)"],
  ["take -2", "(map inc data/xs)"],
  ["take 5", "(map inc nil)"],
  ["take 5", "(map first {:a 1 :b 2})"],
  ["take 2", '(map str "héllo")'],
  ["take 5", "(map :amount #{{:amount 1} {:amount 2}})"],
  ["first", "(filter #(> (:amount %) 990) data/rows)"],
  ["first", "(filter #(> % 100) data/xs)"],
  ["first", "(partition 2 1 data/xs)"],
  ["take 4", "(distinct [1 2 1 3 2.0 2 [1 2] [1 2] nil nil 4])"],
  ["take 20", "(->> data/rows (map (juxt #(mod (:id %) 3) #(mod (:amount %) 5))) distinct)"],
  ["take 3", '(distinct "abcab")'],
  ["take 3", "(distinct {:a 1 :b 2})"],
  ["first", "(distinct (map :quantity data/rows))"],
  [
    "take 5",
    "(->> (interleave (map :amount data/rows) (map :quantity data/rows)) (partition 2) (map (fn [[a q]] (* a q))))",
  ],
  ["take 5", "(->> data/rows (map :amount) (partition 3 1) (map #(/ (apply + %) 3)) (filter #(> % 800)))"],
];

describe("take and first over stages", () => {
  test.each(pipelines)("(%s %s) gives the eager answer", async (consumer, pipeline) => {
    for (const engine of ["adaptive", "fast", "general"] as const) {
      const lazy = await counted(`(${consumer} ${pipeline})`, { engine });
      const eager = await run(eagerly(consumer, pipeline), { context, engine });
      expect(outcome(lazy.result), engine).toEqual(outcome(eager));
    }
  });

  test("the lazy path runs, and does the work of the items taken only", async () => {
    let calls = 0;
    const source = "(take 3 (map #(tool/count-call {:x %}) data/xs))";
    // A tool is an effect: that pipeline runs eagerly (checked below); pure callbacks run lazily.
    // The builtin's path (generated code fuses the same pipeline into a loop: codegen.test.ts).
    const { lazy, fallbacks } = await counted("(take 3 (map (fn [r] (* 2 (:amount r))) data/rows))", {
      engine: "general",
    });
    expect(lazy).toBe(1);
    expect(fallbacks).toBe(0);
    const effectful = await counted(source, {
      engine: "general",
      tools: {
        "count-call": (args: Record<string, unknown>) => {
          calls++;
          return args.x;
        },
      },
    });
    expect(effectful.result.ok && format(effectful.result.value)).toBe("[1 2 3]");
    expect(calls).toBe(10);
    expect(effectful.fallbacks).toBe(1);
  });

  test("distinct under take stops once it has found enough distinct items", async () => {
    // The ids are all distinct, and the last row fails: only the first three rows are looked at.
    const source =
      '(take 3 (distinct (map #(if (= (:id %) 4999) (fail "too far") (:quantity %)) data/rows)))';
    for (const engine of ["adaptive", "fast", "general"] as const) {
      const { result } = await counted(source, { engine });
      expect(result.ok && format(result.value), engine).toBe("[1 2 3]");
    }
    expect((await counted(source, { engine: "general" })).lazy).toBe(1);
  });

  test("a pipeline over 5,000 rows stops after the items it needs", async () => {
    // An error on the last row is never reached, as in Clojure (the reference, being eager, fails).
    const source = "(take 2 (map #(if (= (:id %) 4999) (throw-it) (:id %)) data/rows))".replace(
      "(throw-it)",
      '(fail "reached the end")',
    );
    for (const engine of ["adaptive", "fast", "general"] as const) {
      const { result } = await counted(source, { engine });
      expect(result.ok && format(result.value), engine).toBe("[0 1]");
    }
    expect((await counted(source, { engine: "general" })).lazy).toBe(1);
  });

  test("an effect in a stage runs the pipeline eagerly, each effect once, in program order", async () => {
    const { result, fallbacks } = await counted("(take 2 (map (fn [x] (println x) (* x 10)) [1 2 3]))");
    expect(result.ok && result.prints).toEqual(["1", "2", "3"]);
    expect(result.ok && format(result.value)).toBe("[10 20]");
    expect(fallbacks).toBe(1);
  });

  test("an error among the items taken is the eager error, with its position", async () => {
    const source = '(take 3 (map inc [1 "two" 3]))';
    const lazy = await counted(source);
    expect(lazy.result.ok).toBe(false);
    // Where the eager map reports it: the (map ...) form, column 9.
    expect(!lazy.result.ok && lazy.result.error).toEqual({
      reason: "type_error",
      message: 'inc expects numbers, got string "two"',
      line: 1,
      column: 9,
    });
    // Once, or twice when generated code raised it first and reran on the general evaluator.
    expect(lazy.fallbacks).toBeGreaterThanOrEqual(1);
  });

  test("every argument is evaluated once, in program order", async () => {
    const order: string[] = [];
    const tools = {
      n: () => {
        order.push("n");
        return 2;
      },
      xs: () => {
        order.push("xs");
        return [1, 2, 3];
      },
      ys: () => {
        order.push("ys");
        return [4, 5, 6];
      },
    };
    const { result } = await counted("(take (tool/n) (interleave (tool/xs) (map inc (tool/ys))))", { tools });
    expect(result.ok && format(result.value)).toBe("[1 5]");
    expect(order).toEqual(["n", "xs", "ys"]);
  });

  test("a limit stops the run instead of being retried", async () => {
    const { result } = await counted("(first (filter #(> % 1e9) (map inc (range 100000000))))", {
      limits: { timeoutMs: 50, maxMemoryBytes: Number.POSITIVE_INFINITY },
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.reason).toMatch(/^(timeout|memory_exceeded)$/);
  });

  test("the internal builtin refuses to be called by hand", async () => {
    const result = await run("(lazy-pipeline 1 2)");
    expect(!result.ok && result.error.message).toMatch(/lazy-pipeline is internal/);
  });
});
