/**
 * The PTC-Lisp mode's behaviour tests again, with every run's programs in a worker thread
 * (createWorkerIsolation): the same steps, answers, memory, tool calls and errors as on the
 * host's thread.
 */
import { afterAll, expect, vi } from "vitest";
import type { CountedIsolation } from "./__fixtures__/worker-isolation.js";

const counted = vi.hoisted((): { isolation?: CountedIsolation } => ({}));
vi.mock("../run/run-agent.js", async (importOriginal) =>
  (await import("./__fixtures__/worker-isolation.js")).isolateRuns(await importOriginal(), counted),
);

await import("../__tests__/ptc-content-loop.test.js");
await import("../__tests__/ptc-tool-call-transport.test.js");
await import("../__tests__/ptc-budgets.test.js");

afterAll(() => {
  expect(counted.isolation?.opened).toBeGreaterThan(50);
  expect(counted.isolation?.closed).toBe(counted.isolation?.opened);
});
