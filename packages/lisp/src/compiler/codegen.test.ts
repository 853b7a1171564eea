/**
 * The fast tier must be invisible: every program gives the same value, output, tool calls and
 * error (reason, message, position) on both evaluators, and falling back from fast code to the
 * general evaluator never repeats or reorders an effect.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { analyzeProgram } from "../analyzer/analyze.js";
import { registry } from "../builtins/index.js";
import { format, type RunOptions, type RunResult, run } from "../index.js";
import { read } from "../reader/reader.js";
import { analyzedBody, generatedSource, withTickingClock } from "../test-support.js";
import { Regex } from "../values/regex.js";
import { generateUnitSource } from "./codegen-units.js";

function outcome(result: RunResult): unknown {
  const common = {
    prints: result.prints,
    tools: result.toolCalls.map((call) => [call.name, call.args, call.result ?? call.error]),
  };
  return result.ok ? { ...common, value: format(result.value) } : { ...common, error: result.error };
}

async function bothEngines(source: string, options: RunOptions = {}): Promise<unknown> {
  // A generous clock: a runaway loop must stop at the iteration limit on both engines, however
  // slow a loaded machine makes the general one; the default second would end it on time there.
  const limits = { timeoutMs: 60_000, ...options.limits };
  const fast = outcome(await run(source, { ...options, limits, engine: "fast" }));
  const general = outcome(await run(source, { ...options, limits, engine: "general" }));
  expect(fast, source).toEqual(general);
  return fast;
}

const tools = {
  echo: (args: Record<string, unknown>) => args,
  later: async (args: Record<string, unknown>) => args,
};

describe("both evaluators agree", () => {
  const programs = [
    "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 15)",
    "(loop [i 0 acc 0] (if (< i 100) (recur (inc i) (+ acc (* i i))) acc))",
    // Integer-only loop arithmetic (integral.ts): floats, overflow and -0 must still come out right.
    "(loop [x 0 n 0] (if (< n 3) (recur (+ x 0.5) (inc n)) x))",
    "(loop [i 9007199254740990 n 0] (if (< n 5) (recur (inc i) (inc n)) i))",
    "(loop [i 0 acc 0] (if (< i 1) (recur (inc i) (* -5 acc)) acc))",
    "(loop [i 0 acc 1] (if (< i 70) (recur (inc i) (* acc 3)) acc))",
    "(loop [i 0 j 0] (if (< i 3) (recur (inc i) (if (= i 1) 1.5 j)) j))",
    "(loop [i 0 n (count [1 2 3])] (if (< i n) (recur (inc i) (dec n)) [i n]))",
    "(loop [i 0 acc 0] (if (< i 3) (recur (inc i) (loop [j 0 a acc] (if (< j 2) (recur (inc j) (+ a (* i j))) a))) acc))",
    "(loop [[x & more] [1 2 3] total 0] (if x (recur more (+ total x)) total))",
    "(reduce (fn [acc {:keys [a b] :or {b 10}}] (+ acc a b)) 0 [{:a 1} {:a 2 :b 3}])",
    "(->> [1 2 3 4 5 6] (filter even?) (map #(* % %)) (reduce +))",
    "(for [x [1 2 3] y [:a :b] :let [z [x y]] :when (odd? x) :while (< x 3)] z)",
    "(let [m {:a {:b [1 2 {:c 3}]}}] [(get-in m [:a :b 2 :c]) (update-in m [:a :b 0] inc)])",
    "(case (+ 1 1) 1 :one (2 3) :few :many)",
    "(let [f (fn [x] (fn [y] (+ x y)))] ((f 1) 2))",
    '(mapv (fn [[k v]] (str (name k) "=" v)) {:b 2 :a 1})',
    "(group-by :k [{:k 1 :v 1} {:k 2 :v 2} {:k 1 :v 3}])",
    '(into {} (map (juxt :id :name) [{:id 1 :name "a"} {:id 2 :name "b"}]))',
    "(* 99999999999 99999999999)",
    "[(+ 0.5 0.5) (- 3 1.5) (* 2 2.0) (/ 1 3) (+ 1 2)]",
    // Arithmetic on values of unknown kind checks for small integers first (codegen-numbers.ts):
    // floats with whole results, results past 32 bits and past 2^53, and -0 take the full test.
    "(mapv (fn [x] [(+ x 1) (- x 0.5) (* x 3) (+ x x) (- 1 x) (* x 0) (< x 2) (* x x)]) [0 1 -1 2.5 0.5 1.5 2147483647 -2147483648 4294967296 4503599627370496 9007199254740991 -0.0 2.0])",
    "(let [x 1] (let [y (+ x 1)] (let [x (* y 10)] [x y])))",
    "((fn fact [n] (if (< n 2) 1 (* n (fact (dec n))))) 20)",
    // = against literals, and missing fields of plain objects, take shortcuts in generated code.
    '(mapv (fn [x] [(= x "a") (= :a x) (= x nil) (= x true) (= x 1) (= 0 x)]) ["a" :a nil false true 1 1.0 0 -0.0 2.5 "1"])',
    "(mapv (fn [r] [(:zz r) (:a r) (:user_id r) (:user-id r)]) data/rows)",
    "(mapv (fn [{:keys [zz a user-id] :or {zz 5}}] [zz a user-id]) data/rows)",
    // A pure branch that jumps to an impure loop is not a unit of its own (purity.ts, recursOutward).
    '(loop [x 3] (println "x is" x) (if (> x 1) (recur (dec x)) :done))',
    "(defn g [& {:keys [a] :or {a 9}}] a) [(g) (g :a 1)]",
    "(sort-by :n > [{:n 1} {:n 3} {:n 2}])",
    '(let [{:strs [id]} {"id" 7}] id)',
    "(first {:a 1})",
    "(+ 1 nil)",
    '(let [x 1]\n  (loop [i 0] (if (< i 5) (recur (inc i)) (inc "x"))))',
    "(defn f [x] (+ 1 (f x))) (f 1)",
    "(loop [i 0] (recur (inc i)))",
    "((fn [x y] x) 1)",
    "(let [{:keys [a]} 42] a)",
    '(map (fn [x] (println "saw" x) (* 2 x)) [1 2 3])',
    "(map (fn [x] (:v (tool/echo {:v x}))) [1 2 3])",
    "(let [helper (fn [x] (tool/later {:x x}))] (mapv (fn [y] (:x (helper y))) [1 2]))",
    "(defn slow [x] (:x (tool/later {:x x}))) (defn fast [x] (+ 1 (slow x))) (reduce + (map fast [1 2 3]))",
    "(return (+ 1 2)) :never",
    "(reduce (fn [acc x] (if (> acc 3) (fail {:at x}) (+ acc x))) 0 [1 2 3 4])",
    "(or undefined-thing 5)",
    "(def counter 0) (defn bump [] (def counter (inc counter)) counter) [(bump) (bump)]",
  ];
  const rows = [{ a: 1, user_id: 7 }, { zz: null, a: "x" }, { a: 2 }];
  test.each(programs)("%s", async (source) => {
    await bothEngines(source, { tools, context: { rows } });
  });
});

describe("falling back from fast code", () => {
  test("an effect reached from fast code happens once", async () => {
    const result = await run(
      "(defn show [x] (println x) x) (reduce + (map (fn [y] (* 2 (show y))) [1 2 3]))",
    );
    expect(result.ok && result.value).toBe(12);
    expect(result.prints).toEqual(["1", "2", "3"]);
  });

  test("a tool reached through a function defined earlier in the session runs once per call", async () => {
    const seen: unknown[] = [];
    const result = await run(
      "(defn get-x [n] (:x (tool/t {:x n}))) (mapv (fn [n] (inc (get-x n))) [1 2 3])",
      {
        tools: {
          t: (args) => {
            seen.push(args.x);
            return args;
          },
        },
      },
    );
    expect(result.ok && format(result.value)).toBe("[2 3 4]");
    expect(seen).toEqual([1, 2, 3]);
  });

  test("errors raised in fast code carry their exact position", async () => {
    const result = await run('(reduce (fn [acc x]\n  (+ acc (:n x)))\n 0 [{:n 1} {:n "two"}])');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ reason: "type_error", line: 2, column: 3 });
  });
});

/** The generated JavaScript of a whole program (one unit). */
const generate = generatedSource;

