/**
 * Big integers are metered like any value a program builds (runtime/big-integers.ts): each is
 * charged to the memory budget by its size, no integer may pass MAX_INTEGER_BITS (a product or a
 * shift past it is refused before V8 computes it), and their work, printing included, reads the
 * clock. V8's own "Maximum BigInt size exceeded" never surfaces as an internal error.
 */
import { describe, expect, test } from "vitest";
import { run } from "./index.js";
import { withTickingClock } from "./test-support.js";
import { MAX_INTEGER_BITS } from "./values/numbers.js";

const ENGINES = ["general", "fast", "adaptive"] as const;

async function outcome(source: string, options: Parameters<typeof run>[1] = {}) {
  const result = await run(source, options);
  return result.ok ? { value: result.value } : { reason: result.error.reason, message: result.error.message };
}

describe.each(ENGINES)("on the %s engine", (engine) => {
  // Generous clocks: the point is that these stop on size, at once, never on time.
  const limits = { timeoutMs: 20_000 };

  test.each([
    ["a shift by seventy million bits", "(count (str (bit-shift-left 1 70000000)))"],
    ["a shift past V8's own limit", "(bit-shift-left 1 2000000000)"],
    ["squaring with *'", "(loop [x 3 i 0] (if (< i 40) (recur (*' x x) (inc i)) (count (str x))))"],
    ["squaring with *", "(loop [x 3 i 0] (if (< i 40) (recur (* x x) (inc i)) (count (str x))))"],
    ["squaring from past 2^53", "(loop [x 9007199254740993 i 0] (if (< i 40) (recur (* x x) (inc i)) x))"],
    ["a product of two large factors", "(let [x (bit-shift-left 1 200000)] (count (str (* x x))))"],
    ["bit-set far out", "(bit-set 0 100000000)"],
  ])("%s is refused as too large, before it is computed", async (_name, source) => {
    const result = await outcome(source, { engine, limits });
    expect(result).toMatchObject({ reason: "memory_exceeded" });
    expect((result as { message: string }).message).toContain(`${MAX_INTEGER_BITS} bits`);
  });

  test("doubling by addition stops at the memory budget, one bit at a time", async () => {
    const result = await outcome(
      "(loop [x 1 i 0] (if (< i 2000000) (recur (+ x x) (inc i)) (count (str x))))",
      { engine, limits },
    );
    expect(result).toMatchObject({ reason: "memory_exceeded" });
  });

  test("a sum one bit past the largest integer is refused", async () => {
    const largest = `(- (bit-shift-left 1 ${MAX_INTEGER_BITS - 1}) 1)`;
    const result = await outcome(
      `(let [x (+ ${largest} (bit-shift-left 1 ${MAX_INTEGER_BITS - 1}))] (+ x x))`,
      {
        engine,
        limits,
      },
    );
    expect(result).toMatchObject({ reason: "memory_exceeded" });
  });

  test("every large integer built is charged to the memory budget", async () => {
    // A thousand products of about 100,000 bits: 12.5 MB against a budget of 5 MB.
    const result = await outcome(
      "(let [x (bit-shift-left 1 100000)] (count (mapv (fn [i] (* x (+ i 2))) (range 1000))))",
      { engine, limits: { ...limits, maxMemoryBytes: 5_000_000 } },
    );
    expect(result).toMatchObject({ reason: "memory_exceeded" });
  });

  test.each([
    ["parse-long", '(parse-long (apply str "1" (mapv (constantly "0") (range 100000))))'],
    [
      "json/parse-string",
      '(json/parse-string (apply str "[1" (conj (mapv (constantly "0") (range 100000)) "]")))',
    ],
  ])("%s refuses digits past the largest integer before parsing them", async (_name, source) => {
    const result = await outcome(source, { engine, limits });
    expect(result).toMatchObject({ reason: "memory_exceeded" });
  });

  test("integers well within the limit stay exact", async () => {
    const result = await outcome(
      '[(* 99999999999 99999999999) (count (str (reduce *\' (range 1 2001)))) (bit-shift-left 1 64) (- (bit-shift-left 1 100000) (bit-shift-left 1 100000)) (parse-long "123456789012345678901234567890")]',
      { engine, limits },
    );
    expect(result).toEqual({
      value: [9999999999800000000001n, 5736, 18446744073709551616n, 0, 123456789012345678901234567890n],
    });
  });
});

describe("work on large integers reads the clock", () => {
  // The clock moves one millisecond per read: each of these must read it as it goes, or the
  // program finishes its whole input (printing "returned") before the deadline.
  const x = "(bit-shift-left 1 250000)";
  test.each([
    ["printing", `(mapv (fn [_] (str x)) (range 300))`],
    ["pr-str of a vector of them", "(pr-str (vec (repeat-n-times x 300)))"],
    ["format", '(mapv (fn [_] (format "%d" x)) (range 300))'],
    ["json/generate-string", "(json/generate-string (vec (repeat-n-times x 300)))"],
    ["hashing them in a set", "(set (mapv (fn [i] [(+ x i)]) (range 300)))"],
    ["multiplying", "(mapv (fn [i] (* x (+ i 3))) (range 300))"],
  ])("%s", async (_name, body) => {
    const source = `(let [x ${x} repeat-n-times (fn [v n] (mapv (fn [_] v) (range n)))]
      (println "started") (let [r (count ${body})] (println "returned") r))`;
    const result = await withTickingClock(() =>
      run(source, { limits: { timeoutMs: 20, maxMemoryBytes: Number.POSITIVE_INFINITY } }),
    );
    expect(result.ok ? "finished" : result.error.reason).toBe("timeout");
    expect(result.prints).toEqual(["started"]);
  });
});
