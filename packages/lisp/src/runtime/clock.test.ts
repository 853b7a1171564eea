import { afterEach, describe, expect, it, vi } from "vitest";
import { now } from "./clock.js";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the runtime's clock", () => {
  it("reads process.hrtime where there is one, in milliseconds", () => {
    const hrtime = Object.assign((): [number, number] => [12, 345_000_000], {
      bigint: process.hrtime.bigint,
    });
    const real = process.hrtime;
    process.hrtime = hrtime as typeof process.hrtime;
    try {
      expect(now()).toBe(12_345);
    } finally {
      process.hrtime = real;
    }
  });

  it("moves forward with real time", async () => {
    const before = now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(now() - before).toBeGreaterThanOrEqual(15);
  });

  it("reads performance.now() where there is no process (browsers, edge runtimes)", () => {
    vi.stubGlobal("process", undefined);
    vi.stubGlobal("performance", { now: () => 42.5 });
    const read = now();
    vi.unstubAllGlobals();
    expect(read).toBe(42.5);
  });

  it("falls back to Date.now() in a realm with neither", () => {
    vi.stubGlobal("process", undefined);
    vi.stubGlobal("performance", undefined);
    const read = now();
    const wall = Date.now();
    vi.unstubAllGlobals();
    expect(Math.abs(read - wall)).toBeLessThan(1000);
  });
});
