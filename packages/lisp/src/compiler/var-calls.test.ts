/**
 * Calls through a var on the general evaluator (calls.ts, compileVarCall): `(f x)` and `(f x y)`
 * with `f` a defn read the var inline. They must behave as any call: arguments that wait on a tool
 * evaluated in order, a var that holds a keyword, map or builtin called as such, an unbound var
 * an error at its position, and deep recursion through the var still cut off.
 */
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";

function outcome(result: RunResult): unknown {
  return result.ok ? { value: format(result.value) } : { error: result.error.reason };
}

describe("calls through a var on the general evaluator", () => {
  test("one and two arguments, values of every callable kind", async () => {
    const result = await run(
      `(defn one [x] (* x 10))
       (defn two [x y] (- x y))
       (def k :a)
       (def m {:b 2})
       (def plus +)
       [(one 4) (two 9 3) (k {:a 1}) (m :b) (plus 2 3) (k {:z 1} :none)]`,
      { engine: "general" },
    );
    expect(outcome(result)).toEqual({ value: "[40 6 1 2 5 :none]" });
  });

  test("arguments that wait on tools run once each, left to right", async () => {
    const seen: unknown[] = [];
    const echo = (args: Record<string, unknown>) => {
      seen.push(args.v);
      return Promise.resolve(args.v);
    };
    const result = await run(
      `(defn two [x y] [x y])
       (defn one [x] (inc x))
       [(two (tool/echo {:v 1}) (tool/echo {:v 2})) (two 0 (tool/echo {:v 3})) (one (tool/echo {:v 4}))]`,
      { engine: "general", tools: { echo } },
    );
    expect(outcome(result)).toEqual({ value: "[[1 2] [0 3] 5]" });
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  test("a recursive defn gives the answers of the fast tier, and deep recursion is cut off", async () => {
    const fib = "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n(fib 15)";
    expect(outcome(await run(fib, { engine: "general" }))).toEqual(outcome(await run(fib)));
    expect(outcome(await run(fib, { engine: "general" }))).toEqual({ value: "610" });
    const deep = await run("(defn down [n] (if (= n 0) 0 (+ 1 (down (dec n)))))\n(down 100000)", {
      engine: "general",
      limits: { maxDepth: 300 },
    });
    expect(outcome(deep)).toEqual({ error: "recursion_limit_exceeded" });
  });

  test("an unbound var called is an error, a wrong argument count the callee's", async () => {
    expect(outcome(await run("(defn f [x] (g x 1))\n(f 1)", { engine: "general" }))).toEqual({
      error: "unbound_var",
    });
    expect(outcome(await run("(defn f [x] x)\n(defn g [y] (f y 2))\n(g 1)", { engine: "general" }))).toEqual({
      error: "arity_error",
    });
  });
});
