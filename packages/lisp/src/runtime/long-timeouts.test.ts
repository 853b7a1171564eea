/**
 * Time limits past what a timer holds. JavaScript timers keep their delay in a signed 32-bit
 * integer: past 2^31-1 ms (about 24.8 days) Node fires them after 1 ms. `Infinity` is a valid
 * limit ("none"), and so is any number past that; a program waiting on a tool must then wait.
 */
import { describe, expect, it } from "vitest";
import { run } from "../index.js";

const TOO_LONG_FOR_A_TIMER = 3_000_000_000; // about 35 days
const tools = { slow: () => new Promise<number>((done) => setTimeout(() => done(42), 30)) };

describe("a time limit longer than a timer holds", () => {
  for (const value of [TOO_LONG_FOR_A_TIMER, Number.POSITIVE_INFINITY]) {
    it(`timeoutMs ${value}: a program waits for its tool`, async () => {
      const result = await run("(tool/slow {})", { tools, limits: { timeoutMs: value } });
      expect(result.ok && result.value).toBe(42);
    });

    it(`parallelTimeoutMs ${value}: a pmap waits for its tools`, async () => {
      const result = await run("(pmap (fn [_] (tool/slow {})) [1 2])", {
        tools,
        limits: { parallelTimeoutMs: value },
      });
      expect(result.ok && result.value).toEqual([42, 42]);
    });
  }
});

describe("a time limit longer than a timer holds, in an isolated worker", () => {
  it("timeoutMs 3e9: the host's watchdog lets the program wait for its tool", async () => {
    const { builtWorker } = await import("../node/__fixtures__/built-worker.js");
    const { isolatedRunner } = await import("../node/isolated.js");
    const runIsolated = isolatedRunner(builtWorker().workerUrl);
    const result = await runIsolated("(tool/slow {})", {
      tools,
      limits: { timeoutMs: TOO_LONG_FOR_A_TIMER },
    });
    expect(result.ok && result.value).toBe(42);
  });
});
