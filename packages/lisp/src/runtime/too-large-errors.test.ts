import { describe, expect, test } from "vitest";
import { isTooLargeError } from "./too-large-errors.js";

/** What `make` throws. */
function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("V8's refusals of a value too large", () => {
  test("V8's own errors for a string, an array and an integer too large are recognized", () => {
    expect(isTooLargeError(thrownBy(() => "x".repeat(2 ** 30)))).toBe(true);
    expect(isTooLargeError(thrownBy(() => new Array(-1)))).toBe(true);
    expect(isTooLargeError(thrownBy(() => 2n ** (2n ** 40n)))).toBe(true);
  });

  test("a Map or Set past 2^24 entries is recognized", () => {
    // V8's exact messages: filling a real Map to 2^24 entries takes seconds and most of a GB,
    // too much for a unit test (`(count (set (range 17000000)))` with a 10 GB budget ends as
    // memory_exceeded through run; it was an "unexpected internal error" before).
    expect(isTooLargeError(new RangeError("Map maximum size exceeded"))).toBe(true);
    expect(isTooLargeError(new RangeError("Set maximum size exceeded"))).toBe(true);
  });

  test("other errors are not", () => {
    expect(isTooLargeError(thrownBy(() => (1).toFixed(200)))).toBe(false);
    expect(isTooLargeError(new TypeError("Invalid array length"))).toBe(false);
    expect(isTooLargeError("Map maximum size exceeded")).toBe(false);
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(isTooLargeError(revoked.proxy)).toBe(false);
  });
});