describe("generated source", () => {
  test("contains no text from the program", () => {
    const source = `(let [evil "\\"); process.exit(1); (\\"" key :constructor name "__proto__"]
      (fn [payload] [evil (:constructor payload) (get payload name) (str key "'); globalThis.x = 1;//")]))`;
    const analyzed = analyzeProgram(read(source), {
      isBuiltin: (name) => registry.has(name),
      userNames: new Set(),
      toolNames: new Set(),
      checkRegex: (pattern) => Regex.problem(pattern),
    });
    const generated = generateUnitSource(analyzed.body, (name) => registry.get(name));
    for (const fragment of [
      "process",
      "exit",
      "globalThis",
      "constructor",
      "__proto__",
      "evil",
      "payload",
      "'",
    ]) {
      expect(generated).not.toContain(fragment);
    }
    // Only our own identifiers appear: $, K, prefixed temporaries and JS keywords.
    expect(generated).toMatch(/\$\.vec\(/);
  });

  test("a literal callback of map, filter, remove, some, every? or reduce is inlined into one loop", async () => {
    for (const source of [
      "(let [xs [1 2 3]] (map (fn [x] (* x x)) xs))",
      "(let [xs [1 2 3]] (filter #(odd? %) xs))",
      "(let [xs [1 2 3]] (remove (fn [[a b]] (= a b)) xs))",
      "(let [xs [{:a 1}]] (reduce (fn [acc {:keys [a]}] (+ acc a)) 0 xs))",
      "(let [xs [{:a 1} 2 nil [3]]] (map :a xs))",
      "(let [xs [{:a 1} {:a false} {:b 2}]] (filter :a xs))",
      "(let [xs [{:a 1 :b 2} 3 nil]] (map (juxt :a :b) xs))",
      "(let [xs [{:a 1} {:a 2 :id 7} {:a 2 :id 8}]] (some #(when (= (:a %) 2) (:id %)) xs))",
      "(let [xs [1 3 5]] [(some even? xs) (some (fn [x] (when (> x 2) (* x 10))) xs)])",
      "(let [xs [{:a false} {:a nil}]] (some :a xs))",
      "(let [xs [1 3 4 5]] [(every? #(odd? %) xs) (every? (fn [x] (< x 9)) xs) (every? :a [])])",
      "(let [xs [1 2 3]] (some (fn [x] (loop [i 0] (if (< i x) (recur (inc i)) (when (= i 2) i)))) xs))",
    ]) {
      const generated = generate(source);
      expect(generated, source).toMatch(/for \(let i\d+ = 0;/);
      expect(generated, source).not.toContain("$.fn(");
      await bothEngines(source);
    }
    // A named fn (it may call itself) or one that recurs stays a function.
    expect(generate("(let [xs [1]] (map (fn f [x] x) xs))")).toContain("$.fn(");
    expect(generate("(let [xs [1]] (map (fn [x] (if (> x 5) x (recur (inc x)))) xs))")).toContain("$.fn(");
  });

  test("take and first over stages become one loop that stops early", async () => {
    for (const source of [
      "(let [xs [1 2 3]] (take 2 (map (fn [x] (* x x)) (filter odd? xs))))",
      "(let [xs [{:a 1}]] (first (keep :a xs)))",
      "(let [xs [1 2 3]] (->> (interleave (map inc xs) (map dec xs)) (partition 2) (map (fn [[a b]] (+ a b))) (take 5)))",
      "(let [xs [1 2 3 4]] (take 2 (map-indexed vector (partition 3 1 xs))))",
      "(let [xs [[1 2] [1 2] [2 1] 1 1.0]] (take 5 (distinct (map identity xs))))",
      "(let [xs [{:a 1 :b 2} {:a 1 :b 2} {:a 2}]] (take 5 (distinct (map (juxt :a :b) xs))))",
      "(let [xs [{:a 1 :b 2} {:a 2}]] (take 5 (map-indexed (juxt :a :b) xs)))",
    ]) {
      const generated = generate(source);
      expect(generated, source).toContain("$.lazySource(");
      expect(generated, source).toMatch(/break P\d+;/);
      await bothEngines(source);
    }
    // A pipeline that stops early reads its source as it is (no scan of the whole input for
    // undefined items); one consumed whole checks it once and reads items as they are.
    expect(generate("(let [xs [1 2]] (count (map inc xs)))")).toContain("$.stageSource(");
    expect(generate("(let [xs [1 2]] (count (take 1 (map inc xs))))")).toContain("$.lazySource(");
    // Shapes the loop does not cover keep the lazy builtin (a padded partition, a map over two).
    expect(generate("(let [xs [1 2]] (take 2 (partition 3 3 [0] xs)))")).not.toContain("$.lazySource(");
    expect(generate("(let [xs [1 2]] (take 2 (map + xs xs)))")).not.toContain("$.lazySource(");
  });

  test("a map literal with distinct keyword keys is built from its pairs directly", async () => {
    const source = "(let [x 1] {:a x :b (get {} :missing) :c [x]})";
    expect(generate(source)).toContain("$.keywordMap(");
    expect(await bothEngines(source)).toMatchObject({ value: "{:a 1 :b nil :c [1]}" });
    // Repeated or computed keys take the general path (the first of equal keys wins).
    await bothEngines('(let [k :a] {k 1 :a 2 "a" 3})');
  });

  test("inlined callbacks agree with the builtins, on any collection and on errors", async () => {
    for (const source of [
      "(map (fn [[k v]] [v k]) {:a 1 :b 2})",
      '(filter (fn [c] (not= c "b")) "abc")',
      "(reduce (fn [m x] (assoc m x (inc (get m x 0)))) {} [1 2 1])",
      "(map (fn [x] (inc x)) 5)",
      '(map (fn [x] (inc x)) [1 "a"])',
      "(reduce (fn [acc x] (if (> acc 3) (return acc) (+ acc x))) 0 [1 2 3 4 5])",
      "(let [k 2] (mapv (fn [x] (* k x)) #{1 2 3}))",
      '(some (fn [c] (when (= c "b") c)) "abc")',
      "(some (fn [[k v]] (when (= v 2) k)) {:a 1 :b 2})",
      "(some (fn [x] (inc x)) 5)",
      '(every? (fn [x] (> x 0)) [1 "a"])',
      "(some (fn [x] (when (> x 1) (return :early))) [1 2 3])",
    ]) {
      await bothEngines(source);
    }
  });

  test("generated programs over random arithmetic agree with the general evaluator", async () => {
    const expression = fc.letrec<{ leaf: string; node: string }>((tie) => ({
      leaf: fc.oneof(
        fc.integer({ min: -20, max: 20 }).map(String),
        fc.constantFrom("x", "y", "1.5", "0.5", "nil"),
      ),
      node: fc.oneof(
        { depthSize: "small" },
        tie("leaf"),
        fc
          .tuple(fc.constantFrom("+", "-", "*", "<", ">", "=", "max"), tie("node"), tie("node"))
          .map(([op, a, b]) => `(${op} ${a} ${b})`),
        fc.tuple(tie("node"), tie("node"), tie("node")).map(([c, a, b]) => `(if ${c} ${a} ${b})`),
        fc.tuple(tie("node"), tie("node")).map(([a, b]) => `(let [x ${a}] ${b})`),
        tie("node").map((a) => `[${a} (inc 1)]`),
      ),
    })).node;
    await fc.assert(
      fc.asyncProperty(expression, async (body) => {
        await bothEngines(`(let [x 3 y 4.0] ${body})`);
      }),
      { numRuns: 150 },
    );
  });
});

describe("partition with literal counts in a fused pipeline", () => {
  test("keeps its window in variables and makes each chunk as a literal of nulls, then filled", async () => {
    for (const source of [
      "(let [xs (range 20)] (take 4 (partition 3 1 xs)))",
      "(let [xs (range 20)] (take 4 (partition 2 5 xs)))",
      "(let [xs (range 20)] (vec (partition 4 xs)))",
    ]) {
      const generated = generatedSource(source);
      // Not [s0, s1]: a literal of numbers would be an array of unboxed doubles, one more kind of
      // array for the code that reads chunks.
      expect(generated, source).toMatch(/const (chunk\d+) = \[null, null[^\]]*\];\s*\1\[0\] = s\d+;/);
      expect(generated, source).not.toContain("new Array(");
      await bothEngines(source);
    }
    // A count that is not a literal keeps the window buffer.
    expect(generatedSource("(let [n 3 xs (range 20)] (take 4 (partition n 1 xs)))")).toContain("new Array(");
  });
});

describe("the iteration limit in generated loops", () => {
  test("a step is one counter against the next check, and the limit holds to the step", async () => {
    // A leaf loop (leaf-loops.ts) counts in a local; a loop that calls a fn counts in the context.
    const leafLoop = (n: number) => `(loop [i 0] (if (< i ${n}) (recur (inc i)) i))`;
    const callingLoop = (n: number) =>
      `(let [f (fn [x] (inc x))] (loop [i 0] (if (< i ${n}) (recur (f i)) i)))`;
    expect(generatedSource(leafLoop(10))).toMatch(
      /if \(\+\+steps\d+ > steps\d+At\) \{ ctx\d*\.iterations = steps\d+; \$\.loopCheck\(/,
    );
    expect(generatedSource(callingLoop(10))).toMatch(
      /\+\+ctx\d*\.iterations > ctx\d*\.loopCheckAt\) \$\.loopCheck\(/,
    );
    for (const loop of [leafLoop, callingLoop]) {
      for (const maxIterations of [1, 5, 2047, 2048, 2049, 5000]) {
        for (const engine of ["fast", "general"] as const) {
          const fits = await run(loop(maxIterations), { engine, limits: { maxIterations } });
          expect(fits.ok && fits.value, `${engine} ${maxIterations}`).toBe(maxIterations);
          const over = await run(loop(maxIterations + 1), { engine, limits: { maxIterations } });
          expect(!over.ok && over.error.reason, `${engine} ${maxIterations}`).toBe("loop_limit_exceeded");
        }
      }
    }
  });

  test("iterations add up across loops, fns and the general evaluator", async () => {
    // Leaf loops in a fn and at the top level, and a loop that calls the fn (each call a step of
    // its own loop and one of the caller's): 1,500 + 1,000 + 500 + 1,000 * 2 = 5,000 steps.
    const source =
      "(defn spin [n] (loop [i 0] (if (< i n) (recur (inc i)) i))) (+ (spin 1500) (spin 1000) (loop [j 0] (if (< j 500) (recur (inc j)) j)) (loop [k 0] (if (< k 1000) (recur (+ k (spin 1))) k)))";
    for (const engine of ["fast", "general", "adaptive"] as const) {
      expect((await run(source, { engine, limits: { maxIterations: 5000 } })).ok, engine).toBe(true);
      const over = await run(source, { engine, limits: { maxIterations: 4999 } });
      expect(!over.ok && over.error.reason, engine).toBe("loop_limit_exceeded");
    }
  });

  test("a generated loop with no iteration limit still reads the clock", async () => {
    const result = await run("(loop [i 0] (recur (inc i)))", {
      engine: "fast",
      limits: { maxIterations: Number.POSITIVE_INFINITY, timeoutMs: 50 },
    });
    expect(!result.ok && result.error.reason).toBe("timeout");
  });
});

describe("missing fields and undefined items in generated loops", () => {
  const rows = [{ x: 1, y: 1 }, { x: 2 }, { y: 3 }, {}, { x: null, y: null }, { x: 5, y: 4 }];
  // A host array with a hole and an undefined item: both read as nil.
  // biome-ignore lint/suspicious/noSparseArray: the hole is the point
  const xs = [1, , 3, undefined, 5];

  test.each([
    "(count (filter #(= (:x %) nil) data/rows))",
    "(count (filter #(= nil (:y %)) data/rows))",
    "(count (filter #(= (:x %) (:y %)) data/rows))",
    "(count (filter #(not= (:x %) (:y %)) data/rows))",
    "(count (filter #(= (:x %) 2) data/rows))",
    '(count (filter #(= (:x %) "2") data/rows))',
    "(count (filter #(> (:x %) 1) data/rows))",
    "(count (filter #(< (:x %) (:y %)) (filter :y (filter :x data/rows))))",
    "(mapv (fn [r] (= (:x r) (:y r))) data/rows)",
    "(count (filter nil? data/xs))",
    "(mapv identity data/xs)",
    "(reduce (fn [acc x] (if x (+ acc x) acc)) 0 data/xs)",
    "(reduce + (filter some? data/xs))",
    "(count (take 3 (map nil? data/xs)))",
  ])("%s agrees with the general evaluator", async (source) => {
    await bothEngines(source, { context: { rows, xs } });
  });

  test("a comparison reads the field without normalizing it on its fast path", () => {
    const generated = generatedSource("(count (filter #(> (:x %) 1) data/rows))");
    expect(generated).not.toMatch(/= \w+\[K\[\d+\]\]; if \(\w+ === undefined\)/);
    expect(generated).toMatch(/\$\.gt\(\w+ === undefined \? null : \w+, 1\)/);
  });
});

describe("the shape of a generated function's body", () => {
  const fib = "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))";
  /** The generated source of a defn's fn form (the def itself runs on the general evaluator). */
  const defnSource = (source: string): string => {
    const node = analyzedBody(source);
    if (node.kind !== "def") throw new Error(`not a def: ${source}`);
    return generateUnitSource(node.value, (name) => registry.get(name));
  };
  const bodyOf = (source: string): string => {
    const generated = defnSource(source);
    const start = generated.indexOf("_body = function");
    return generated.slice(start, generated.indexOf("\n};", start));
  };

  test("a body no recur jumps back into is a labeled block; one that recurs is a loop", async () => {
    expect(bodyOf(fib)).not.toContain("while (true)");
    expect(bodyOf(fib)).toMatch(/\nL\d+: \{\n/);
    const counting = "(defn down [n acc] (if (> n 0) (recur (dec n) (+ acc n)) acc))";
    expect(bodyOf(counting)).toMatch(/\nL\d+: while \(true\) \{\n/);
    for (const source of [`${fib} (fib 12)`, `${counting} (down 100 0)`]) {
      await bothEngines(source);
    }
  });

  test("a call through a var reads the var in a helper outside the body", async () => {
    const body = bodyOf(fib);
    // The body calls itself once the flag is set, the helper before that: no read of the var.
    expect(body).not.toContain("$.readVar");
    expect(body).toMatch(/self\d+ \? fn\d+_body\(ctx\d+, t\d+\) : via\d+\(ctx\d+, t\d+\)/);
    expect(defnSource(fib)).toMatch(/const via\d+ = function \(ctx\d+, p\d+\) \{\n[\s\S]*\$\.readVar\(K\[/);
    // The var holding something else than the function: the helper calls that instead.
    await bothEngines(`${fib} (def g fib) (defn fib [n] [:new n]) [(g 5) (fib 5)]`);
    await bothEngines(
      "(defn f [x] (if (> x 3) x (f (inc x)))) (def k :a) (defn h [m] (k m)) [(f 0) (h {:a 1})]",
    );
    await bothEngines("(defn f [x] (if (< x 1) 0 (g (dec x)))) (f 3)");
  });

  test("depth and fuel are one test on entry, and both limits still hold", async () => {
    expect(bodyOf(fib)).toMatch(
      /if \(\+\+ctx\d+\.depth > ctx\d+\.limits\.maxDepth \|\| --ctx\d+\.fuel <= 0\) \$\.gate\(ctx\d+, K\[\d+\]\);/,
    );
    // Past the depth limit: the same error, at the same place, on both engines.
    const down = "(defn down [n] (if (= n 0) 0 (+ 1 (down (dec n)))))";
    for (const maxDepth of [50, 300]) {
      const fits = await bothEngines(`${down} (down ${maxDepth - 2})`, { limits: { maxDepth } });
      expect(fits).toMatchObject({ value: String(maxDepth - 2) });
      const over = await bothEngines(`${down} (down ${maxDepth + 5})`, { limits: { maxDepth } });
      expect(over).toMatchObject({ error: { reason: "recursion_limit_exceeded" } });
    }
    // Fuel running out reads the clock: a long recursion in generated code stops on time.
    const result = await withTickingClock(() =>
      run(`${fib} (fib 40)`, { engine: "fast", limits: { timeoutMs: 20 } }),
    );
    expect(result.ok ? "finished" : result.error.reason).toBe("timeout");
  });
});
