/**
 * What every limit must have, whichever it is: a row in docs/sandbox.md, a default, and the same
 * checks in `run`. A limit added to `Limits` without one of them fails here
 * (docs/contributing-limits.md).
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { DEFAULT_LIMITS, type Limits, LispError, REFERENCE_LIMITS, run } from "../index.js";

const names = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];
const sandboxGuide = readFileSync(new URL("../../../../docs/sandbox.md", import.meta.url), "utf8");

describe.each(names)("the limit %s", (name) => {
  test("has a row in the limits table of docs/sandbox.md", () => {
    expect(sandboxGuide).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, "m"));
  });

  test("has a positive default", () => {
    expect(DEFAULT_LIMITS[name]).toBeGreaterThan(0);
  });

  test("is accepted by run, Infinity included, and rejected when not a positive number", async () => {
    expect((await run("(+ 1 2)", { limits: { [name]: DEFAULT_LIMITS[name] } })).ok).toBe(true);
    expect((await run("(+ 1 2)", { limits: { [name]: Number.POSITIVE_INFINITY } })).ok).toBe(true);
    for (const bad of [0, -1, Number.NaN, "10"]) {
      const rejected = run("(+ 1 2)", { limits: { [name]: bad as number } });
      await expect(rejected).rejects.toBeInstanceOf(LispError);
      await expect(rejected).rejects.toMatchObject({ code: "PTC_LISP_INVALID_OPTIONS" });
    }
  });
});

test("an unknown limit is rejected with the list of known ones", async () => {
  await expect(run("1", { limits: { maxWidgets: 3 } as Partial<Limits> })).rejects.toThrow(
    /unknown limit "maxWidgets"; known limits: timeoutMs, /,
  );
});

describe("defaults and the reference's limits", () => {
  test("REFERENCE_LIMITS are the reference's values; the defaults differ in iterations and memory only", () => {
    expect(REFERENCE_LIMITS).toMatchObject({
      timeoutMs: 1000,
      maxIterations: 1000,
      maxMemoryBytes: 10_000_000,
    });
    expect(Object.keys(REFERENCE_LIMITS)).toEqual(names);
    const differing = names.filter((name) => DEFAULT_LIMITS[name] !== REFERENCE_LIMITS[name]);
    expect(differing).toEqual(["maxIterations", "maxMemoryBytes"]);
    expect(DEFAULT_LIMITS).toMatchObject({ maxIterations: 1_000_000, maxMemoryBytes: 64_000_000 });
  });

  test("only recur counts against maxIterations: for walks its collection freely", async () => {
    const limits = REFERENCE_LIMITS;
    const walked = await run("(count (for [x (range 5000) :when (odd? x)] x))", { limits });
    expect(walked.ok && walked.value).toBe(2500);
    const looped = await run("(loop [i 0] (if (< i 5000) (recur (inc i)) i))", { limits });
    expect(!looped.ok && looped.error.reason).toBe("loop_limit_exceeded");
  });

  test("under the default iteration limit a 100,000-step loop runs and a runaway loop stops", async () => {
    // The clock is generous, so only the iteration limit can stop the runaway loop: its reason
    // says so, on any machine, however loaded.
    const limits = { timeoutMs: 60_000 };
    const long = await run("(loop [i 0 acc 0] (if (< i 100000) (recur (inc i) (+ acc i)) acc))", { limits });
    expect(long.ok && long.value).toBe(4_999_950_000);
    for (const engine of ["adaptive", "general"] as const) {
      const runaway = await run("(loop [x 0] (recur x))", { engine, limits });
      expect(!runaway.ok && runaway.error.reason).toBe("loop_limit_exceeded");
    }
  });
});

test("one limits object reused across runs: a change to it between runs takes effect", async () => {
  const limits: Record<string, unknown> = { maxIterations: 10 };
  const loop = "(loop [i 0] (if (< i 50) (recur (inc i)) i))";
  expect((await run(loop, { limits })).ok).toBe(false);
  limits.maxIterations = 100;
  expect((await run(loop, { limits })).ok).toBe(true);
  limits.maxDepth = -1;
  await expect(run(loop, { limits })).rejects.toThrow(/limit "maxDepth" must be a positive number/);
  delete limits.maxDepth;
  limits.maxIterations = 10;
  expect((await run(loop, { limits })).ok).toBe(false);
  // Inherited keys are never read as limits, even on an object whose prototype has one.
  const inherited = Object.create({ maxIterations: 1 }) as Record<string, unknown>;
  inherited.timeoutMs = 1000;
  expect((await run(loop, { limits: inherited })).ok).toBe(true);
  expect((await run(loop, { limits: inherited })).ok).toBe(true);
});
