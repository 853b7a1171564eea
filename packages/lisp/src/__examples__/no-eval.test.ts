import { readFileSync } from "node:fs";
import { expect, test, vi } from "vitest";
import { fastTierStats } from "../compiler/fast-tier.js";
import { main } from "./no-eval.js";

test("docs/edge.md's no-eval example runs as written, and generates nothing", async () => {
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    expect(await main()).toBe("5");
    expect(log).toHaveBeenCalledWith("5", "off");
    expect(fastTierStats).toMatchObject({ probes: 0, unitsGenerated: 0, fieldReaders: 0 });
  } finally {
    log.mockRestore();
  }
});

test("docs/edge.md shows the example verbatim", () => {
  const guide = readFileSync(new URL("../../../../docs/edge.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("./no-eval.ts", import.meta.url), "utf8").trim();
  expect(guide).toContain(example);
});
