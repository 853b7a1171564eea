/**
 * The adaptive tier (the default engine): a new program starts on the general evaluator, a hot pure
 * function moves to generated code while the program runs, and a text run again is compiled to
 * generated code. These tests prove each move happens (the counters of fast-tier.ts), and that the
 * values, output and errors are those of the other two engines.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { registry } from "../builtins/index.js";
import { format, type RunOptions, type RunResult, run } from "../index.js";
import { analyzedBody, codeGenerationWorks } from "../test-support.js";
import { codegenRuntime } from "./codegen-runtime.js";
import { generateUnitSource } from "./codegen-units.js";
import { fastTierStats, resetFastTierStats } from "./fast-tier.js";
import { promotionPolicy } from "./promotion.js";
import { RESUME_CHUNK, resumedLoopNode } from "./resume-nodes.js";

// The threshold these tests are written for (PTC_LISP_PROMOTE_AFTER may have set another one).
const THRESHOLD = 1000;
const thresholdBefore = promotionPolicy.threshold;
beforeEach(() => {
  promotionPolicy.threshold = THRESHOLD;
});
afterEach(() => {
  promotionPolicy.threshold = thresholdBefore;
});

function outcome(result: RunResult): unknown {
  const common = { prints: result.prints, tools: result.toolCalls.map((call) => [call.name, call.args]) };
  return result.ok ? { ...common, value: format(result.value) } : { ...common, error: result.error };
}

let textCounter = 0;
/**
 * A text no earlier run used (so the program cache does not hand back compiled code). The counter
 * has a fixed width, so that every text puts the program at the same column: engines compared on
 * two texts must report an error at the same position.
 */
const unique = (source: string) => `(let [unused-${String(++textCounter).padStart(6, "0")} 0] ${source})`;

const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i, amount: (i * 37) % 1000, tag: i % 3 }));
const tools = { echo: (args: Record<string, unknown>) => args };

async function adaptive(source: string, options: RunOptions = {}) {
  resetFastTierStats();
  const result = await run(source, { ...options, engine: "adaptive" });
  return { result, stats: { ...fastTierStats } };
}

describe("a new program starts on the general evaluator", () => {
  test("no code is generated for a program whose functions stay cold", async () => {
    const { result, stats } = await adaptive(unique("(->> [1 2 3] (map #(* % %)) (reduce +))"));
    expect(result.ok && result.value).toBe(14);
    expect(stats).toMatchObject({ unitsGenerated: 0, promotions: 0, fastRuns: 0 });
  });

  // PTC_LISP_ENGINE (set when the suite runs on another engine) changes the default.
  test.skipIf(process.env.PTC_LISP_ENGINE !== undefined || !codeGenerationWorks)(
    "the adaptive engine is the default",
    async () => {
      resetFastTierStats();
      const result = await run(unique("(count (filter #(> (:amount %) 500) data/rows))"), {
        context: { rows },
      });
      expect(result.ok).toBe(true);
      expect(fastTierStats.promotions).toBe(1);
    },
  );
});

