/**
 * Builtins against the sandbox's promises, found by review: a count or size the program writes
 * must cost what the data holds, not what the number says, and must never take the host down.
 */
import { describe, expect, test } from "vitest";
import { format, type RunResult, run } from "../index.js";

const context = { xs: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] };

/** A generous clock: only a wrong answer or a crash can fail these, not a loaded machine. */
const limits = { timeoutMs: 60_000 };

function outcome(result: RunResult): unknown {
  return result.ok ? format(result.value) : result.error.reason;
}

/** The program's answer, run twice (the adaptive engine's second run may take another path). */
async function answers(source: string): Promise<unknown[]> {
  const first = await run(source, { context, limits });
  const second = await run(source, { context, limits });
  const general = await run(source, { context, limits, engine: "general" });
  return [outcome(first), outcome(second), outcome(general)];
}

describe("partition's n is the size of a window, not an allocation", () => {
  // 2^32: filling a window of that many slots up front made V8 abort the whole process ("Fatal
  // JavaScript invalid size error"); 10^8 took seconds and over a gigabyte before the first item.
  const huge = "4294967296";
  const cases: ReadonlyArray<readonly [program: string, expected: string]> = [
    [`(count (partition ${huge} data/xs))`, "0"],
    [`(count (partition ${huge} (range 10)))`, "0"],
    [`(vec (partition-all ${huge} data/xs))`, "[[1 2 3 4 5 6 7 8 9 10]]"],
    [`(first (partition ${huge} 1 [0] data/xs))`, "[1 2 3 4 5 6 7 8 9 10 0]"],
    [`(take 2 (partition ${huge} data/xs))`, "[]"],
    [`(count (map first (partition-all ${huge} 2 data/xs)))`, "1"],
    [`(reduce + 0 (map count (partition 100000000 data/xs)))`, "0"],
    [`(let [all (partition ${huge} data/xs)] (count all))`, "0"],
  ];
  for (const [program, expected] of cases) {
    test(program, async () => {
      expect(await answers(program)).toEqual([expected, expected, expected]);
    });
  }

  test("windows of ordinary sizes past the preallocated slots are whole", async () => {
    const program = "(map count (partition 1500 500 (range 5000)))";
    expect(await answers(program)).toEqual(Array(3).fill("[1500 1500 1500 1500 1500 1500 1500 1500]"));
    const sums = "(map #(reduce + %) (partition-all 2000 (range 5000)))";
    expect(await answers(sums)).toEqual(Array(3).fill("[1999000 5999000 4499500]"));
  });
});

/**
 * Builtins whose output grows by what a callback returns must charge it as it grows: returning
 * the same vector again costs the callback nothing, so a charge at the end comes after the whole
 * output is built (a hundred thousand copies of a hundred-thousand-item vector grew past 1 GB, and
 * past V8's largest array, which aborts the process, before the charge). A tool in the callback
 * counts how far each got: with the fix, it stops a few calls after the budget is spent.
 */
describe("outputs grown from callbacks are charged as they grow", () => {
  async function callsBeforeTheEnd(program: string, maxMemoryBytes: number) {
    let calls = 0;
    const tools = {
      tick: () => {
        calls++;
        return true;
      },
    };
    const result = await run(program, { tools, limits: { timeoutMs: 60_000, maxMemoryBytes } });
    return { reason: result.ok ? "ok" : result.error.reason, calls };
  }

  test("mapcat", async () => {
    // 1000 items, each adding the same 10,000 items (80 KB): a 1 MB budget is spent by the 13th.
    const program = "(let [v (vec (range 10000))] (count (mapcat (fn [_] (tool/tick {}) v) (range 1000))))";
    const { reason, calls } = await callsBeforeTheEnd(program, 1_000_000);
    expect(reason).toBe("memory_exceeded");
    expect(calls).toBeLessThan(20);
  });

  test("mapcat over a field", async () => {
    const context = {
      rows: Array.from({ length: 1000 }, () => ({ tags: Array.from({ length: 10000 }, (_, i) => i) })),
    };
    const result = await run("(count (mapcat :tags data/rows))", {
      context,
      limits: { timeoutMs: 60_000, maxMemoryBytes: 1_000_000 },
    });
    expect(result.ok ? "ok" : result.error.reason).toBe("memory_exceeded");
  });

  test("tree-seq over a tree that shares its branches", async () => {
    // A root of 1000 copies of one branch of 1000 leaves: about a million nodes from 1001 calls
    // of the children function. A 1 MB budget holds about 125,000 nodes: some 125 calls.
    const program =
      "(let [b (mapv (fn [_] []) (range 1000)) t (mapv (fn [_] b) (range 1000))] (count (tree-seq seq (fn [n] (tool/tick {}) n) t)))";
    const { reason, calls } = await callsBeforeTheEnd(program, 1_000_000);
    expect(reason).toBe("memory_exceeded");
    expect(calls).toBeLessThan(500);
  });

  test("the charges add up to the vector's size, as before", async () => {
    const sizes = async (program: string) => (await run(program, { limits })).usage?.memoryBytes ?? -1;
    // The same output built by mapcat and by a vector of the same length: the same charge.
    const mapcat = await sizes("(let [v [1 2 3]] (mapcat (fn [_] v) (range 5)))");
    const tree = await sizes("(tree-seq vector? seq [[1 2] [3 [4]]])");
    expect(mapcat).toBe(16 + 8 * 15 + (await sizes("(range 5)")));
    expect(tree).toBeGreaterThanOrEqual(16 + 8 * 7);
  });
});

