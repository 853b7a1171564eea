/**
 * One-name lets whose init is a constant or a local (let-forms.ts), written in the node: the path
 * that ran (counters), and the answers of the same let with its init behind `identity` (a call,
 * evaluated as any init is), for values of every kind.
 */
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { letInitStats } from "./let-forms.js";

function outcome(result: RunResult): unknown {
  return result.ok ? format(result.value) : `${result.error.reason}: ${result.error.message}`;
}

const values = [
  "0",
  "-0.0",
  "2.5",
  "9007199254740993",
  "##NaN",
  "nil",
  "false",
  '"a"',
  ":k",
  "[1 2]",
  "{:a 1}",
];

describe("let of a constant or a local", () => {
  test("the inits written in the node answer as evaluated inits", async () => {
    for (const [index, value] of values.entries()) {
      const before = { ...letInitStats };
      const direct = `(let [nonce ${index}] (let [x ${value}] (let [y x] [x y (str y) (= x y)])))`;
      const evaluated = `(let [nonce ${index}] (let [x (identity ${value})] (let [y (identity x)] [x y (str y) (= x y)])))`;
      const expected = outcome(await run(evaluated, { engine: "general" }));
      expect(outcome(await run(direct, { engine: "general" })), direct).toBe(expected);
      expect(letInitStats.constants).toBeGreaterThan(before.constants);
      expect(letInitStats.locals).toBeGreaterThan(before.locals);
    }
  });

  test("a body that fails keeps its error and position (as before the inits were written in)", async () => {
    const result = await run('(let [x "a"] (let [y x] (+ y 1)))', { engine: "general" });
    expect(result.ok ? undefined : [result.error.reason, result.error.line, result.error.column]).toEqual([
      "type_error",
      1,
      25,
    ]);
  });
});
