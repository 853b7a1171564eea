/**
 * `take` and `first` over sequence stages pull items one at a time (analyzer/pipelines.ts,
 * builtins/lazy-pipeline.ts). These tests prove the lazy path runs, gives the eager answer, and
 * hands every case it cannot do exactly back to the eager builtins.
 */
import { describe, expect, test } from "vitest";
import { fastTierStats } from "../compiler/fast-tier.js";
import { format, type RunOptions, type RunResult, run } from "../index.js";
import { codeGenerationWorks, generatedSource } from "../test-support.js";
import { lazyPipelineStats, pushedStats } from "./lazy-pipeline.js";

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

/**
 * The comparisons below run each pipeline twice on three engines: a generous clock, so that a
 * loaded machine cannot stop one run on time and not the other.
 */
const limits = { timeoutMs: 60_000 };

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
      const lazy = await counted(`(${consumer} ${pipeline})`, { engine, limits });
      const eager = await run(eagerly(consumer, pipeline), { context, engine, limits });
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

  test("a keyword mapped over a stream reads the field in the stage, as the keyword's lookup does", async () => {
    const mixed = {
      mixed: [{ amount: 1 }, { amount_x: 2 }, null, 5, "s", { user_id: 4 }, [1, 2], { amount: null }],
    };
    const cases: [string, string][] = [
      ["(take 8 (map :amount data/mixed))", "[1 nil nil nil nil nil nil nil]"],
      ["(take 8 (map :user-id data/mixed))", "[nil nil nil nil nil 4 nil nil]"],
      ["(take 3 (map :amount (map #(assoc % :amount 7) (take 3 data/rows))))", "[7 7 7]"],
      ["(take 4 (interleave (map :id data/rows) (map :amount data/rows)))", "[0 0 1 37]"],
    ];
    for (const [source, expected] of cases) {
      // A stream of map and filter stages alone over a vector is taken by pushedPrefix, which
      // calls the keyword's lookup function; the other streams read the field in a pulled stage.
      const before = lazyPipelineStats.fieldStages + pushedStats.pushedPrefixRuns;
      const { result, lazy } = await counted(source, {
        engine: "general",
        context: { ...context, ...mixed },
      });
      expect(result.ok && format(result.value)).toBe(expected);
      expect(lazy).toBe(1);
      expect(lazyPipelineStats.fieldStages + pushedStats.pushedPrefixRuns).toBeGreaterThan(before);
      const eager = await run(source.replace(/^\(take (\d+) (.*)\)$/, "(let [all $2] (take $1 all))"), {
        engine: "general",
        context: { ...context, ...mixed },
      });
      expect(outcome(result)).toEqual(outcome(eager));
    }
  });

  test("partition chunks and two-collection map run lazily and give their own items", async () => {
    // Chunks are copies of one window buffer, and a two-collection map calls its fn without an
    // array of arguments: each chunk must keep its items once the window moves on.
    const cases: ReadonlyArray<readonly [source: string, expected: string]> = [
      ["(take 3 (partition 2 data/xs))", "[[1 2] [3 4] [5 6]]"],
      ["(take 4 (partition 3 1 data/xs))", "[[1 2 3] [2 3 4] [3 4 5] [4 5 6]]"],
      ["(take 9 (partition 2 3 data/xs))", "[[1 2] [4 5] [7 8]]"],
      ["(take 9 (partition 4 4 [:a :b] data/xs))", "[[1 2 3 4] [5 6 7 8] [9 10 :a :b]]"],
      ["(take 9 (partition-all 4 data/xs))", "[[1 2 3 4] [5 6 7 8] [9 10]]"],
      ["(vec (partition 2 1 (take 4 data/xs)))", "[[1 2] [2 3] [3 4]]"],
      ["(take 3 (map vector data/xs (map inc data/xs)))", "[[1 2] [2 3] [3 4]]"],
      ["(vec (map + data/xs (take 2 data/xs)))", "[2 4]"],
    ];
    for (const [source, expected] of cases) {
      const { result, lazy, fallbacks } = await counted(source, { engine: "general" });
      expect(result.ok && format(result.value), source).toBe(expected);
      expect(lazy, source).toBe(1);
      expect(fallbacks, source).toBe(0);
    }
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

describe("consumers of the whole stream", () => {
  /** Consumers given a pipeline of stages; each is compared with the same pipeline bound by let. */
  const consumers: ReadonlyArray<readonly [consumer: string, pipeline: string]> = [
    ["reduce + 0", "(map :amount (filter #(> (:quantity %) 5) data/rows))"],
    ["reduce max", "(map :amount (filter #(> (:quantity %) 5) data/rows))"],
    ["reduce +", "(filter #(> % 100) data/xs)"],
    ["reduce +", "(filter #(> % 5) data/xs)"],
    ["reduce (fn [acc x] (+ acc (* x x))) 0", "(remove odd? data/xs)"],
    ["reduce (fn [m x] (assoc m x (* x x))) {}", "(filter even? data/xs)"],
    ["reduce conj []", "(map inc data/xs)"],
    ["count", "(filter #(> (:amount %) 500) data/rows)"],
    ["count", "(distinct (map :quantity data/rows))"],
    ["apply +", "(map :quantity (filter #(odd? (:id %)) data/rows))"],
    ["apply max", "(map :amount (remove #(> (:quantity %) 2) data/rows))"],
    ["apply max", "(filter #(> % 100) data/xs)"],
    ["apply str", "(map inc data/xs)"],
    ["apply min", "(map :x [{:x 3} {:x 2.5} {:x 7}])"],
    ["apply max", '(map :x [{:x 1} {:x ##NaN} {:x "s"}])'],
    ["apply max", '(map identity [##NaN "s"])'],
    ["apply max", "(map identity [1 9007199254740993 2.0])"],
    ["apply min", "(filter neg? data/xs)"],
    ["apply max", '(map identity [1 "s"])'],
    ["mapv :id", "(filter #(> (:amount %) 990) data/rows)"],
    ["mapv #(* % 2)", "(keep #(when (odd? %) %) data/xs)"],
    ["mapv inc", "(map inc data/xs)"],
    ["into {}", "(map (juxt :id :amount) (filter #(> (:amount %) 995) data/rows))"],
    ["into []", '(map str "héllo")'],
    ["vec", "(map first {:a 1 :b 2})"],
    ["set", "(map :quantity data/rows)"],
    ["frequencies", "(map :quantity (filter #(> (:amount %) 500) data/rows))"],
    ["group-by odd?", "(map :quantity (take 20 data/rows))"],
    ["sum-by :amount", "(filter #(= 3 (:quantity %)) data/rows)"],
    ["sort >", "(map :amount (filter #(> (:amount %) 980) data/rows))"],
    ["sort-by :amount", "(filter #(> (:amount %) 985) data/rows)"],
    ["last", "(map inc data/xs)"],
    ["count", "(partition 3 1 data/xs)"],
    ["reduce + 0", "(take 3 (map inc data/xs))"],
    ["reduce +", "(take 4 (filter odd? data/xs))"],
    ["count", "(take 5 (filter odd? data/xs))"],
    ["vec", "(take -1 (map inc data/xs))"],
    ["vec", "(take 0 (map inc data/xs))"],
    ["vec", "(take 2.5 (map inc data/xs))"],
    ["reduce + 0", '(take 2 (map #(if (= % 3) (fail "too far") %) data/xs))'],
    ["count", "(filter odd? (take 7 (partition 2 1 data/xs)))"],
    ["reduce + 0", "(take 3 (take 5 (map inc data/xs)))"],
    ["reduce + 0", "(map (fn [[a b]] (* a b)) (partition 2 data/xs))"],
    ["reduce + 1.5", "(map #(* % 0.5) data/xs)"],
    ["reduce + 0", "(map #(* % 9007199254740991) data/xs)"],
    ["reduce + 0", '(map #(* % "x") data/xs)'],
    ["reduce + 0", "(map (fn [x] (let [y (inc x)] (* y 2))) (filter even? data/xs))"],
    ["vec", "(partition 2 3 data/xs)"],
    ["vec", "(partition 3 3 (range 10))"],
    ["vec", "(partition 1 (range 4))"],
    ["reduce + 0", "(map (fn [[a b]] (* a b)) (partition 2 (range 11)))"],
    ["vec", "(partition 9 2 (range 30))"],
    ["vec", "(partition 4 1 [1 2 3])"],
    ["some #(when (> % 5) %)", "(map inc data/xs)"],
    ["count", "(map :amount #{{:amount 1} {:amount 2}})"],
    ["count", "(distinct #{1 2})"],
    ["count", "(map inc 5)"],
    ["reduce + 0", '(map inc [1 "two" 3])'],
    ["reduce + 0", "(map :amount [{:amount 1} {:amount nil}])"],
    ["count", '(filter #(if (= % 7) (fail "seven") true) data/xs)'],
  ];

  // The eager text places its forms at other columns: errors are compared without positions here
  // (the test after this one checks a position).
  const placeless = (result: RunResult): unknown => {
    const seen = outcome(result) as { error?: Record<string, unknown> };
    if (seen.error === undefined) return seen;
    const { line: _line, column: _column, ...error } = seen.error;
    return { ...seen, error };
  };

  test.each(consumers)("(%s %s) gives the eager answer", async (consumer, pipeline) => {
    for (const engine of ["adaptive", "fast", "general"] as const) {
      const fused = await counted(`(${consumer} ${pipeline})`, { engine, limits });
      const eager = await run(eagerly(consumer, pipeline), { context, engine, limits });
      expect(placeless(fused.result), engine).toEqual(placeless(eager));
    }
  });

  test("an error in a stage is reported where the eager stage reports it", async () => {
    for (const engine of ["adaptive", "fast", "general"] as const) {
      const { result } = await counted('(reduce + 0 (map inc [1 "two" 3]))', { engine });
      expect(!result.ok && result.error, engine).toEqual({
        reason: "type_error",
        message: 'inc expects numbers, got string "two"',
        line: 1,
        column: 13,
      });
    }
  });

  test("the stages run lazily, into one vector, and the consumer is called with it", async () => {
    const source = "(reduce + 0 (map :amount (filter #(> (:quantity %) 5) data/rows)))";
    const { lazy, fallbacks } = await counted(source, { engine: "general" });
    expect(lazy).toBe(1);
    expect(fallbacks).toBe(0);
  });

  test.runIf(codeGenerationWorks)(
    "generated code folds in the loop, with no rerun on the general evaluator",
    async () => {
      for (const [source, fold] of [
        ["(reduce + 0 (map :amount (filter #(> (:quantity %) 5) data/rows)))", /sum\d+ \+= /],
        ["(count (filter #(> (:amount %) 500) data/rows))", /n\d+\+\+;/],
        ["(mapv :id (filter #(> (:amount %) 990) data/rows))", /out\d+\.push\(/],
        ["(apply max (map :amount (filter #(> (:quantity %) 5) data/rows)))", /best\d+ = /],
        ["(reduce + 0 (take 100 (map (fn [r] (* (:amount r) 1.5)) data/rows)))", /if \(\+\+taken\d+ >= /],
      ] as const) {
        const generated = generatedSource(source);
        expect(generated, source).toMatch(fold);
        expect(generated, source).not.toContain("$.vec(new Array(");
        const reruns = fastTierStats.errorReruns;
        const { lazy } = await counted(source, { engine: "fast" });
        expect(lazy, source).toBe(0);
        expect(fastTierStats.errorReruns, source).toBe(reruns);
      }
    },
  );

  test("the consumer's own effects happen once each, in order, without a rerun of the stages", async () => {
    const { result, fallbacks } = await counted(
      "(reduce (fn [acc x] (println x) (+ acc x)) 0 (map inc (filter odd? [1 2 3 4 5])))",
      { engine: "general" },
    );
    expect(result.ok && result.prints).toEqual(["2", "4", "6"]);
    expect(result.ok && format(result.value)).toBe("12");
    expect(fallbacks).toBe(0);
  });

  test("a tool called in a stage runs the pipeline eagerly, each call once", async () => {
    let calls = 0;
    const tools = {
      double: (args: Record<string, unknown>) => {
        calls++;
        return (args.x as number) * 2;
      },
    };
    const { result } = await counted("(reduce + 0 (map #(tool/double {:x %}) (filter odd? data/xs)))", {
      tools,
    });
    expect(result.ok && format(result.value)).toBe("50");
    expect(calls).toBe(5);
  });

  test("the stages' own vectors are not charged to the memory budget", async () => {
    const fused = "(reduce + 0 (map inc (map inc (map inc (range 20000)))))";
    const eager = "(let [a (map inc (range 20000)) b (map inc a) c (map inc b)] (reduce + 0 c))";
    const fits = async (source: string, maxMemoryBytes: number) =>
      (await run(source, { limits: { maxMemoryBytes } })).ok;
    // Three vectors of 20,000 (the range, a, b, c: four) against two (the range and the collected one).
    expect(await fits(fused, 500_000)).toBe(true);
    expect(await fits(eager, 500_000)).toBe(false);
  });
});
