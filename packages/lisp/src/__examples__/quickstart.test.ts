import { readFileSync } from "node:fs";
import { expect, test, vi } from "vitest";
import { main } from "./quickstart.js";

test("the README's quick start runs as written and answers from the tool's data", async () => {
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    expect(await main()).toEqual({ customer: "ada", total: 150 });
    expect(log).toHaveBeenCalledWith('{:customer "ada" :total 150}');
  } finally {
    log.mockRestore();
  }
});

test("the README shows the quick start verbatim", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("./quickstart.ts", import.meta.url), "utf8").trim();
  expect(readme).toContain(example);
});
