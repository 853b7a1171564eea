/**
 * A closure of the general evaluator tests depth and fuel in one condition on entry
 * (closures.ts; RunContext.entryCheck out of line): the recursion limit holds to the call, the error is the
 * same, and fuel running out still reads the clock, so a long recursion stops on time.
 */
import { describe, expect, test } from "vitest";
import { type RunResult, run } from "../index.js";
import { withTickingClock } from "../test-support.js";
import { frameStats } from "./closures.js";

const outcome = (result: RunResult): unknown => (result.ok ? result.value : result.error.reason);
const down = "(defn down [n] (if (= n 0) 0 (+ 1 (down (dec n)))))";

describe("a general closure's entry", () => {
  test("the recursion limit holds to the call", async () => {
    // (down 49) is 50 nested calls of down: the most maxDepth 50 allows.
    for (const [maxDepth, deepest] of [
      [50, 49],
      [300, 299],
    ] as const) {
      const limits = { maxDepth };
      expect(outcome(await run(`${down} (down ${deepest})`, { engine: "general", limits }))).toBe(deepest);
      const over = await run(`${down} (down ${deepest + 1})`, { engine: "general", limits });
      expect(outcome(over)).toBe("recursion_limit_exceeded");
      expect(!over.ok && over.error.message).toContain(`recursion depth exceeded ${maxDepth} nested calls`);
    }
  });

  test("calls spend fuel: a long recursion reads the clock and stops on time", async () => {
    const fib = "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))";
    const result = await withTickingClock(() =>
      run(`${fib} (fib 40)`, { engine: "general", limits: { timeoutMs: 20 } }),
    );
    expect(outcome(result)).toBe("timeout");
  });

  test("recursive calls reuse the frames their callees gave back, with the same answers", async () => {
    // Each call binds its own n and let-local before its recursive calls read them: a frame
    // handed to a second call while the first still used it would give wrong sums.
    const source = `(defn walk [n] (let [m (* 2 n)] (if (< n 2) [n m] (let [a (walk (- n 1)) b (walk (- n 2))] [(+ (first a) (first b)) (+ m (second a) (second b))]))))
      [(walk 15) (walk 1) (walk 12)]`;
    const before = frameStats.pooled;
    const general = await run(source, { engine: "general" });
    expect(frameStats.pooled - before).toBeGreaterThan(100);
    const adaptive = await run(source);
    expect(general.ok && adaptive.ok).toBe(true);
    expect(outcome(general)).toEqual(outcome(adaptive));
    expect(outcome(general)).toEqual([
      [610, 8326],
      [1, 2],
      [144, 1944],
    ]);
  });
});
