/**
 * Tested loops (tested-loops.ts): `(loop [...] (if test (recur ...) exit))` run by the loop node
 * itself. They must be the path that ran and answer what the general loop answers (the same loop
 * with its test wrapped in `identity`, which no longer answers a known boolean), for every kind of
 * value the test and the arguments see: nil, strings, NaN, big integers, errors, limits, tools.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { format, type RunOptions, type RunResult, run } from "../index.js";
import { testedLoopStats } from "./tested-loops.js";

function outcome(result: RunResult): unknown {
  return result.ok
    ? { value: format(result.value) }
    : { error: result.error.reason, message: result.error.message };
}

async function general(source: string, options: Partial<RunOptions> = {}): Promise<unknown> {
  return outcome(await run(source, { engine: "general", ...options }));
}

/** The loop with its test wrapped in `identity`: the general loop over an `if`. */
function untested(source: string): string {
  const start = source.indexOf("(if (") + 4;
  let depth = 0;
  let end = start;
  do {
    if (source[end] === "(") depth++;
    else if (source[end] === ")") depth--;
    end++;
  } while (depth > 0);
  return `${source.slice(0, start)}(identity ${source.slice(start, end)})${source.slice(end)}`;
}

let nonce = 0;

async function bothWays(loop: string, options: Partial<RunOptions> = {}): Promise<unknown> {
  // A text of its own each time: a text run before may come from the program cache, uncompiled.
  const source = `(let [nonce ${nonce++}] ${loop})`;
  const before = { ...testedLoopStats };
  const fused = await general(source, options);
  expect(testedLoopStats.loops).toBeGreaterThan(before.loops);
  const plain = await general(untested(source), options);
  expect(plain).toEqual(fused);
  return fused;
}

const starts = fc.constantFrom(
  "0",
  "0.5",
  "-3",
  "nil",
  '"a"',
  "##NaN",
  "9007199254740990",
  "9007199254740993",
  "2.0",
  ":k",
);
const comparisons = fc.constantFrom("<", ">", "<=", ">=", "=");
const limits = fc.constantFrom("3", "2.5", "-1", "0", "9007199254740993");

describe("tested loops", () => {
  test("the usual counting loop runs in the loop node", async () => {
    expect(await bothWays("(loop [i 0 acc 0] (if (< i 10000) (recur (inc i) (+ acc (* i i))) acc))")).toEqual(
      { value: "333283335000" },
    );
  });

  test("any start, comparison and limit: the general loop's answers and errors", async () => {
    await fc.assert(
      fc.asyncProperty(starts, comparisons, limits, fc.boolean(), async (start, op, limit, recurFirst) => {
        const step = `(recur (inc i) (conj acc i))`;
        const body = recurFirst
          ? `(if (${op} i ${limit}) ${step} acc)`
          : `(if (${op} i ${limit}) acc ${step})`;
        await bothWays(`(loop [i ${start} acc []] ${body})`, { limits: { maxIterations: 50 } });
      }),
      { numRuns: 150 },
    );
  });

  test("one, two and three bindings, tests of two locals and of and/or, recur in the exit branch", async () => {
    const programs = [
      "(loop [n 10] (if (> n 0) (recur (- n 3)) n))",
      "(loop [a 1 b 1 n 0] (if (< n 30) (recur b (+ a b) (inc n)) [a b n]))",
      "(loop [i 0 j 10] (if (< i j) (recur (inc i) (dec j)) [i j]))",
      "(loop [i 0 acc []] (if (and (>= i 0) (< i 5)) (recur (inc i) (conj acc (* i 1.5))) acc))",
      "(loop [i 0] (if (< i 6) (recur (+ i 4)) (if (< i 9) (recur (inc i)) i)))",
      '(loop [i 0 s ""] (if (< i 4) (recur (inc i) (str s i)) s))',
      "(loop [i 9007199254740990 n 0] (if (< n 4) (recur (inc i) (inc n)) i))",
      "(loop [x 1.0 n 0] (if (< n 60) (recur (* x 2) (inc n)) x))",
    ];
    for (const program of programs) await bothWays(program);
  });

  test("errors keep their text and position; limits stop at the loop", async () => {
    const wrongType = await bothWays('(loop [i 0] (if (< i 3) (recur (+ i "x")) i))');
    expect(wrongType).toMatchObject({ error: "type_error" });
    const result = await run('(loop [i 0] (if (< i 3) (recur (+ i "x")) i))', { engine: "general" });
    const plain = await run('(loop [i 0] (if (identity (< i 3)) (recur (+ i "x")) i))', {
      engine: "general",
    });
    expect(result.ok || plain.ok).toBe(false);
    if (!result.ok && !plain.ok) {
      expect(result.error.line).toBe(plain.error.line);
      expect(result.error.column).toBe(plain.error.column);
    }
    expect(
      await bothWays("(loop [i 0] (if (< i 10) (recur (inc i)) i))", { limits: { maxIterations: 5 } }),
    ).toMatchObject({ error: "loop_limit_exceeded" });
    const limited = await run("(loop [i 0] (if (< i 10) (recur (inc i)) i))", {
      engine: "general",
      limits: { maxIterations: 5 },
    });
    expect(limited.ok ? undefined : [limited.error.line, limited.error.column]).toEqual([1, 1]);
    // A recur with the wrong count keeps its own node and error (no tested loop).
    expect(await general("(loop [i 0] (if (< i 3) (recur (inc i) 2) i))")).toMatchObject({
      error: "arity_error",
    });
  });

  test("a recur argument or the exit branch that waits on a tool", async () => {
    const tools = { twice: async (args: Record<string, unknown>) => (args.x as number) * 2 };
    expect(
      await bothWays("(loop [i 1 n 0] (if (< n 4) (recur (tool/twice {:x i}) (inc n)) i))", { tools }),
    ).toEqual({ value: "16" });
    expect(
      await bothWays(
        "(loop [i 0 acc 0] (if (< i 3) (recur (inc i) (+ acc (tool/twice {:x i}))) (tool/twice {:x acc})))",
        {
          tools,
        },
      ),
    ).toEqual({ value: "12" });
    expect(
      await bothWays(
        "(loop [i 0 a 1 b 2] (if (< i 2) (recur (inc i) (tool/twice {:x b}) (tool/twice {:x a})) [a b]))",
        {
          tools,
        },
      ),
    ).toEqual({ value: "[4 8]" });
  });
});
