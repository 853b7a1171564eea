/**
 * Loops of the general evaluator (compile.ts `loop`, a fn's `recur` in closures.ts) count their
 * iterations as generated loops do (evaluation.ts, iterateAt): one test per step against the
 * context's next check, which stops the run past the iteration limit exactly and reads the clock
 * every FUEL_PER_CHECK steps.
 */
import { describe, expect, test } from "vitest";
import { type RunOptions, type RunResult, run } from "../index.js";
import { withTickingClock } from "../test-support.js";

const outcome = (result: RunResult): unknown => (result.ok ? result.value : result.error.reason);

describe("iterations on the general evaluator", () => {
  const loop = (n: number) => `(loop [i 0] (if (< i ${n}) (recur (inc i)) i))`;
  const recurringFn = (n: number) => `(defn up [i] (if (< i ${n}) (recur (inc i)) i)) (up 0)`;

  test("the iteration limit holds to the step, for loop and for a fn's recur", async () => {
    for (const program of [loop, recurringFn]) {
      for (const maxIterations of [1, 2047, 2048, 2049, 4097, 6000]) {
        const limits = { maxIterations };
        expect(outcome(await run(program(maxIterations), { engine: "general", limits }))).toBe(maxIterations);
        expect(outcome(await run(program(maxIterations + 1), { engine: "general", limits }))).toBe(
          "loop_limit_exceeded",
        );
      }
    }
  });

  test("the limit error points at the loop", async () => {
    const result = await run(`(let [x 1]\n  ${loop(10)})`, {
      engine: "general",
      limits: { maxIterations: 5 },
    });
    expect(!result.ok && [result.error.reason, result.error.line, result.error.column]).toEqual([
      "loop_limit_exceeded",
      2,
      3,
    ]);
  });

  test("a budget run out inside a loop carries no position, as on the fast engine", async () => {
    // Time and memory run out wherever the program happens to be (runtime/call-site.ts): the loop
    // that caught the error once gave it its own position, which generated loops never did.
    const cases: Array<[string, NonNullable<RunOptions["limits"]>]> = [
      ["(loop [i 0] (if (< i 1e15) (recur (inc i)) i))", { timeoutMs: 20, maxIterations: 1e15 }],
      [
        "(loop [i 0 acc []] (if (< i 1e7) (recur (inc i) (conj acc i)) (count acc)))",
        { maxMemoryBytes: 100_000 },
      ],
    ];
    for (const [source, limits] of cases) {
      for (const engine of ["general", "fast", "adaptive"] as const) {
        const result = await withTickingClock(() => run(source, { engine, limits }));
        expect(!result.ok && [result.error.reason, result.error.line, result.error.column]).toEqual([
          limits.timeoutMs === undefined ? "memory_exceeded" : "timeout",
          undefined,
          undefined,
        ]);
      }
    }
  });

  test("a long loop reads the clock as it goes and stops on time", async () => {
    for (const program of [loop, recurringFn]) {
      const result = await withTickingClock(() =>
        run(program(100_000_000), { engine: "general", limits: { timeoutMs: 20, maxIterations: 1e9 } }),
      );
      expect(outcome(result)).toBe("timeout");
    }
  });
});
