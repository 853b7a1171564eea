/** Rounding, conversions, sqrt/pow, bit operations and the Double constants, through the public API. */
import { describe, expect, test } from "vitest";
import { evaluate, failure } from "../test-support.js";

describe("rounding returns integers", () => {
  test("floor, ceil, trunc", async () => {
    expect(await evaluate("[(floor 3.7) (floor -3.7) (floor 3.0) (floor 5)]")).toBe("[3 -4 3 5]");
    expect(await evaluate("[(ceil 3.2) (ceil -3.2) (ceil -0.5) (ceil 5)]")).toBe("[4 -3 0 5]");
    expect(await evaluate("[(trunc 3.7) (trunc -3.7) (trunc -0.3)]")).toBe("[3 -3 0]");
  });

  test("round goes half away from zero", async () => {
    expect(
      await evaluate(
        "[(round 2.5) (round -2.5) (round 3.4) (round -3.5) (round 0.49999999999999994) (round -0.5)]",
      ),
    ).toBe("[3 -3 3 -4 0 -1]");
  });

  test("large floats become exact big integers; big integers pass through", async () => {
    expect(await evaluate("(floor 1e20)")).toBe("100000000000000000000");
    expect(await evaluate("(round 99999999999999999999)")).toBe("99999999999999999999");
    expect(await evaluate("(integer? (ceil 1e20))")).toBe("true");
  });

  test("special floats pass through unchanged", async () => {
    expect(await evaluate("[(floor ##Inf) (ceil ##-Inf) (round ##NaN) (trunc ##Inf)]")).toBe(
      "[##Inf ##-Inf ##NaN ##Inf]",
    );
  });

  test("non-numbers are type errors", async () => {
    const error = await failure('(floor "3.5")');
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("floor");
    expect((await failure("(round nil)")).reason).toBe("type_error");
  });
});

describe("int, float, double", () => {
  test("int truncates toward zero", async () => {
    expect(await evaluate("[(int 3.7) (int -3.7) (int 42) (int 1e20)]")).toBe(
      "[3 -3 42 100000000000000000000]",
    );
  });

  test("int refuses values that are not finite numbers", async () => {
    const infinite = await failure("(int ##Inf)");
    expect(infinite.reason).toBe("arithmetic_error");
    expect(infinite.message).toContain("cannot convert Infinity to integer");
    expect((await failure("(int ##-Inf)")).message).toContain("cannot convert -Infinity to integer");
    expect((await failure("(int ##NaN)")).message).toContain("cannot convert NaN to integer");
    const text = await failure('(int "42")');
    expect(text.reason).toBe("type_error");
    expect(text.message).not.toContain("case clause");
  });

  test("float and double make floats", async () => {
    expect(
      await evaluate("[(float 5) (double 5) (float 3.14) (float -0.0) (double 99999999999999999999)]"),
    ).toBe("[5.0 5.0 3.14 -0.0 1.0E20]");
    expect(await evaluate("(float? (double 1))")).toBe("true");
    expect(await evaluate("[(float ##Inf) (double ##NaN)]")).toBe("[##Inf ##NaN]");
    expect((await failure("(double :a)")).reason).toBe("type_error");
  });
});

describe("sqrt and pow", () => {
  test("sqrt is a float, NaN for negatives", async () => {
    expect(await evaluate("[(sqrt 16) (sqrt 2) (sqrt 0) (sqrt -1) (sqrt ##Inf)]")).toBe(
      "[4.0 1.4142135623730951 0.0 ##NaN ##Inf]",
    );
  });

  test("pow is a float", async () => {
    expect(await evaluate("[(pow 2 3) (pow 2 -1) (pow 4 0.5) (pow 2.5 2)]")).toBe("[8.0 0.5 2.0 6.25]");
  });

  test("pow: exponent 0 and base 1 give 1.0 whatever the other side is", async () => {
    expect(await evaluate("[(pow ##NaN 0) (pow 1 ##NaN) (pow 1 ##Inf) (pow -1 ##Inf) (pow 0 0)]")).toBe(
      "[1.0 1.0 1.0 1.0 1.0]",
    );
  });

  test("pow with infinities and out-of-range results follows IEEE", async () => {
    expect(
      await evaluate("[(pow ##-Inf 3) (pow ##-Inf 3.0) (pow ##-Inf -1) (pow 2 ##-Inf) (pow ##NaN 2)]"),
    ).toBe("[##-Inf ##Inf 0.0 0.0 ##NaN]");
    expect(await evaluate("[(pow -8 0.5) (pow 10 400) (pow 0 -1)]")).toBe("[##NaN ##Inf ##Inf]");
  });
});