/**
 * V8 hashes a string longer than 16,383 characters by its length alone (values/hash-key.ts), so a
 * JS Map of such keys of one length compares each new key with all the others, in native calls
 * the clock cannot interrupt: hashKey charges each such key to the clock, which is then read at
 * every one. group-by and frequencies hash their keys inline (groupHash) and skipped that charge.
 * The clock's reads are counted while group-by fills its groups: its key function fails at the
 * last item, before the map of groups is built (which charges the keys again).
 */
describe("long keys read the clock as they are grouped", () => {
  async function clockReads(program: string): Promise<{ reads: number; outcome: unknown }> {
    const original = process.hrtime;
    let reads = 0;
    const counting = ((time?: [number, number]) => {
      reads++;
      return original(time);
    }) as typeof process.hrtime;
    counting.bigint = original.bigint;
    process.hrtime = counting;
    try {
      const result = await run(program, { limits });
      return { reads, outcome: outcome(result) };
    } finally {
      process.hrtime = original;
    }
  }

  const grouped = (key: string) =>
    `(let [s (apply str (map (fn [_] "a") (range 20000))) ks (map-indexed (fn [i _] [i (str s (+ 1000 i))]) (range 300))]
       (group-by (fn [[i k]] (if (= i 299) (fail "stop") ${key})) ks))`;

  test("group-by", async () => {
    const byNumber = await clockReads(grouped("i"));
    const byText = await clockReads(grouped("k"));
    expect([byNumber.outcome, byText.outcome]).toEqual(["fail", "fail"]);
    // One read per long key grouped (299), where grouping by number reads it no more.
    expect(byText.reads - byNumber.reads).toBeGreaterThanOrEqual(299);
  });
});

/**
 * `for` builds its vector from its body's values, and a product of collections makes many from
 * little: `(for [a v b v] 1)` over a 100,000-item `v` is 10^10 values whose body costs nothing.
 * Charged once at the end, it grew past the memory budget (and past V8's largest array, which
 * aborts the process) first. Each value is now charged as it is pushed: the body fails at a later
 * element, so the answer says whether the budget stopped the `for` before it got there. Every
 * engine: the closure evaluator, generated code, and the adaptive tier (which moves a `for` over
 * 1000 items to generated code where it stands).
 */
describe("for charges its vector as it grows", () => {
  const engines = ["adaptive", "fast", "general"] as const;
  async function reasons(program: string, maxMemoryBytes: number) {
    const reasonOn = async (engine: (typeof engines)[number]) => {
      const result = await run(program, { engine, limits: { timeoutMs: 60_000, maxMemoryBytes } });
      return result.ok ? "ok" : result.error.reason;
    };
    return Promise.all(engines.map(reasonOn));
  }

  test("a product of two collections stops at the budget", async () => {
    // A 1 MB budget holds about 125,000 values: `a` reaches 125 of the 900 the body fails at.
    const program = '(let [v (vec (range 1000))] (count (for [a v b v] (if (= a 900) (fail "late") 1))))';
    expect(await reasons(program, 1_000_000)).toEqual(Array(3).fill("memory_exceeded"));
  });

  test("a product of three, with a :when", async () => {
    const program =
      '(let [v (vec (range 100))] (count (for [a v :when (odd? a) b v c v] (if (= a 91) (fail "late") 1))))';
    expect(await reasons(program, 1_000_000)).toEqual(Array(3).fill("memory_exceeded"));
  });

  describe("with a tool counting how far it got", () => {
    async function progress(program: string) {
      let calls = 0;
      // An answer that comes later: the general evaluator goes on from it through `after`.
      const tools = {
        tick: async () => {
          calls++;
          return true;
        },
      };
      const result = await run(program, { tools, limits: { timeoutMs: 60_000, maxMemoryBytes: 1_000_000 } });
      return { reason: result.ok ? "ok" : result.error.reason, calls };
    }

    test("in the body", async () => {
      // About 125,000 values fit in 1 MB: the body is called that often, not 900,000 times.
      const program =
        '(let [v (vec (range 1000))] (count (for [a v b v] (if (= a 900) (fail "late") (tool/tick)))))';
      const { reason, calls } = await progress(program);
      expect(reason).toBe("memory_exceeded");
      expect(calls).toBeLessThan(130_000);
    });

    test("once for each element of the outer binding", async () => {
      const program =
        '(let [v (vec (range 1000))] (count (for [a v :let [_ (tool/tick)] b v] (if (= a 900) (fail "late") 1))))';
      const { reason, calls } = await progress(program);
      expect(reason).toBe("memory_exceeded");
      expect(calls).toBeLessThan(130);
    });
  });

  test("a for that finishes is charged what it was before", async () => {
    // What main charged before the fix, the same on every engine: 8 bytes a value and 16 for
    // the vector (the literal [a (* 10 a)] adds 32 for each `a` it is made for).
    const orders = Array.from({ length: 3000 }, (_, i) => ({ status: i % 3 ? "paid" : "open", amount: i }));
    const cases: ReadonlyArray<readonly [program: string, bytes: number]> = [
      ["(for [a (range 3) b (range 4)] a)", 296],
      ["(for [a [1 2 3] b [4 5 6 7]] a)", 112],
      ["(for [a [1 2 3] :when (odd? a) b [4 5 6 7] :while (< b 6)] (+ a b))", 48],
      ['(for [o data/orders :when (= (:status o) "paid") x [(:amount o) (:quantity o)]] x)', 96_016],
      ["(for [a (range 2000)] a)", 32_032],
      ["(doseq [a (range 3)] a)", 40],
    ];
    for (const [program, bytes] of cases) {
      for (const engine of engines) {
        const result = await run(program, { engine, context: { orders }, limits });
        expect([program, engine, result.usage?.memoryBytes]).toEqual([program, engine, bytes]);
      }
    }
  });
});
