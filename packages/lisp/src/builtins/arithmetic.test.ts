import { describe, expect, test } from "vitest";
import { evaluate, failure } from "../test-support.js";

describe("arithmetic", () => {
  test("integers stay integers and become exact big integers past 2^53", async () => {
    expect(await evaluate("[(+) (+ 1) (+ 1 2 3) (- 10 1 2) (- 5) (*) (* 2 3 4)]")).toBe("[0 1 6 7 -5 1 24]");
    expect(await evaluate("(* 4294967296 4294967296)")).toBe("18446744073709551616");
    expect(await evaluate("(- -9007199254740991 10)")).toBe("-9007199254741001");
  });

  test("a float operand makes a float result, whole floats included", async () => {
    expect(await evaluate("[(+ 1 2.5) (+ 0.5 0.5) (* 2 1.5) (- 3.0 1)]")).toBe("[3.5 1.0 3.0 2.0]");
  });

  test("division always gives a float; integer zero divisors are errors, float zero follows IEEE", async () => {
    expect(await evaluate("[(/ 10 4) (/ 10 2) (/ 2) (/ 1.0 0.0) (/ -1.0 0.0)]")).toBe(
      "[2.5 5.0 0.5 ##Inf ##-Inf]",
    );
    expect((await failure("(/ 1 0)")).reason).toBe("arithmetic_error");
    expect((await failure("(/ 1.0 0)")).reason).toBe("arithmetic_error");
  });

  test("quot, rem and mod", async () => {
    expect(await evaluate("[(quot 7 2) (quot -7 2) (rem -7 2) (mod -7 2) (mod 7 -2) (mod 5.5 2)]")).toBe(
      "[3 -3 -1 1 -1 1.5]",
    );
    expect((await failure("(mod 1 0)")).reason).toBe("arithmetic_error");
  });

  test("inc, dec, abs, max, min, ==, compare", async () => {
    expect(await evaluate("[(inc 41) (dec 0.5) (abs -3) (abs -2.5) (max 1 5 3) (min 1 -5 3)]")).toBe(
      "[42 -0.5 3 2.5 5 -5]",
    );
    expect(await evaluate('[(== 1 1.0 1) (compare 1 2) (compare :b :a) (compare "a" "a")]')).toBe(
      "[true -1 1 0]",
    );
  });

  test("non-numbers are type errors that name both operands", async () => {
    const error = await failure("(+ 1 nil)");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("integer, nil");
    expect((await failure('(inc "a")')).reason).toBe("type_error");
  });

  test("a non-number names its type and value once; nil is shown once", async () => {
    expect((await failure("(max 1 nil)")).message).toBe("max expects numbers, got nil");
    expect((await failure("(apply min [2 nil 1])")).message).toBe("min expects numbers, got nil");
    expect((await failure('(inc "a")')).message).toBe('inc expects numbers, got string "a"');
    expect((await failure("(update {} :n inc)")).message).toBe("inc expects numbers, got nil");
    expect((await failure("(bit-and 1 nil)")).message).toBe(
      "bit-and expects integers, got nil; convert with (int x) first",
    );
  });
});

describe("comparison", () => {
  test("= is structural and numerically loose; keywords are not strings", async () => {
    expect(
      await evaluate(
        '[(= 1 1.0) (= [1 {:a 2}] [1 {:a 2}]) (= :a "a") (= {:a 1} {"a" 1}) (not= 1 2) (= 1 1 1)]',
      ),
    ).toBe("[true true false false true true]");
  });

  test("ordering never throws: mixed types use a total order, NaN is never ordered", async () => {
    expect(
      await evaluate('[(< 1 2 3) (< 1 3 2) (< 1 nil) (< nil 10) (< 1 "a") (< ##NaN 1) (>= ##NaN 0)]'),
    ).toBe("[true false true false true false false]");
  });

  test("not and identity", async () => {
    expect(await evaluate("[(not nil) (not false) (not 0) (identity :x)]")).toBe("[true true false :x]");
  });
});
