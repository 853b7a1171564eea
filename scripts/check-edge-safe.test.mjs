// The entry check of `lint:package` (check-edge-safe.mjs) must catch what breaks a browser or an
// edge runtime, and let through what does not.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { checkEntries, scanModule } from "./check-edge-safe.mjs";

const problemsOf = (text) => scanModule(text).problems.map((problem) => problem.what);

describe("scanModule", () => {
  test.each([
    ['import { readFileSync } from "node:fs";', 'imports the Node built-in "node:fs"'],
    ['import { readFile } from "fs/promises";', 'imports the Node built-in "fs/promises"'],
    ['export { Worker } from "worker_threads";', 'imports the Node built-in "worker_threads"'],
    ['const w = await import("node:worker_threads");', 'imports the Node built-in "node:worker_threads"'],
    ["const mode = process.env.MODE;", "uses the Node global `process`"],
    ['const bytes = Buffer.from("x");', "uses the Node global `Buffer`"],
    ['const fs = require("fs");', "uses the Node global `require`"],
    ["const here = __dirname;", "uses the Node global `__dirname`"],
    ["setImmediate(() => {});", "uses the Node global `setImmediate`"],
    ['const on = typeof process !== "undefined" && process.env.X;', "uses the Node global `process`"],
  ])("flags %s", (text, what) => {
    expect(problemsOf(text)).toContain(what);
  });

  test.each([
    ["reading an optional global through globalThis", "const env = globalThis.process?.env?.MODE;"],
    ["a property of that name", "const o = { process: 1, require() {} }; o.process; o.require();"],
    ["a parameter of that name", "function f(process, { Buffer }) { return process.env + Buffer; }"],
    ["a local of that name", "let module = 1; module += 1;"],
    ["the names in text", 'const s = "process.env and require(\\"fs\\")"; // Buffer'],
    ["relative imports and packages", 'import { run } from "./run.js"; import re from "re2js";'],
  ])("lets through %s", (_name, text) => {
    expect(problemsOf(text)).toEqual([]);
  });

  test("lists the relative modules a file imports, statically and dynamically", () => {
    const { imports } = scanModule('import "./a.js"; export * from "./b.js"; await import("./c.js");');
    expect(imports).toEqual(["./a.js", "./b.js", "./c.js"]);
  });
});

describe("checkEntries", () => {
  test("follows relative imports from the entry to the file that uses Node, with its position", () => {
    const dir = mkdtempSync(join(tmpdir(), "edge-safe-"));
    writeFileSync(join(dir, "index.js"), 'export { run } from "./chunk-ABC.js";\n');
    writeFileSync(join(dir, "chunk-ABC.js"), 'import "./leaf.js";\nexport const run = () => 1;\n');
    writeFileSync(join(dir, "leaf.js"), '\nimport { cpus } from "node:os";\nexport const n = cpus;\n');
    const found = checkEntries([join(dir, "index.js")]);
    expect(found).toEqual([
      expect.objectContaining({
        file: join(dir, "leaf.js"),
        at: "2:22",
        what: 'imports the Node built-in "node:os"',
      }),
    ]);
  });

  test("reports a missing entry instead of passing", () => {
    const found = checkEntries([join(tmpdir(), "no-such-dir-for-edge-safe", "index.js")]);
    expect(found[0]?.what).toMatch(/missing: build the package first/);
  });
});
