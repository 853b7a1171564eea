/**
 * A closure's light entry (closures.ts), which builtins' loops call in place of the closure: one
 * frame for the whole loop. These tests prove the loops take it (lightEntryStats), that its answers
 * are the other engines', that a call made while one is in progress gets a frame of its own, and
 * that limits (depth, iterations, time, effects in pure mode) and promises hold as on the
 * closure's own entry.
 */
import { describe, expect, test } from "vitest";
import { type RunOptions, type RunResult, run } from "../index.js";
import { evaluate, failure, withTickingClock } from "../test-support.js";
import { lightEntryStats } from "../values/lisp-function.js";

const outcome = (result: RunResult): unknown => (result.ok ? result.value : result.error.reason);

/** The program's printed value on the general engine, checked against the default engine's. */
async function general(source: string, options: RunOptions = {}): Promise<string> {
  const value = await evaluate(source, { ...options, engine: "general" });
  expect(await evaluate(source, options)).toBe(value);
  return value;
}

/** How the light-entry counters moved while `body` ran. */
async function counted<T>(body: () => Promise<T>): Promise<{ value: T; handedOut: number; frames: number }> {
  const before = { ...lightEntryStats };
  const value = await body();
  return {
    value,
    handedOut: lightEntryStats.handedOut - before.handedOut,
    frames: lightEntryStats.frames - before.frames,
  };
}

describe("a closure's light entry in builtins' loops", () => {
  test("a closure of another arity than the loop calls with keeps its arity error", async () => {
    const programs = [
      "(map (fn [a b] a) [1 2])",
      "(mapv (fn [a b] a) [1 2])",
      "(count (map (fn [a b] a) [1 2]))",
      "(filter (fn [a b] a) [1 2])",
      "(keep (fn [a b] a) [1 2])",
      "(reduce (fn [a] a) 0 [1 2])",
      "(some (fn [a b] a) [1 2])",
      "(remove (fn [a b] a) [1 2])",
      "(map (fn [a] a) [1 2] [3 4])",
    ];
    for (const source of programs) {
      const { value: failed, handedOut } = await counted(() => failure(source, { engine: "general" }));
      expect(failed.reason, source).toBe("arity_error");
      expect(handedOut, source).toBe(0);
      expect((await failure(source)).reason, source).toBe("arity_error");
    }
  });

  test("reduce, map, filter, some and pipelines call it, with one frame per loop", async () => {
    const cases: [string, string][] = [
      ["(reduce (fn [acc x] (+ acc (* x x))) 0 (range 1000))", "332833500"],
      ["(count (filter (fn [x] (odd? x)) (range 1000)))", "500"],
      ["(reduce + (map (fn [x] (* 2 x)) (range 1000)))", "999000"],
      ["(some (fn [x] (when (> x 990) x)) (range 1000))", "991"],
      ["(mapv (fn [{:keys [a]}] (inc a)) [{:a 1} {:a 2}])", "[2 3]"],
    ];
    for (const [source, expected] of cases) {
      const { value, handedOut, frames } = await counted(() => evaluate(source, { engine: "general" }));
      expect(value).toBe(expected);
      expect(handedOut, source).toBeGreaterThanOrEqual(1);
      // Every call of the loop ran in the one frame its light entry made.
      expect(frames).toBe(handedOut);
      expect(await evaluate(source)).toBe(expected);
    }
  });

  test("a closure that runs again while its light call is in progress gets a fresh frame", async () => {
    // f maps itself over smaller n: each level reads its own `a` after the inner calls returned.
    const source =
      "(let [f (fn f [n] (let [a (* n 10)] (if (= n 0) [a] (conj (vec (mapcat f [(dec n) (dec n)])) a))))] (f 3))";
    expect(await general(source)).toBe("[0 0 10 0 0 10 20 0 0 10 0 0 10 20 30]");
    // A reduce whose function reduces with itself over a nested vector.
    const tree =
      "(defn total [t] (if (vector? t) (reduce (fn [acc x] (+ acc (total x))) 0 t) t)) (total [1 [2 [3 4]] [5]])";
    expect(await general(tree)).toBe("15");
    const self =
      "(let [walk (fn walk [acc t] (if (vector? t) (+ acc (reduce walk 0 t)) (+ acc t)))] (walk 0 [1 [2 [3 [4]]] 5]))";
    expect(await general(self)).toBe("15");
  });

  test("closures made or returned in a light call keep what they saw", async () => {
    expect(await general("(let [fs (map (fn [x] (fn [] x)) [1 2 3])] (map (fn [g] (g)) fs))")).toBe(
      "[1 2 3]",
    );
    expect(
      await general("(let [gs (mapv (fn self [x] (if (= x 0) 0 self)) [1 2])] (mapv (fn [g] (g 0)) gs))"),
    ).toBe("[0 0]");
    expect(await general("(map (fn [x] (let [y (* x x)] [x y])) [1 2 3])")).toBe("[[1 1] [2 4] [3 9]]");
  });

  test("the recursion limit holds as on the closure's entry, with the same error", async () => {
    // Each level is a call of down and one of the reduce's function: 50 nested calls at (down 24).
    const down = (n: number) =>
      `(defn down [n] (if (= n 0) 0 (reduce (fn [acc x] (+ acc x (down (dec n)))) 0 [1]))) (down ${n})`;
    const limits = { maxDepth: 50 };
    expect(outcome(await run(down(24), { engine: "general", limits }))).toBe(24);
    const over = await failure(down(25), { engine: "general", limits });
    expect(over.reason).toBe("recursion_limit_exceeded");
    expect(over.message).toContain("recursion depth exceeded 50 nested calls");
  });

  test("recur in a light call counts iterations, and the iteration limit stops it", async () => {
    const source = "(map (fn [n] (if (> n 0) (recur (dec n)) :done)) [3 400 5])";
    expect(await general(source)).toBe("[:done :done :done]");
    const over = await failure(source, { engine: "general", limits: { maxIterations: 100 } });
    expect(over.reason).toBe("loop_limit_exceeded");
  });

  test("a long loop of light calls reads the clock and stops on time", async () => {
    const result = await withTickingClock(() =>
      run("(reduce (fn [acc x] (+ acc x)) 0 (range 5000000))", {
        engine: "general",
        limits: { timeoutMs: 20, maxIterations: 100_000_000 },
      }),
    );
    expect(outcome(result)).toBe("timeout");
  });

  test("a light call that waits on a tool finishes after it, and the closure runs on", async () => {
    const calls: unknown[] = [];
    const tools = {
      scale: async (args: Record<string, unknown>) => {
        calls.push(args.x);
        return (args.x as number) * 10;
      },
    };
    const source =
      "(let [f (fn [x] (+ x (tool/scale {:x x})))] [(map f [1 2 3]) (mapv f [4 5]) (reduce + (map f [6]))])";
    expect(await evaluate(source, { engine: "general", tools })).toBe("[[11 22 33] [44 55] 66]");
    expect(calls).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("a closure with effects refuses a lazy pipeline's pure mode, then runs in full", async () => {
    const printed = await run("(count (filter (fn [x] (println x) (odd? x)) [1 2 3]))", {
      engine: "general",
    });
    expect(printed).toMatchObject({ ok: true, value: 2, prints: ["1", "2", "3"] });
  });
});
