/**
 * `(reduce + n xs)` with a plain number as the total sums plain numbers in reduce's own loop
 * (aggregation.ts, sumFrom). These tests prove that loop ran (a counter) and that it answers what
 * `+` called through a function answers, on every engine: integers past the safe range, floats
 * that come out whole, NaN, infinities, nil and strings (errors), big integers and a promise-free
 * hand-off to the general loop midway.
 */
import { describe, expect, test } from "vitest";
import { format, run } from "../index.js";
import { reduceSumStats } from "./aggregation.js";

const context = {
  ints: Array.from({ length: 3000 }, (_, i) => i),
  floats: Array.from({ length: 3000 }, (_, i) => i * 0.25),
  mixed: [1, 2.5, 0.5, 3],
  big: [9007199254740990, 1, 2, 3, 4],
  gaps: [1, 2, null, 3],
};

const sums: readonly string[] = [
  "(reduce + 0 data/ints)",
  "(reduce + 0 data/floats)",
  "(reduce + data/ints)",
  "(reduce + 0 data/mixed)",
  "(reduce + 0.5 [0.5 1])",
  "(reduce + -0.5 [0.5])",
  "(reduce + 0 [1 -1 -0])",
  "(reduce + 0 [])",
  "(reduce + 1.5 [])",
  "(reduce + [7])",
  "(reduce + 0 data/big)",
  "(reduce + 0 [1.5 9007199254740993])",
  "(reduce + 0 [##NaN 1])",
  "(reduce + ##Inf [1 2])",
  "(reduce + 0 [2.0 3])",
  "(reduce + 2 [3 (reduce * 1 (range 1 30)) 1])",
  "(reduce + 0 data/gaps)",
  '(reduce + 0 [1 "a"])',
  '(reduce + 0 [1.5 "a"])',
  "(reduce + 0 [nil])",
];

/** `+` through a function: reduce's general loop. */
const general = (source: string) => source.replace("(reduce + ", "(reduce (fn [a b] (+ a b)) ");

describe("(reduce + n xs) summed in reduce's loop", () => {
  for (const engine of ["general", "adaptive", "fast"] as const) {
    test(`the answers of + called one pair at a time, on the ${engine} engine`, async () => {
      for (const source of sums) {
        const expected = await run(general(source), { context, engine });
        const result = await run(source, { context, engine });
        const shape = (r: typeof result) =>
          r.ok ? { value: format(r.value), float: r.value?.constructor?.name } : { error: r.error.reason };
        expect(shape(result), source).toEqual(shape(expected));
      }
    });
  }

  test("the loop is what ran on the general engine", async () => {
    for (const source of sums) {
      const before = reduceSumStats.sums;
      await run(source, { context, engine: "general" });
      expect(reduceSumStats.sums - before, source).toBe(source.includes("(reduce + [])") ? 0 : 1);
    }
  });
});
