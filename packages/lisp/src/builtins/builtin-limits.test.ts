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