// Where code generation is forbidden, no-eval.test.ts proves that none is attempted instead.
describe.runIf(codeGenerationWorks)("a hot function moves to generated code", () => {
  test("past the threshold, its calls run as generated code, with the same answer", async () => {
    const source = unique("(count (filter #(and (> (:amount %) 500) (= (:tag %) 1)) data/rows))");
    const { result, stats } = await adaptive(source, { context: { rows } });
    const general = await run(source, { context: { rows }, engine: "general" });
    expect(result.ok && result.value).toBe(general.ok && general.value);
    expect(stats).toMatchObject({ promotions: 1, unitsGenerated: 1, generationGaps: 0, effectFallbacks: 0 });
  });

  test("a long loop moves to generated code where it stands", async () => {
    const limits = { maxIterations: 100_000 };
    const source = unique("(loop [i 0 acc 0] (if (< i 5000) (recur (inc i) (+ acc i)) acc))");
    const { result, stats } = await adaptive(source, { limits });
    expect(result.ok && result.value).toBe(12_497_500);
    expect(stats).toMatchObject({ promotions: 1, fastRuns: 1, effectFallbacks: 0 });
    // Destructured loop state, and a loop inside a function called twice (promoted once).
    const destructured = unique(
      "(defn walk [n] (loop [[a b] [0 1] k 0] (if (< k n) (recur [b (mod (+ a b) 1000)] (inc k)) a))) [(walk 3000) (walk 2500)]",
    );
    const outcomes = await adaptive(destructured, { limits });
    const general = await run(destructured, { limits, engine: "general" });
    expect(outcome(outcomes.result)).toEqual(outcome(general));
    expect(outcomes.stats.promotions).toBe(1);
  });

  test("a loop resumed in generated code keeps the integer-only arithmetic of its written inits", async () => {
    // integral.ts proves `i` and `acc` integers from the literal 0s and the recurs: the resumed
    // loop, whose inits read the frame, must still get the one-check arithmetic (no `(x | 0) === x`
    // test of an operand, which only arithmetic on values of unknown kind needs).
    const loop = analyzedBody("(loop [i 0 acc 0] (if (< i 5000) (recur (inc i) (+ acc (* i i))) acc))");
    expect(loop.kind).toBe("loop");
    const builtin = (name: string) => registry.get(name);
    const written = generateUnitSource(loop, builtin);
    const resumed = generateUnitSource(
      resumedLoopNode(loop as Extract<typeof loop, { kind: "loop" }>),
      builtin,
    );
    expect(written).not.toContain("| 0) ===");
    expect(resumed).not.toContain("| 0) ===");
    // A binding a recur may make a float is not integral, resumed or not.
    const floating = analyzedBody("(loop [i 0 x 0] (if (< i 5000) (recur (inc i) (+ x 0.5)) x))");
    const floatingResumed = generateUnitSource(
      resumedLoopNode(floating as Extract<typeof floating, { kind: "loop" }>),
      builtin,
    );
    expect(floatingResumed).toContain("| 0) ===");
    // And the values past the threshold: overflow past 2^53 (bigints), -0, floats after the move.
    const limits = { maxIterations: 100_000 };
    for (const program of [
      "(loop [i 0 acc 1] (if (< i 3000) (recur (inc i) (if (< i 2990) acc (* acc 99999999))) acc))",
      "(loop [i 0 acc 0] (if (< i 3000) (recur (inc i) (* -5 acc)) acc))",
      "(loop [i 0 x 0] (if (< i 3000) (recur (inc i) (if (< i 2500) x (+ x 0.5))) x))",
      "(loop [i 9007199254740000 n 0] (if (< n 3000) (recur (inc i) (inc n)) i))",
    ]) {
      const source = unique(program);
      const { result, stats } = await adaptive(source, { limits });
      const general = await run(source, { limits, engine: "general" });
      expect(outcome(result), program).toEqual(outcome(general));
      expect(stats, program).toMatchObject({ promotions: 1, fastRuns: 1, effectFallbacks: 0 });
    }
  });

  test("a resumed loop hands back every chunk of jumps, and limits and fallbacks see one loop", async () => {
    // Its state goes back to the raw slots every RESUME_CHUNK jumps and its entry calls it again
    // (resume-nodes.ts): values, the iteration limit and errors are those of the general evaluator.
    const loop = analyzedBody("(loop [i 0 acc 0] (if (< i 5000) (recur (inc i) (+ acc i)) acc))");
    const source = generateUnitSource(
      resumedLoopNode(loop as Extract<typeof loop, { kind: "loop" }>),
      (name) => registry.get(name),
    );
    expect(source).toContain(`=== ${RESUME_CHUNK}) { frame[`);
    expect(source).toContain("return $.AGAIN;");
    for (const [program, limits] of [
      ["(loop [i 0 acc 0] (if (< i 9000) (recur (inc i) (+ acc i)) acc))", { maxIterations: 100_000 }],
      ["(loop [i 0] (if (< i 9000) (recur (inc i)) i))", { maxIterations: 4_500 }],
      ["(loop [i 0 v []] (if (< i 3000) (recur (inc i) (conj v (if (= i 2500) (/ 1 0) i))) (count v)))", {}],
      ["(loop [[a b] [0 1] k 0] (if (< k 4000) (recur [b (mod (+ a b) 1000)] (inc k)) [a b k]))", {}],
    ] as const) {
      const text = unique(program);
      const { result, stats } = await adaptive(text, { limits });
      const general = await run(text, { limits, engine: "general" });
      expect(outcome(result), program).toEqual(outcome(general));
      expect(stats.promotions, program).toBe(1);
    }
  });

  test("a loop that meets an effect after moving continues on the general evaluator", async () => {
    const source = unique(
      '(defn note [i] (when (= i 4000) (println "at" i)) i) (loop [i 0] (if (< i 5000) (recur (inc (note i))) i))',
    );
    const { result, stats } = await adaptive(source, { limits: { maxIterations: 100_000 } });
    expect(result.ok && result.prints).toEqual(["at 4000"]);
    expect(result.ok && result.value).toBe(5000);
    expect(stats.promotions).toBeGreaterThan(0);
  });

  test("a for over a large collection runs as generated code", async () => {
    const source = unique("(for [r data/rows :when (= (:tag r) 2) :let [a (:amount r)]] (* 2 a))");
    const { result, stats } = await adaptive(source, { context: { rows } });
    const general = await run(source, { context: { rows }, engine: "general" });
    expect(outcome(result)).toEqual(outcome(general));
    expect(stats).toMatchObject({ promotions: 1, fastRuns: 1 });
    const small = await adaptive(unique("(for [r (take 10 data/rows)] (:id r))"), { context: { rows } });
    expect(small.stats.promotions).toBe(0);
  });

  test("map, filter, remove, some, every? and reduce with a literal fn over a large collection run as one loop", async () => {
    for (const source of [
      "(count (filter (fn [r] (> (:amount r) 500)) data/rows))",
      "(reduce (fn [acc {:keys [amount tag]}] (+ acc (* amount tag))) 0 data/rows)",
      "(let [k 2] (mapv (fn [r] (* k (:id r))) (remove #(= (:tag %) 1) data/rows)))",
      "(some #(when (and (= (:tag %) 2) (> (:amount %) 990)) (:id %)) data/rows)",
      "(some #(= (:tag %) 7) data/rows)",
      "(every? (fn [r] (< (:amount r) 1000)) data/rows)",
    ]) {
      const text = unique(source);
      const { result, stats } = await adaptive(text, { context: { rows } });
      const general = await run(text, { context: { rows }, engine: "general" });
      expect(outcome(result), source).toEqual(outcome(general));
      // One unit for the call (its function inlined), not a function promoted after 1,000 calls.
      expect(stats.promotions, source).toBeGreaterThanOrEqual(1);
      expect(stats.fastRuns, source).toBeGreaterThanOrEqual(1);
      expect(stats.effectFallbacks, source).toBe(0);
      // No generated function was called per item: the fn's body is inside the loop.
      expect(stats.functionEntries, source).toBe(0);
    }
    // A small collection stays on the general evaluator.
    const small = await adaptive(
      unique("(count (filter (fn [r] (> (:amount r) 500)) (take 10 data/rows)))"),
      {
        context: { rows },
      },
    );
    expect(small.stats.promotions).toBe(0);
  });

  test("a pipeline consumed whole over a large collection runs as one fused loop, at once", async () => {
    for (const source of [
      "(reduce + 0 (map :amount (filter (fn [r] (> (:amount r) 500)) data/rows)))",
      "(count (filter #(= (:tag %) 1) data/rows))",
      "(apply max (map :amount (remove #(= (:tag %) 1) data/rows)))",
    ]) {
      const text = unique(source);
      const { result, stats } = await adaptive(text, { context: { rows } });
      const general = await run(text, { context: { rows }, engine: "general" });
      expect(outcome(result), source).toEqual(outcome(general));
      // One unit for the whole call, generated before any callback ran: no fn reached 1,000 calls.
      expect(stats, source).toMatchObject({
        promotions: 1,
        unitsGenerated: 1,
        fastRuns: 1,
        effectFallbacks: 0,
      });
    }
    // take does the work of the items it takes: it stays on the general evaluator's lazy pipeline.
    const prefix = await adaptive(unique("(take 3 (filter (fn [r] (> (:amount r) 500)) data/rows))"), {
      context: { rows },
    });
    expect(prefix.stats.promotions).toBe(0);
    const inner = await adaptive(
      unique("(reduce + 0 (take 3 (filter (fn [r] (> (:amount r) 500)) data/rows)))"),
      {
        context: { rows },
      },
    );
    expect(inner.stats.promotions).toBe(0);
  });

  test("each closure of a hot fn form keeps its own captured values", async () => {
    promotionPolicy.threshold = 5;
    const source = unique("(mapv (fn [k] (count (filter #(= (:tag %) k) data/rows))) [0 1 2 7])");
    const { result, stats } = await adaptive(source, { context: { rows } });
    expect(result.ok && format(result.value)).toBe("[1000 1000 1000 0]");
    expect(stats.promotions).toBeGreaterThan(0);
  });

  test("a promoted function that meets an effect falls back, and the effect happens once", async () => {
    promotionPolicy.threshold = 2;
    const source = unique(
      "(defn show [x] (when (= x 4) (println x)) x) (mapv (fn [y] (show (* y 2))) [1 2 3 4 5])",
    );
    const { result, stats } = await adaptive(source);
    expect(result.ok && result.prints).toEqual(["4"]);
    expect(result.ok && format(result.value)).toBe("[2 4 6 8 10]");
    expect(stats.promotions).toBeGreaterThan(0);
    expect(stats.effectFallbacks).toBeGreaterThan(0);
  });

  test("errors raised after promotion keep their message and position", async () => {
    promotionPolicy.threshold = 1;
    const source = unique('(mapv (fn [x] (inc x)) [1 2 "three"])');
    const adaptiveResult = await adaptive(source);
    const general = await run(source, { engine: "general" });
    expect(outcome(adaptiveResult.result)).toEqual(outcome(general));
    expect(adaptiveResult.result.ok).toBe(false);
    expect(adaptiveResult.stats.promotions).toBe(1);
  });

  test("arity errors are reported by the closure, as on the general evaluator", async () => {
    promotionPolicy.threshold = 0;
    const source = unique("(let [f (fn [a b] (+ a b))] [(f 1 2) (f 1)])");
    const adaptiveResult = await adaptive(source);
    expect(outcome(adaptiveResult.result)).toEqual(outcome(await run(source, { engine: "general" })));
  });
});

