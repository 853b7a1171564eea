import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { writeStandIns } from "../__tests__/stand-ins.js";

let folder: string;
let path: string | undefined;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "ptc-mcp-quickstart-"));
  path = process.env.PATH;
  // `npx` is an offline stand-in that runs the installed reference server (no network).
  process.env.PATH = `${writeStandIns(folder, "/no/cli/needed")}:${path ?? ""}`;
});
afterAll(() => {
  process.env.PATH = path;
  rmSync(folder, { recursive: true, force: true });
});

test("the README's quick start runs as written and gets the server's data", async () => {
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    const { main } = await import("./quickstart.js");
    expect(await main()).toBe('["Ada"]');
    expect(log).toHaveBeenCalledWith('["Ada"]');
  } finally {
    log.mockRestore();
  }
});

test("the README shows the quick start verbatim", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("./quickstart.ts", import.meta.url), "utf8").trim();
  expect(readme).toContain(example);
});
