/**
 * `(+ acc (* x y))` with three locals computes its product in the sum's own node on the general
 * evaluator (operand-arithmetic.ts, multiplyAdd). It must answer what the two nodes apart answer
 * (and what the other engines answer), value, error, message and position alike, for every kind
 * of value the locals hold, and be the path that ran.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { inlineOperandStats } from "./operand-arithmetic.js";

function outcome(result: RunResult): unknown {
  if (result.ok) return { value: format(result.value) };
  const { reason, message, line, column } = result.error;
  return { reason, message, line, column };
}

const general = async (source: string, context: Record<string, unknown> = {}) =>
  outcome(await run(source, { engine: "general", context }));
const otherEngine = async (source: string, context: Record<string, unknown> = {}) =>
  outcome(await run(source, { context }));

const values = fc.constantFrom(
  "0",
  "-0.0",
  "1",
  "-3",
  "2.5",
  "0.1",
  "1.0",
  "94906267",
  "9007199254740991",
  "9007199254740993",
  "##NaN",
  "##Inf",
  '"a"',
  "nil",
  ":k",
  "[1]",
);

let fresh = 0;

describe("multiply-add on the general evaluator", () => {
  test("(+ acc (* x y)) and (+ (* x y) acc): the answers of the product and the sum apart", async () => {
    await fc.assert(
      fc.asyncProperty(values, values, values, async (acc, x, y) => {
        // A text of its own each time: a text run before comes compiled from the program cache.
        const bindings = `fresh ${fresh++} acc ${acc} x ${x} y ${y}`;
        const before = inlineOperandStats.multiplyAdds;
        const fusedLeft = await general(`(let [${bindings}] (+ acc (* x y)))`);
        const fusedRight = await general(`(let [${bindings}] (+ (* x y) acc))`);
        expect(inlineOperandStats.multiplyAdds - before).toBe(2);
        // The same text on the other engines: errors at the same place with the same message.
        expect(fusedLeft).toEqual(await otherEngine(`(let [${bindings}] (+ acc (* x y)))`));
        expect(fusedRight).toEqual(await otherEngine(`(let [${bindings}] (+ (* x y) acc))`));
        // The product as a separate node (a let between): the same value or the same error.
        const apart = (source: string) => general(source);
        const without = (o: unknown) => {
          const { line: _l, column: _c, ...rest } = o as Record<string, unknown>;
          return rest;
        };
        expect(without(fusedLeft)).toEqual(
          without(await apart(`(let [${bindings}] (+ acc (let [p (* x y)] p)))`)),
        );
        expect(without(fusedRight)).toEqual(
          without(await apart(`(let [${bindings}] (+ (let [p (* x y)] p) acc))`)),
        );
      }),
      { numRuns: 400 },
    );
  });

  test("a loop summing squares and a reduce over host rows take it, up to big integers", async () => {
    const before = inlineOperandStats.multiplyAdds;
    const squares = "(loop [i 0 acc 0] (if (< i 1000) (recur (inc i) (+ acc (* i i))) acc))";
    expect(await general(squares)).toEqual({ value: "332833500" });
    // Past the safe integers the sum goes on as a big integer, as the operation does.
    const big = "(loop [i 0 acc 9007199254740000] (if (< i 100) (recur (inc i) (+ acc (* i i))) acc))";
    expect(await general(big)).toEqual(await otherEngine(big));
    expect(await general(big)).toEqual({ value: "9007199255068350" });
    const rows = [
      { amount: 2.5, quantity: 4 },
      { amount: 0.1, quantity: 3 },
      { amount: 7, quantity: -2 },
    ];
    const reduce = "(reduce (fn [acc {:keys [amount quantity]}] (+ acc (* amount quantity))) 0 data/rows)";
    expect(await general(reduce, { rows })).toEqual(await otherEngine(reduce, { rows }));
    expect(await general(reduce, { rows })).toEqual({ value: String(0 + 2.5 * 4 + 0.1 * 3 + 7 * -2) });
    // A hostile row: a missing field is nil, and nil is no number.
    const hostile = [{ amount: 1, quantity: 2 }, { amount: 3 }];
    const failed = await general(reduce, { rows: hostile });
    expect(failed).toEqual(await otherEngine(reduce, { rows: hostile }));
    expect((failed as { reason: string }).reason).toBe("type_error");
    expect(inlineOperandStats.multiplyAdds - before).toBeGreaterThanOrEqual(3);
  });
});
