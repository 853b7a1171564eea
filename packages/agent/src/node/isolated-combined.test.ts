/**
 * Combined mode's behaviour tests again, with every program in a worker thread: programs' tool
 * calls are still answered from the run's cache (the cache bridge), events and previews are the
 * same as on the host's thread.
 */
import { afterAll, expect, vi } from "vitest";
import type { CountedIsolation } from "./__fixtures__/worker-isolation.js";

const counted = vi.hoisted((): { isolation?: CountedIsolation } => ({}));
vi.mock("../run/run-agent.js", async (importOriginal) =>
  (await import("./__fixtures__/worker-isolation.js")).isolateRuns(await importOriginal(), counted),
);

await import("../__tests__/combined-mode.test.js");
await import("../__tests__/combined-cache-bridge.test.js");
await import("../__tests__/combined-events.test.js");
await import("../__tests__/combined-exposure.test.js");
await import("../__tests__/combined-chat.test.js");

afterAll(() => {
  expect(counted.isolation?.opened).toBeGreaterThan(20);
  expect(counted.isolation?.closed).toBe(counted.isolation?.opened);
});
