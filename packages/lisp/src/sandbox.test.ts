/**
 * Hostile programs: each must fail cleanly with the right reason, leave the host untouched, and
 * leave the process able to run the next program.
 */
import { afterEach, describe, expect, test } from "vitest";
import { format, run, toJson } from "./index.js";
import { failure } from "./test-support.js";

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

  test("a tool that never answers is cut off by the timeout", async () => {
    const error = await failure("(tool/hang {})", {
      tools: { hang: () => new Promise(() => undefined) },
      limits: { timeoutMs: 50 },
    });
    expect(error.reason).toBe("timeout");
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
    ["range", "(count (range 100000000))"],
  ])("%s stops at the timeout", async (_name, source) => {
    const error = await failure(source, { context: { xs: huge }, limits: { ...generous, timeoutMs: 20 } });
    expect(error.reason).toBe("timeout");
  });

  test("the same sorts finish and are right with time to spare", async () => {
    const sorted = [...huge].sort((a, b) => a - b);
    const result = await run(
      "[(= (sort data/xs) data/sorted) (= (sort-by - data/xs) (reverse data/sorted))]",
      {
        context: { xs: huge, sorted },
        limits: { ...generous, timeoutMs: 60_000 },
      },
    );
    expect(result.ok && format(result.value)).toBe("[true true]");
  });
});
