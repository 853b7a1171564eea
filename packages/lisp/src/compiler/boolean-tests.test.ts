/**
 * `if` over a comparison answered in the node (number-shortcuts.ts): a comparison of a local with a
 * number compared inside the if's own node (branchShortcut), other comparisons tested as the
 * booleans they are, and `and`/`or` of two comparisons kept boolean. These tests prove those nodes
 * were made (counters) and that they answer what the plain nodes answer, for every kind of operand.
 */
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { shortcutStats } from "./number-shortcuts.js";

function outcome(result: RunResult): unknown {
  return result.ok ? format(result.value) : result.error.reason;
}

const values = ["0", "1", "-1", "2.5", "10", "nil", '"a"', ":k", "[1]", "##NaN", "1.0", "-0.0"];

/**
 * Each test with the comparison hidden behind `identity`: a call, not a shortcut, so the plain
 * `if` tests its value. Branches are strings, so the answer shows which one ran.
 */
const programs = (x: string): [fast: string, plain: string][] =>
  ["<", ">", "<=", ">=", "="].flatMap((op) => [
    [`(let [x ${x}] (if (${op} x 1) "yes" "no"))`, `(let [x ${x}] (if (identity (${op} x 1)) "yes" "no"))`],
    [`(let [x ${x}] (if (${op} 1 x) "yes" "no"))`, `(let [x ${x}] (if (identity (${op} 1 x)) "yes" "no"))`],
    [
      `(let [m {:a ${x}}] (if (${op} (:a m) 1) "yes" "no"))`,
      `(let [m {:a ${x}}] (if (identity (${op} (:a m) 1)) "yes" "no"))`,
    ],
    [
      `(let [x ${x} y 1] [(and (${op} x 1) (< y 2)) (or (${op} x 1) (> y 2)) (if (and (${op} x 0) (${op} y 1)) 1 2)])`,
      `(let [x ${x} y 1] [(and (identity (${op} x 1)) (< y 2)) (or (identity (${op} x 1)) (> y 2)) (if (and (identity (${op} x 0)) (${op} y 1)) 1 2)])`,
    ],
    // Fields and strings, and a target that is no map: the and/or compared in its node (holds).
    [
      `(let [m {:a ${x} :s ${x}}] [(and (${op} (:a m) 1) (= (:s m) "a")) (or (= (:s m) "a") (${op} (:a m) 1))])`,
      `(let [m {:a ${x} :s ${x}}] [(and (identity (${op} (:a m) 1)) (= (:s m) "a")) (or (identity (= (:s m) "a")) (${op} (:a m) 1))])`,
    ],
    [
      `(let [m ${x}] [(and (${op} (:a m) 1) (= m "a")) (or (= m "a") (${op} 2 (:a m)))])`,
      `(let [m ${x}] [(and (identity (${op} (:a m) 1)) (= m "a")) (or (identity (= m "a")) (${op} 2 (:a m)))])`,
    ],
  ]);

describe("if over a comparison", () => {
  test("answers as the plain if, for every operand kind, on the general engine", async () => {
    for (const x of values) {
      for (const [fast, plain] of programs(x)) {
        const expected = outcome(await run(plain, { engine: "general" }));
        expect(outcome(await run(fast, { engine: "general" })), fast).toBe(expected);
      }
    }
  });

  test("the shortcut nodes are what ran", async () => {
    const cases: [source: string, counter: keyof typeof shortcutStats, value: string][] = [
      ['(let [i 7] (if (< i 100) "small" "big"))', "branches", '"small"'],
      ['(let [m {:a 3 :s "x"}] (if (and (> (:a m) 2) (= (:s m) "x")) :in :out))', "comparedLogic", ":in"],
      ['(let [m {:a 3 :s "x"}] (if (or (> (:a m) 5) (= m "x")) :in :out))', "comparedLogic", ":out"],
      ['(let [m {:a 3}] (if (> (:a m) 2) "big" "small"))', "booleanTests", '"big"'],
      ["(let [x 3 y 4] (if (and (> x 2) (< x y)) :in :out))", "booleanLogic", ":in"],
      ["(let [x 3 y 4] (if (or (> x 5) (< y x)) :in :out))", "booleanLogic", ":out"],
    ];
    for (const [source, counter, value] of cases) {
      const before = shortcutStats[counter];
      const result = await run(source, { engine: "general" });
      expect(result.ok && format(result.value), source).toBe(value);
      expect(shortcutStats[counter] - before, source).toBeGreaterThan(0);
    }
  });

  test("a loop tested by a branch shortcut is still cut off by the iteration limit", async () => {
    const result = await run("(loop [i 0] (if (>= i 0) (recur (inc i)) i))", {
      engine: "general",
      limits: { maxIterations: 10_000, timeoutMs: 5000 },
    });
    expect(result.ok).toBe(false);
  });
});