describe.runIf(codeGenerationWorks)("a text run again is compiled to generated code", () => {
  test("the second run of the same text starts in generated code", async () => {
    const source = unique(
      "(->> [1 2 3 4] (map (fn [x] {:x x :sq (* x x)})) (filter #(odd? (:x %))) (mapv :sq))",
    );
    const first = await adaptive(source);
    expect(first.stats.unitsGenerated).toBe(0);
    const second = await adaptive(source);
    expect(second.stats.unitsGenerated).toBeGreaterThan(0);
    expect(second.stats.fastRuns).toBeGreaterThan(0);
    expect(second.result.ok && format(second.result.value)).toBe(
      first.result.ok && format(first.result.value),
    );
  });

  test("the third run reuses the second run's generated code instead of generating it again", async () => {
    const source = unique("(->> (range 20) (filter even?) (map (fn [x] {:x x})) (mapv :x))");
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await adaptive(source));
    const [first, second, third] = runs as [(typeof runs)[0], (typeof runs)[0], (typeof runs)[0]];
    expect(first.stats.unitsGenerated).toBe(0);
    expect(second.stats.unitsGenerated).toBeGreaterThan(0);
    expect(third.stats.unitsGenerated).toBe(0);
    expect(third.stats.fastRuns).toBeGreaterThan(0);
    for (const later of [second, third])
      expect(later.result.ok && format(later.result.value)).toBe(
        first.result.ok && format(first.result.value),
      );
  });
});