describe("bit operations", () => {
  test("and, or, xor, and-not fold one or more integers", async () => {
    expect(await evaluate("[(bit-and 12 10) (bit-or 12 10) (bit-xor 12 10) (bit-and-not 15 9)]")).toBe(
      "[8 14 6 6]",
    );
    expect(
      await evaluate(
        "[(bit-and 255 15 3) (bit-or 1 2 4 8) (bit-xor 1 2 4 8) (bit-and-not 255 15 48) (bit-and 42)]",
      ),
    ).toBe("[3 15 15 192 42]");
    expect(await evaluate("[(bit-and -1 7) (bit-or -8 1) (bit-not 0) (bit-not 5)]")).toBe("[7 -7 -1 -6]");
  });

  test("operate on integers of any size (two's complement)", async () => {
    expect(await evaluate("(bit-and 99999999999999999999 255)")).toBe("255");
    expect(await evaluate("(bit-xor 4294967296 1)")).toBe("4294967297");
    expect(await evaluate("(bit-not 9007199254740991)")).toBe("-9007199254740992");
    expect(await evaluate("(bit-or -99999999999999999999 1)")).toBe("-99999999999999999999");
    expect(await evaluate("(bit-and-not -1 99999999999999999999)")).toBe("-100000000000000000000");
  });

  test("shifts are unbounded left and sign-extending right", async () => {
    expect(await evaluate("[(bit-shift-left 1 4) (bit-shift-left 1 64) (bit-shift-left -3 60)]")).toBe(
      "[16 18446744073709551616 -3458764513820540928]",
    );
    expect(
      await evaluate(
        "[(bit-shift-right 256 4) (bit-shift-right -16 2) (bit-shift-right -1 1000) (bit-shift-right 5 1000)]",
      ),
    ).toBe("[16 -4 -1 0]");
    expect(await evaluate("(bit-shift-right 99999999999999999999 60)")).toBe("86");
  });

  test("set, clear, flip, test single bits", async () => {
    expect(
      await evaluate("[(bit-set 0 3) (bit-clear 15 1) (bit-flip 0 5) (bit-flip 32 5) (bit-set 0 62)]"),
    ).toBe("[8 13 32 0 4611686018427387904]");
    expect(
      await evaluate("[(bit-test 5 0) (bit-test 5 1) (bit-test 8 3) (bit-test -1 500) (bit-test 1 64)]"),
    ).toBe("[true false true true false]");
  });

  test("non-integers and negative shifts are type errors", async () => {
    const float = await failure("(bit-and 5 2.5)");
    expect(float.reason).toBe("type_error");
    expect(float.message).toContain("bit-and");
    expect((await failure("(bit-shift-left 1.0 2)")).reason).toBe("type_error");
    const negative = await failure("(bit-shift-left 1 -1)");
    expect(negative.reason).toBe("type_error");
    expect(negative.message).toContain("non-negative integer");
    expect((await failure("(bit-and)")).reason).toBe("arity_error");
  });

  test("a huge shift is refused by the memory budget instead of freezing the run", async () => {
    expect((await failure("(bit-shift-left 1 1000000000)")).reason).toBe("memory_exceeded");
    expect((await failure("(bit-set 0 1000000000000)")).reason).toBe("memory_exceeded");
  });
});

describe("Double constants", () => {
  test("are values", async () => {
    expect(await evaluate("[Double/POSITIVE_INFINITY Double/NEGATIVE_INFINITY Double/NaN]")).toBe(
      "[##Inf ##-Inf ##NaN]",
    );
    expect(await evaluate("[POSITIVE_INFINITY NEGATIVE_INFINITY NaN]")).toBe("[##Inf ##-Inf ##NaN]");
  });

  test("work with the math functions", async () => {
    expect(await evaluate("(infinite? Double/POSITIVE_INFINITY)")).toBe("true");
    expect(await evaluate("(float Double/NEGATIVE_INFINITY)")).toBe("##-Inf");
    expect((await failure("(int Double/NaN)")).reason).toBe("arithmetic_error");
  });
});
