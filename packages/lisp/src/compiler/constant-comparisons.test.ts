/**
 * The general evaluator's constant comparisons (intrinsics.ts, constantShortcut): `(< x 10)`,
 * `(> (:amount o) 500)`, `(= (:status o) "paid")` answered in the node when the value read has
 * the constant's type. They must answer exactly what the operation called as a value answers,
 * for every kind of value read (the fallback included), and they must be the path that ran.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { shortcutStats } from "./intrinsics.js";

function outcome(result: RunResult): unknown {
  return result.ok ? { value: format(result.value) } : { error: result.error.reason };
}

const values = fc.constantFrom(
  "0",
  "-0.0",
  "1",
  "2",
  "1.0",
  "2.5",
  "-3",
  "9007199254740993",
  "##NaN",
  "##Inf",
  '"a"',
  '"paid"',
  '""',
  "nil",
  ":k",
  "true",
  "[1]",
);
const constants = fc.constantFrom("0", "1", "2", "2.5", "-3", "1.0", '"paid"', '"a"');
const operators = fc.constantFrom("<", ">", "<=", ">=", "=");

/** The same comparison three ways: a local, a field (shortcuts), and the operator as a value. */
function programs(op: string, x: string, c: string): { local: string; field: string; plain: string } {
  return {
    local: `(let [x ${x}] (${op} x ${c}))`,
    field: `(let [m {:v ${x}}] [(${op} (:v m) ${c}) (${op} ${c} (:v m))])`,
    plain: `(let [f ${op} x ${x}] (f x ${c}))`,
  };
}

describe("constant comparisons on the general evaluator", () => {
  test("answer what the operation answers, for every kind of operand", async () => {
    await fc.assert(
      fc.asyncProperty(operators, values, constants, async (op, x, c) => {
        const { local, field, plain } = programs(op, x, c);
        const expected = outcome(await run(plain, { engine: "general" }));
        expect(outcome(await run(local, { engine: "general" }))).toEqual(expected);
        const swapped = outcome(await run(`(let [f ${op} x ${x}] [(f x ${c}) (f ${c} x)])`, { engine: "general" }));
        expect(outcome(await run(field, { engine: "general" }))).toEqual(swapped);
      }),
      { numRuns: 300 },
    );
  });

  test("are the path that runs for a local or field against a constant", async () => {
    const before = shortcutStats.constantComparisons;
    const result = await run(
      `(let [rows [{:s "paid" :a 600} {:s "paid" :a 10} {:s "open" :a 900}]]
         [(count (filter #(and (= (:s %) "paid") (> (:a %) 500)) rows))
          (loop [i 0 n 0] (if (< i 5) (recur (inc i) (+ n i)) n))
          (count (filter #(= "open" (:s %)) rows))])`,
      { engine: "general" },
    );
    expect(result.ok && format(result.value)).toBe("[1 10 1]");
    // (= (:s %) "paid"), (> (:a %) 500), (< i 5), (= "open" (:s %))
    expect(shortcutStats.constantComparisons - before).toBe(4);
  });

  test("a loop cut off by the iteration limit still is, with a shortcut test", async () => {
    const result = await run("(loop [i 0] (if (>= i 0) (recur (inc i)) i))", {
      engine: "general",
      limits: { maxIterations: 1000 },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe("loop_limit_exceeded");
  });
});
