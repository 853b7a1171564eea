/**
 * Hostile programs: each must fail cleanly with the right reason, leave the host untouched, and
 * leave the process able to run the next program.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createSession, equals, format, preview, run, toJson } from "./index.js";
import { evaluate, failure } from "./test-support.js";

afterEach(async () => {
  // The process stays healthy: a plain program still runs after every hostile one.
  const result = await run("(+ 1 2)");
  expect(result.ok && result.value).toBe(3);
  expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("polluted");
});

describe("runaway computation", () => {
  test("an infinite loop stops at the iteration limit", async () => {
    expect((await failure("(loop [i 0] (recur (inc i)))")).reason).toBe("loop_limit_exceeded");
  });

  test("with the iteration limit lifted, an infinite loop stops at the wall-clock timeout", async () => {
    const error = await failure("(loop [i 0] (recur (inc i)))", {
      limits: { maxIterations: Number.POSITIVE_INFINITY, timeoutMs: 50 },
    });
    expect(error.reason).toBe("timeout");
    expect(error.message).toContain("50ms");
  });

  test("unbounded recursion stops at the depth limit, never with a JS stack overflow", async () => {
    const error = await failure("(defn f [x] (+ 1 (f x))) (f 1)");
    expect(error.reason).toBe("recursion_limit_exceeded");
    expect(error.message).toContain("loop/recur");
    const tail = await failure("(defn g [x] (g x)) (g 1)");
    expect(tail.reason).toBe("recursion_limit_exceeded");
  });

  test("recursion within the depth limit works", async () => {
    const result = await run("(defn down [n] (if (= n 0) 0 (+ 1 (down (- n 1))))) (down 900)");
    expect(result.ok && result.value).toBe(900);
  });

  test("a raised depth limit is still safe: the host stack overflow becomes a clean error", async () => {
    const error = await failure("(defn f [x] (+ 1 (f x))) (f 1)", {
      limits: { maxDepth: 10_000_000, timeoutMs: 5000 },
    });
    expect(error.reason).toBe("recursion_limit_exceeded");
  });

  test("a huge range fails on memory before allocating anything", async () => {
    expect((await failure("(count (range 1e9))")).reason).toBe("memory_exceeded");
  });

  test("a string doubled without end fails on memory", async () => {
    const error = await failure('(loop [s "ab"] (recur (str s s)))');
    expect(error.reason).toBe("memory_exceeded");
  });

  test("a reader bomb is a parse error", async () => {
    const error = await failure(`${"[".repeat(1_000_000)}`);
    expect(error.reason).toBe("parse_error");
    expect(error.message).toContain("nesting depth");
  });

  test("an oversized program is rejected before parsing", async () => {
    const error = await failure(`"${"x".repeat(2_000_000)}"`);
    expect(error.reason).toBe("program_too_large");
  });

  test("too many distinct symbols", async () => {
    const source = `[${Array.from({ length: 200 }, (_, i) => `:k${i}`).join(" ")}]`;
    expect((await failure(source, { limits: { maxSymbols: 100 } })).reason).toBe("symbol_limit_exceeded");
  });

  test("the symbol limit counts distinct names, not occurrences, at and around the limit", async () => {
    // More occurrences than the limit, few names: the count by sets decides, and lets it run.
    const repeated = `(count [${Array.from({ length: 300 }, (_, i) => `:k${i % 3}`).join(" ")}])`;
    expect(await evaluate(repeated, { limits: { maxSymbols: 100 } })).toBe("300");
    // Exactly as many names as the limit (occurrences too, so no set is needed), then one more.
    const names = (n: number) => `(count [${Array.from({ length: n }, (_, i) => `:k${i}`).join(" ")}])`;
    expect(await evaluate(names(100), { limits: { maxSymbols: 100 } })).toBe("100");
    expect((await failure(names(101), { limits: { maxSymbols: 100 } })).reason).toBe("symbol_limit_exceeded");
  });

  test("names in a discarded #_ form do not count toward the symbol limit", async () => {
    const discarded = `#_ [${Array.from({ length: 150 }, (_, i) => `:k${i}`).join(" ")}] (count [:a :b])`;
    expect(await evaluate(discarded, { limits: { maxSymbols: 100 } })).toBe("2");
  });

  test("a tool that never answers is cut off by the timeout", async () => {
    const error = await failure("(tool/hang {})", {
      tools: { hang: () => new Promise(() => undefined) },
      limits: { timeoutMs: 50 },
    });
    expect(error.reason).toBe("timeout");
  });
});

describe.each(["general", "fast", "adaptive"] as const)(
  "a tool that holds the thread past the deadline (%s engine)",
  (engine) => {
    // The tool works synchronously until the run's deadline has certainly passed: no timer can
    // fire meanwhile, so only a clock check after the call can stop the program.
    const TIMEOUT_MS = 20;
    const holdPastDeadline = () => {
      const until = performance.now() + TIMEOUT_MS * 3;
      while (performance.now() < until) {
        // busy, as a tool doing CPU work would be
      }
      return 1;
    };

    async function afterSlowTool(slow: () => unknown) {
      const calls: string[] = [];
      const result = await run('(tool/slow {}) (tool/next {}) (println "went on")', {
        engine,
        tools: { slow, next: () => calls.push("next") },
        limits: { timeoutMs: TIMEOUT_MS },
      });
      return { result, calls };
    }

    test("a synchronous tool: the program stops when the tool returns", async () => {
      const { result, calls } = await afterSlowTool(holdPastDeadline);
      expect(result.ok ? "finished" : result.error.reason).toBe("timeout");
      expect(calls).toEqual([]);
      expect(result.prints).toEqual([]);
      // The call itself happened and is in the log.
      expect(result.toolCalls.map((call) => call.name)).toEqual(["slow"]);
    });

    test("an async tool that answers at once after holding the thread: the program stops too", async () => {
      // Its promise is settled before the deadline timer can fire, so it would win the race.
      const { result, calls } = await afterSlowTool(async () => holdPastDeadline());
      expect(result.ok ? "finished" : result.error.reason).toBe("timeout");
      expect(calls).toEqual([]);
    });
  },
);

describe("a run that has ended stays ended", () => {
  test("a pmap branch whose tool answers after the run ended does not wake up", async () => {
    let answer: (value: unknown) => void = () => undefined;
    // 2^28 leaves: comparing them takes the better part of a minute, so a regression fails the
    // test by its timeout instead of hanging the suite.
    const doubled = "(reduce (fn [m _] {:a m :b m}) {} (range 28))";
    // Branch 0 fails the run; branch 1 is still waiting on its tool.
    const error = await failure(
      `(let [m ${doubled} n ${doubled}]
         (pmap (fn [i] (if (= i 0) (do (tool/soon {}) (fail "stop")) (do (tool/late {}) (= m n)))) [0 1]))`,
      {
        tools: {
          late: () => new Promise((resolve) => (answer = resolve)),
          soon: () => new Promise((resolve) => setTimeout(resolve, 5)),
        },
      },
    );
    expect(error.reason).toBe("fail");
    // Were the rest of branch 1 to run now, the comparison would hold the thread.
    answer(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await run("(+ 1 2)")).ok).toBe(true);
  });
});

describe("prototype keys are plain data", () => {
  const context = JSON.parse('{"record": {"__proto__": {"polluted": 1}, "constructor": "c", "name": "n"}}');

  test("reading __proto__ and constructor keys from host data", async () => {
    const result = await run(
      '[(get data/record "__proto__") (:constructor data/record) (:toString data/record) (keys data/record)]',
      { context },
    );
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(format(result.value)).toBe('[{"polluted" 1} "c" nil ["__proto__" "constructor" "name"]]');
  });

  test("writing them builds data, never touches a prototype", async () => {
    const result = await run('(assoc {} "__proto__" {:polluted 1} "constructor" 2)');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(format(result.value)).toBe('{"__proto__" {:polluted 1} "constructor" 2}');
    const json = toJson(result.value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
    expect(Object.keys(json)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("tool arguments with such keys arrive as own properties", async () => {
    let received: Record<string, unknown> = {};
    await run('(tool/save {"__proto__" {"polluted" 1}})', {
      tools: {
        save: (args) => {
          received = args;
          return true;
        },
      },
    });
    expect(Object.keys(received)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
  });

  test("host data is never written", async () => {
    const frozen = Object.freeze({ rows: Object.freeze([Object.freeze({ a: 1 })]) });
    const result = await run("(assoc-in data/rows [0 :a] 2)", { context: frozen });
    expect(result.ok).toBe(true);
    expect(frozen.rows[0]?.a).toBe(1);
  });
});

describe("no way out to the host", () => {
  test.each([
    ["js/alert", "invalid_form"],
    ['(js/eval "1")', "invalid_form"],
    ["globalThis", "unbound_var"],
    ['(eval "(+ 1 2)")', "unbound_var"],
    ["(process)", "unbound_var"],
    ["(require 'fs)", "unbound_var"],
    ['(. "x" constructor)', "invalid_form"],
    ['(.constructor "x")', "unsupported_method"],
    ["(.call (fn [] 1) nil)", "unsupported_method"],
    ["(aget [1 2] 0)", "unbound_var"],
  ])("%s fails with %s", async (source, reason) => {
    expect((await failure(source)).reason).toBe(reason);
  });

  test("a JS function hidden in host data cannot be called", async () => {
    let called = false;
    const context = {
      box: {
        fn: () => {
          called = true;
        },
      },
    };
    expect((await failure("((:fn data/box))", { context })).reason).toBe("not_callable");
    expect((await failure("(map (:fn data/box) [1 2])", { context })).reason).toBe("type_error");
    expect(called).toBe(false);
  });

  test("keyword lookups see only own data, never prototype properties", async () => {
    const result = await run('[(:length "abc") (:constructor {}) (get [1 2] "length") (:map [1 2])]');
    expect(result.ok && format(result.value)).toBe("[nil nil nil nil]");
  });

  test("error messages carry no host internals", async () => {
    for (const source of ["(+ 1 {:a 1})", "(first {:a 1})", "((fn [x] x))", "(data/x)", '(inc "a")']) {
      const error = await failure(source);
      expect(error.message).not.toMatch(/\[object |is not a function|at .*\.(ts|js):\d+|undefined/);
    }
  });
});

describe("the deadline holds inside long builtins", () => {
  const huge = Array.from({ length: 2_000_000 }, (_, i) => (i * 7919) % 1_000_003);
  const generous = { maxMemoryBytes: 4_000_000_000, maxIterations: Number.POSITIVE_INFINITY };

  test.each([
    ["sort", "(count (sort data/xs))"],
    ["sort with a comparator", "(count (sort > data/xs))"],
    ["sort-by", "(count (sort-by - data/xs))"],
    ["range", "(count (range 60000000))"],
  ])("%s stops at the timeout", async (_name, source) => {
    const error = await failure(source, { context: { xs: huge }, limits: { ...generous, timeoutMs: 20 } });
    expect(error.reason).toBe("timeout");
  });

  // Seconds of sorting on an idle machine, and many more on a loaded one: the clock and the test's
  // own limit are far beyond either, so only a wrong or unfinished sort fails it.
  test("the same sorts finish and are right with time to spare", { timeout: 300_000 }, async () => {
    const sorted = [...huge].sort((a, b) => a - b);
    const result = await run(
      "[(= (sort data/xs) data/sorted) (= (sort-by - data/xs) (reverse data/sorted))]",
      {
        context: { xs: huge, sorted },
        limits: { ...generous, timeoutMs: 240_000 },
      },
    );
    expect(result.ok && format(result.value)).toBe("[true true]");
  });
});

describe("builtins that copy or loop stop at the limits (one call, however large)", () => {
  const xs = Array.from({ length: 1_000_000 }, (_, i) => i);
  const context = {
    xs,
    words: xs.map((i) => `w${i % 1000}`),
    text: "abc,".repeat(1_250_000),
    long: "x".repeat(1_000_000),
  };
  // Vectors are flat arrays: conj, rest, pop, assoc... copy them. The copies are charged to a copy
  // allowance (20 times maxMemoryBytes) and to the clock, so a loop that builds or walks a vector
  // one item at a time stops on memory with a generous clock, and on time with unlimited memory.
  test.each([
    ["conj in loop", "(count (loop [acc [] i 0] (if (< i 60000) (recur (conj acc i) (inc i)) acc)))"],
    ["into in reduce", "(count (reduce (fn [acc x] (into acc [x])) [] (range 60000)))"],
    ["cons in reduce", "(count (reduce (fn [acc x] (cons x acc)) [] (range 60000)))"],
    ["assoc on a vector in reduce", "(count (reduce (fn [v x] (assoc v (count v) x)) [] (range 60000)))"],
    ["rest in loop", "(loop [xs data/xs n 0] (if (empty? xs) n (recur (rest xs) (inc n))))"],
    ["pop in loop", "(loop [v data/xs] (if (empty? v) 0 (recur (pop v))))"],
    ["conj onto one vector, kept every time", "(count (mapv #(conj data/xs %) (range 100000)))"],
  ])("%s: memory_exceeded, or timeout without a memory limit", async (_name, source) => {
    const limits = { maxIterations: Number.POSITIVE_INFINITY };
    // A small budget makes a small allowance (80 MB of copies): the default one lets a loop that
    // keeps its copies hold 1.3 GB before it stops, which on a loaded machine takes longer than the
    // test may. The clock is generous so that the allowance, not the time, must stop it.
    const onMemory = await failure(source, {
      context,
      limits: { ...limits, timeoutMs: 60_000, maxMemoryBytes: 4_000_000 },
    });
    expect(onMemory.reason).toBe("memory_exceeded");
    expect(onMemory.message).toContain("copied more than");
    const onTime = await failure(source, {
      context,
      limits: { ...limits, timeoutMs: 100, maxMemoryBytes: Number.POSITIVE_INFINITY },
    });
    expect(onTime.reason).toBe("timeout");
  });

  test("a reduce whose function only conjes onto its accumulator appends in place: linear", async () => {
    for (const engine of ["adaptive", "fast", "general"] as const) {
      // Copying at every step would exhaust the copy allowance (memory_exceeded): that, not the
      // clock, shows the appends are in place, so the clock is generous for a loaded machine.
      const built = await run(
        "(count (reduce (fn [acc x] (if (odd? x) (conj acc (* 2 x)) acc)) [] (range 200000)))",
        { engine, limits: { timeoutMs: 60_000 } },
      );
      expect(built.ok && built.value, engine).toBe(100000);
    }
    // The initial vector is copied, never written; a function that keeps its accumulator
    // somewhere else (here, in the vector it returns) gets ordinary copies.
    const initial = [1];
    const kept = await run("[(reduce (fn [acc x] (conj acc x)) data/init [2 3]) data/init]", {
      context: { init: initial },
    });
    expect(kept.ok && format(kept.value)).toBe("[[1 2 3] [1]]");
    expect(initial).toEqual([1]);
    // A function that hands back another vector than its accumulator: that one is shared.
    const other = await run(
      "(let [v [9]] [(reduce (fn [acc x] (if (= x 2) v (conj acc x))) [] [1 2 3 4]) v])",
    );
    expect(other.ok && format(other.value)).toBe("[[9 3 4] [9]]");
    const escaped = await run("(reduce (fn [acc x] [(conj (first acc) x) (first acc)]) [[]] [1 2])");
    expect(escaped.ok && format(escaped.value)).toBe("[[1 2] [1]]");
  });

  test("(reduce conj [] xs) appends in place: 60,000 items in one call", async () => {
    const result = await run("(count (reduce conj [] (range 60000)))");
    expect(result.ok && result.value).toBe(60000);
    const same = await run("(= (reduce conj [0] (range 1 5)) (conj [0] 1 2 3 4) [0 1 2 3 4])");
    expect(same.ok && same.value).toBe(true);
  });

  test("an accumulator loop over a few thousand rows still fits the default limits", async () => {
    const result = await run("(count (reduce (fn [acc x] (conj acc {:n x})) [] data/rows))", {
      context: { rows: xs.slice(0, 5000) },
    });
    expect(result.ok && result.value).toBe(5000);
  });

  test.each([
    ["str of a million numbers", "(count (str data/xs))"],
    ["pr-str of a million strings", "(count (pr-str data/words))"],
    ["sort", "(count (sort data/words))"],
    ["re-seq", '(count (re-seq #"\\w+" data/text))'],
    ["replace with an empty regex", '(count (replace data/text #"" "xxxxxxxxxx"))'],
    ["split by an empty regex", '(count (split data/text #""))'],
    ["postwalk", "(count (postwalk identity (mapv vector data/xs)))"],
  ])("%s stops at the timeout", async (_name, source) => {
    const error = await failure(source, {
      context,
      limits: { timeoutMs: 50, maxMemoryBytes: Number.POSITIVE_INFINITY },
    });
    expect(error.reason).toBe("timeout");
  });

  test.each([
    ["join of long strings", '(count (join "," (mapv (fn [_] data/long) (range 100000))))'],
    ["replace by a long string", `(count (replace data/text "," "${"x".repeat(25)}"))`],
    ["interleave", "(count (interleave data/xs data/xs))"],
    ["flatten", "(count (flatten (mapv vector data/xs data/xs)))"],
  ])("%s stops on memory before building the result", async (_name, source) => {
    const error = await failure(source, { context, limits: { maxMemoryBytes: 10_000_000 } });
    expect(error.reason).toBe("memory_exceeded");
  });

  test("counting and splitting a long non-ASCII text is fast (the segmenter works in pieces)", async () => {
    // Linear, it takes a fraction of a second; the clock is generous so that a loaded machine
    // cannot fail it. A quadratic segmenter would still fail it, by the test's own time limit.
    const result = await run('[(count data/t) (count (split data/t "")) (count (split data/t ","))]', {
      context: { t: "é,👍🏽\r\n".repeat(100_000) },
      limits: { maxMemoryBytes: Number.POSITIVE_INFINITY, timeoutMs: 60_000 },
    });
    expect(result.ok && format(result.value)).toBe("[400000 400000 100001]");
  });
});

describe("values with shared structure", () => {
  // 40 maps, 2^40 leaves: cheap to build, enormous to walk.
  const doubled = "(reduce (fn [m _] {:a m :b m}) {} (range 40))";
  const doubledVector = "(reduce (fn [v _] [v v]) [] (range 40))";

  test.each([
    ["=", `(= ${doubled} ${doubled})`],
    ["set", `(count (set [${doubled}]))`],
    ["distinct", `(count (distinct [${doubled} ${doubled}]))`],
    ["frequencies", `(count (frequencies [${doubled}]))`],
    ["group-by", `(count (group-by identity [${doubled}]))`],
    ["a map key", `(count {${doubled} 1})`],
    ["contains?", `(contains? #{1} ${doubled})`],
    ["compare", `(compare ${doubled} ${doubled})`],
    ["sort", `(sort [${doubledVector} (conj ${doubledVector} 1)])`],
    ["str", `(count (str ${doubled}))`],
    ["pr-str", `(count (pr-str ${doubled}))`],
    ["format", `(count (format "%s" ${doubled}))`],
    ["join", `(count (join "," [${doubled}]))`],
    ["flatten", `(count (flatten ${doubledVector}))`],
    ["json/generate-string", `(count (json/generate-string ${doubled}))`],
    ["a tool argument", `(tool/echo {:m ${doubled}})`],
  ])("%s stops at the run's limits", async (_name, source) => {
    const error = await failure(source, { limits: { timeoutMs: 100 }, tools: { echo: (args) => args } });
    expect(error.reason).toMatch(/^(timeout|memory_exceeded)$/);
  });

  test("println keeps its line short and stops walking there", async () => {
    const result = await run(`(println ${doubled})`);
    expect(result.ok).toBe(true);
    expect(result.prints[0]).toHaveLength(2003);
  });

  test("def and a session's *1 keep it, visiting each shared node once", async () => {
    const session = createSession();
    const result = await run(`(def m ${doubled}) m`, { session });
    expect(result.ok).toBe(true);
    const again = await run("(= (:a m) (:b m))", { session });
    expect(again.ok && again.value).toBe(true);
  });

  test("as a result, format, preview and toJson stay bounded after the run", async () => {
    const result = await run(doubled);
    if (!result.ok) throw new Error(result.error.message);
    const text = format(result.value, { maxChars: 10_000 });
    expect(text).toHaveLength(10_000 + "... (cut at 10000 characters)".length);
    expect(text.endsWith("... (cut at 10000 characters)")).toBe(true);
    expect(format(result.value)).toMatch(/\(cut at 10000000 characters\)$/);
    expect(preview(result.value).text.length).toBeLessThan(100_100);
    expect(() => toJson(result.value)).toThrow(
      expect.objectContaining({ reason: "memory_exceeded", code: "PTC_LISP_MEMORY_EXCEEDED" }),
    );
  });

  test("equals from the host has a walk budget of its own", async () => {
    const one = await run(doubled);
    const two = await run(doubled);
    if (!one.ok || !two.ok) throw new Error("setup failed");
    expect(() => equals(one.value, two.value)).toThrow(
      expect.objectContaining({ reason: "memory_exceeded" }),
    );
    expect(equals(one.value, one.value)).toBe(true);
  });
});

describe("values nested 100,000 deep", () => {
  const deep = "(reduce (fn [v _] [v]) [] (range 100000))";

  test("format, preview and toJson walk them without a stack overflow", async () => {
    const result = await run(deep);
    if (!result.ok) throw new Error(result.error.message);
    const text = format(result.value);
    expect(text).toBe(`${"[".repeat(100_001)}${"]".repeat(100_001)}`);
    expect(preview(result.value).text.startsWith("[[[")).toBe(true);
    let json = toJson(result.value);
    let depth = 0;
    while (Array.isArray(json) && json.length === 1) {
      json = json[0] as typeof json;
      depth++;
    }
    expect(depth).toBe(100_000);
  });

  test("str of them is text, and = and hashing fail cleanly", async () => {
    // A generous clock: on a loaded machine the default second can end these before the depth does.
    const limits = { timeoutMs: 60_000 };
    const str = await run(`(count (str ${deep}))`, { limits });
    expect(str.ok && str.value).toBe(200_002);
    expect((await failure(`(= ${deep} ${deep})`, { limits })).reason).toBe("recursion_limit_exceeded");
    expect((await failure(`(count (set [${deep}]))`, { limits })).reason).toBe("recursion_limit_exceeded");
  });

  test("a session remembers one as *1", async () => {
    const session = createSession();
    const result = await run(deep, { session });
    expect(result.ok).toBe(true);
    expect((await run("(count *1)", { session })).ok).toBe(true);
  });
});
