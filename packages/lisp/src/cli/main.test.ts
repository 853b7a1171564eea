/**
 * The command as a real process (main.ts bundled by esbuild, then run by Node): what only a
 * process shows, such as the exit status when nothing but the program's own promise is pending.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let directory: string;
let command: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "ptc-lisp-main-"));
  command = join(directory, "cli.mjs");
  await build({
    entryPoints: [fileURLToPath(new URL("./main.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outfile: command,
    logLevel: "warning",
  });
  writeFileSync(join(directory, "tools.mjs"), "export function hang() { return new Promise(() => {}); }\n");
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function ptcLisp(argv: string[]) {
  return spawnSync(process.execPath, [command, ...argv], {
    cwd: directory,
    encoding: "utf8",
    timeout: 15_000,
  });
}

describe("ptc-lisp as a process", () => {
  it("ends a tool call that never settles with a timeout and status 1, not silence and status 0", () => {
    const child = ptcLisp(["-e", "(tool/hang {})", "--tools", "tools.mjs", "--timeout", "300"]);
    expect(child.stdout).toBe("");
    expect(child.stderr).toMatch(/^error\[timeout\]/);
    expect(child.status).toBe(1);
  });

  it("exits with the program's status once it is done", () => {
    expect(ptcLisp(["-e", "(+ 1 2)"])).toMatchObject({ status: 0, stdout: "3\n", stderr: "" });
    expect(ptcLisp(["-e", '(fail "no")'])).toMatchObject({ status: 1, stdout: "" });
  });
});
