/**
 * Programs that used to take the whole host process down under isolation. Each case runs in a
 * child Node process on the built entry point, so a host crash fails the test (a non-zero exit, a
 * V8 fatal error on stderr) instead of killing the test runner.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { builtWorker } from "./__fixtures__/built-worker.js";

const { indexUrl } = builtWorker();

/** Runs `body` (ES module code with runIsolated & co. in scope) in a child Node; returns its JSON output. */
function inChild(
  body: string,
  flags: string[] = [],
): { status: number | null; output: unknown; stderr: string } {
  const script = `
    const { runIsolated, createIsolatedSession, createIsolatedRunner } = await import(${JSON.stringify(indexUrl)});
    const out = await (async () => { ${body} })();
    console.log(JSON.stringify(out));
  `;
  const child = spawnSync(process.execPath, [...flags, "--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 240_000,
  });
  let output: unknown;
  try {
    output = JSON.parse(child.stdout);
  } catch {
    output = child.stdout;
  }
  return { status: child.status, output, stderr: child.stderr };
}

const raised = `{ maxMemoryBytes: Number.POSITIVE_INFINITY, timeoutMs: 120_000 }`;

describe("a program that exhausts memory under isolation", () => {
  it("ends as memory_exceeded with the host alive, however it grows", { timeout: 300_000 }, () => {
    // pr-str doubles its escapes each round: one regex over a text of ~10^8 quotes was a V8 fatal
    // error. The others grow one array or string past the heap in steps V8 cannot interrupt.
    const child = inChild(`
      const programs = [
        '(count (reduce (fn [s _] (pr-str s)) "a" (range 28)))',
        '(count (reduce (fn [s _] (str s s)) "a" (range 40)))',
        '(count (into [] (range 30000000)))',
      ];
      const reasons = [];
      for (const program of programs) {
        const result = await runIsolated(program, { heapMb: 64, limits: ${raised} });
        reasons.push(result.ok ? "ok" : result.error.reason);
      }
      const after = await runIsolated("(+ 1 2)");
      return { reasons, after: after.ok && after.value };
    `);
    expect(child.stderr).not.toMatch(/FATAL|Fatal/);
    expect(child.status).toBe(0);
    expect(child.output).toEqual({
      reasons: ["memory_exceeded", "memory_exceeded", "memory_exceeded"],
      after: 3,
    });
  });

  it("says the worker's share of the heap capped the budget the host raised", { timeout: 120_000 }, () => {
    const child = inChild(`
      const result = await runIsolated('(count (into [] (range 30000000)))', { heapMb: 64, limits: ${raised} });
      return result.ok ? "ok" : result.error.message;
    `);
    expect(child.status).toBe(0);
    expect(child.output).toMatch(/at most a quarter of the worker's heap cap of 64 MB/);
  });
});

describe("a host started with V8 flags", () => {
  it("can still start workers: --max-old-space-size is not passed on to them", { timeout: 60_000 }, () => {
    const child = inChild(
      `
      const session = createIsolatedSession();
      const first = await session.run("(def x 40) (+ x 1)");
      await session.close();
      const once = await runIsolated("(* 6 7)");
      return [first.ok && first.value, once.ok && once.value];
    `,
      ["--max-old-space-size=512", "--stack-size=2000"],
    );
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(child.output).toEqual([41, 42]);
  });
});