describe.runIf(codeGenerationWorks)("a call over a large looping call runs whole as generated code", () => {
  test("apply merge-with over a map of one-entry maps merges pairs in one loop", async () => {
    const folds = vi.spyOn(codegenRuntime, "mergeWithPairs");
    try {
      for (const source of [
        "(apply merge-with + (map (fn [r] {(:tag r) (:amount r)}) data/rows))",
        "(apply merge-with max (map (fn [r] {(:tag r) (:id r)}) data/rows))",
      ]) {
        folds.mockClear();
        const text = unique(source);
        const { result, stats } = await adaptive(text, { context: { rows } });
        const general = await run(text, { context: { rows }, engine: "general" });
        expect(outcome(result), source).toEqual(outcome(general));
        expect(stats, source).toMatchObject({ promotions: 1, effectFallbacks: 0 });
        expect(folds, source).toHaveBeenCalledTimes(1);
      }
      // Small collections, and a collection that is no vector, stay on the general evaluator.
      folds.mockClear();
      for (const source of [
        "(apply merge-with + (map (fn [r] {(:tag r) (:amount r)}) (take 10 data/rows)))",
        "(apply merge-with + (map (fn [[k v]] {k v}) {:a 1 :b 2}))",
        "(apply merge-with + (map (fn [r] {(:tag r) (:amount r)}) 5))",
      ]) {
        const text = unique(source);
        const { result, stats } = await adaptive(text, { context: { rows } });
        expect(outcome(result), source).toEqual(
          outcome(await run(text, { context: { rows }, engine: "general" })),
        );
        expect(stats.promotions, source).toBe(0);
      }
      expect(folds).not.toHaveBeenCalled();
    } finally {
      folds.mockRestore();
    }
  });
});

