/**
 * `(apply + xs)`, `(apply max xs)` and `(apply min xs)` fold over the items in place
 * (arithmetic.ts, sumOf and overItems) instead of spreading them into arguments. The fold must be
 * exactly the variadic call: same value (integer, float, whole float, big integer), same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";
import { overItems, sumOf } from "./arithmetic.js";

function outcome(result: RunResult): unknown {
  return result.ok ? { value: format(result.value) } : { error: result.error.reason };
}

/** Number spellings that exercise every rule of `+`: floats, whole floats, big and unsafe integers. */
const item = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom("9007199254740991", "-9007199254740991", "9007199254740993", "4503599627370496"),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => String(x).replace(/^(-?\d+)$/, "$1.0")),
  fc.constantFrom("0.5", "1.5", "2.0", "-0.0", "0.1", "0.2", "##NaN", "##Inf", "##-Inf"),
  fc.constantFrom('"a"', "nil", ":k"),
);

describe("(apply f xs) for + max min", () => {
  for (const op of ["+", "max", "min"]) {
    test(`(apply ${op} [...]) is (${op} ...) on every engine`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(item, { minLength: 0, maxLength: 8 }), async (items) => {
          const spelled = items.join(" ");
          const written = await run(`(${op} ${spelled})`, { engine: "general" });
          for (const engine of ["general", "fast"] as const) {
            const applied = await run(`(apply ${op} [${spelled}])`, { engine });
            expect(outcome(applied), `${op} ${spelled} on ${engine}`).toEqual(outcome(written));
          }
        }),
        { numRuns: 300 },
      );
    });
  }

  test("a collection larger than one call could take is folded whole", async () => {
    const big = await run("(apply + (range 120000))");
    expect(big.ok && big.value).toBe((119999 * 120000) / 2);
    const max = await run("(apply max (map #(* % -1) (range 120000)))");
    expect(max.ok && max.value).toBe(0);
    const min = await run("(apply min (range 5 120000))");
    expect(min.ok && min.value).toBe(5);
  });

  test("an integer sum past the safe range carries on as a big integer", async () => {
    const result = await run("(apply + [9007199254740991 1 1 0.5])");
    const written = await run("(+ 9007199254740991 1 1 0.5)");
    expect(outcome(result)).toEqual(outcome(written));
    const exact = await run("(apply + [9007199254740991 1 1 1])");
    expect(exact.ok && format(exact.value)).toBe("9007199254740994");
  });

  test("max and min of nothing stay an arity error, as the call (max) is", async () => {
    const result = await run("(apply max [])");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toMatch(/max/);
  });
});

describe("the folds themselves", () => {
  test("sumOf is the fold of + over plain numbers, boxed when a float sum is whole", () => {
    expect(sumOf([1, 2, 3, 4])).toBe(10);
    expect(sumOf([0.5, 1, 0.5])).toMatchObject({ value: 2 });
    expect(sumOf([0.1, 0.2, 0.3])).toBe(0.1 + 0.2 + 0.3);
    expect(sumOf([Number.MAX_SAFE_INTEGER, 1, 1])).toBe(BigInt(Number.MAX_SAFE_INTEGER) + 2n);
  });

  test("overItems answers for + max min only, and not for max of nothing", () => {
    expect(overItems(() => 0, [1])).toBeUndefined();
    expect(overItems(undefined, [])).toBeUndefined();
  });
});
