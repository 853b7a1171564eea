/**
 * The robustness tests again, with every program in a worker thread: nested agents (each child
 * run gets a worker of its own), cancellation, tool faults, events, nothing lost on failure.
 */
import { afterAll, expect, vi } from "vitest";
import type { CountedIsolation } from "./__fixtures__/worker-isolation.js";

const counted = vi.hoisted((): { isolation?: CountedIsolation } => ({}));
vi.mock("../run/run-agent.js", async (importOriginal) =>
  (await import("./__fixtures__/worker-isolation.js")).isolateRuns(await importOriginal(), counted),
);

await import("../__tests__/robust-nested.test.js");
await import("../__tests__/robust-abort.test.js");
await import("../__tests__/robust-tool-faults.test.js");
await import("../__tests__/robust-nothing-lost.test.js");
await import("../__tests__/robust-events.test.js");

afterAll(() => {
  expect(counted.isolation?.opened).toBeGreaterThan(20);
  expect(counted.isolation?.closed).toBe(counted.isolation?.opened);
});