describe.runIf(codeGenerationWorks)("a promoted function calls itself without its entry", () => {
  test("a defn calling itself through its var enters its own generated body", async () => {
    const source = unique("(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 20)");
    const { result, stats } = await adaptive(source);
    expect(result.ok && result.value).toBe(6765);
    expect(stats).toMatchObject({ promotions: 1, effectFallbacks: 0 });
    // fib 20 makes 21,891 calls, 20,891 of them past the threshold. Only the general closures
    // still on the stack when the form was promoted come in through the generated entry (at most
    // two per level of recursion); every other call is the body calling itself.
    expect(stats.functionEntries).toBeGreaterThan(0);
    expect(stats.functionEntries).toBeLessThan(50);
  });

  test("a defn's body reads its var once per entry, not once per call of itself", async () => {
    // Inside a pmap branch every var read of generated code goes through $.readVar (the branch
    // may have defs of its own), which makes the reads countable.
    const readVar = vi.spyOn(codegenRuntime, "readVar");
    try {
      const source = unique(
        "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (pmap fib [15 10])",
      );
      resetFastTierStats();
      const result = await run(source, { engine: "fast" });
      expect(result.ok && format(result.value)).toBe("[610 55]");
      expect(fastTierStats.functionEntries).toBe(2);
      // fib 15 and fib 10 call fib 2,040 times: the first call of each entry finds fib in its
      // var, the flag stands for the read after that.
      expect(readVar.mock.calls.length).toBeGreaterThan(0);
      expect(readVar.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      readVar.mockRestore();
    }
  });

  test("a var redefined between two entries is read again", async () => {
    promotionPolicy.threshold = 0;
    const source = unique(
      "(defn g [n] (if (< n 1) :done (g (dec n)))) (def h g) (def before (h 3)) (defn g [n] [:new n]) [before (h 3)]",
    );
    const { result } = await adaptive(source);
    expect(result.ok && format(result.value)).toBe("[:done [:new 2]]");
  });

  test("a named fn calling itself by its name enters its own generated body", async () => {
    promotionPolicy.threshold = 0;
    const source = unique("((fn fact [n] (if (< n 2) 1 (* n (fact (dec n))))) 20)");
    const { result, stats } = await adaptive(source);
    expect(result.ok && result.value).toBe(2432902008176640000n);
    expect(stats.functionEntries).toBe(1);
  });
});

describe("all three engines agree, promotion at once", () => {
  const programs = [
    "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 15)",
    "((fn fact [n] (if (< n 2) 1 (* n (fact (dec n))))) 20)",
    "(let [f (fn [x] (fn [y] (+ x y)))] ((f 1) 2))",
    "(reduce (fn [acc {:keys [a b] :or {b 10}}] (+ acc a b)) 0 [{:a 1} {:a 2 :b 3}])",
    "(let [g (fn [& more] (count more)) h (fn [x & {:keys [y]}] [x y])] [(g) (g 1 2 3) (h 1 :y 2)])",
    "(map (fn [[k v]] [v k]) {:a 1 :b 2})",
    "(defn twice [f x] (f (f x))) (twice (fn [x] (* x 3)) 7)",
    "(let [counter (fn [xs] (reduce (fn [m x] (update m x (fnil inc 0))) {} xs))] (counter [:a :b :a]))",
    "(mapv (fn [x] (if (> x 1) (tool/echo {:x x}) x)) [1 2 3])",
    "(mapv (fn [x] (try (/ 1 x) (catch e :div))) [1 0 2])",
    '(mapv (fn [x] (str/upper-case x)) ["a" "b"])',
    "(sort-by (fn [r] (- (:amount r))) (take 5 data/rows))",
    "(for [x [1 2 3] :let [f (fn [y] (* x y))]] (f 10))",
    // A var that no longer holds the function whose body calls it: the call goes to the new value.
    "(defn g [n] (if (< n 1) :done (g (dec n)))) (def h g) (defn g [n] [:new n]) [(h 3) (g 1)]",
    // The same after a first call that found g in its var (the flag of codegen.ts, callThroughVar).
    "(defn g [n] (if (< n 1) :done (g (dec n)))) (def h g) (def a (h 3)) (defn g [n] [:new n]) [a (h 3) (g 1)]",
    // Self calls entered directly still count depth, and stop at the limit as the closures do.
    "(defn down [n] (if (= n 0) 0 (+ 1 (down (dec n))))) (down 5000)",
    "(defn down [n] (if (= n 0) 0 (+ 1 (down (dec n))))) (down 900)",
    "(defn walk [n acc] (if (= n 0) acc (walk (dec n) (conj acc n)))) (walk 5 [])",
    "(defn odd-ones [xs] (if (empty? xs) 0 (+ (if (odd? (first xs)) 1 0) (odd-ones (rest xs))))) (odd-ones [1 2 3 4 5])",
    "(defn bad [n] (if (= n 0) (/ 1 n) (bad (dec n)))) (bad 3)",
  ];
  test.each(programs)("%s", async (program) => {
    promotionPolicy.threshold = 0;
    const options: RunOptions = { context: { rows: rows.slice(0, 50) }, tools };
    const adaptiveOutcome = outcome((await adaptive(unique(program), options)).result);
    const general = outcome(await run(unique(program), { ...options, engine: "general" }));
    const fast = outcome(await run(unique(program), { ...options, engine: "fast" }));
    expect(adaptiveOutcome).toEqual(general);
    expect(fast).toEqual(general);
  });
});

describe("the engine option", () => {
  test("an unknown engine is refused with the three names", async () => {
    await expect(run("1", { engine: "turbo" as never })).rejects.toThrow(
      'engine must be "adaptive", "fast" or "general", got turbo',
    );
  });
});
