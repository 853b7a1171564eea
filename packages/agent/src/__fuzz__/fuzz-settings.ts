/**
 * How the agent-boundary properties run: a few cases each in `pnpm test`, FUZZ_RUNS cases each in
 * `pnpm fuzz` (scripts/fuzz.mjs), with a seed derived from FUZZ_SEED so one printed
 * number replays every property, and FUZZ_PATH to replay one counterexample.
 *
 * It mirrors the settings of packages/lisp/src/fuzz.test.ts (the two packages share no test code:
 * `@ptc/agent` may not be imported by `@ptc/lisp`, and test helpers are not part of any API).
 */
import { writeFileSync } from "node:fs";
import type fc from "fast-check";
import { test } from "vitest";

const fuzzRuns = Number(process.env.FUZZ_RUNS ?? 0);
/** True under `pnpm fuzz`: many cases and no time limit per property. */
export const fuzzing = fuzzRuns > 0;
const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const replayPath = process.env.FUZZ_PATH;
const only = process.env.FUZZ_PROPERTY;
const heartbeatFile = process.env.FUZZ_HEARTBEAT;

/** fast-check settings for one property: `testRuns` cases in `pnpm test`, FUZZ_RUNS in `pnpm fuzz`. */
export function settings(id: string, testRuns: number): fc.Parameters<unknown> {
  // In `pnpm test` a property stops shrinking before the test's own time limit: a hang found
  // there (30 s) is still reported with the smallest case reached, not lost to a test timeout.
  const base: fc.Parameters<unknown> = fuzzing
    ? { numRuns: fuzzRuns }
    : { numRuns: testRuns, interruptAfterTimeLimit: 45_000 };
  if (seed === undefined) return base;
  // Each property gets its own seed derived from the one printed (the same hash as the lisp
  // properties use), so one number replays all.
  let hash = seed | 0;
  for (let i = 0; i < id.length; i++) hash = (Math.imul(hash, 31) + id.charCodeAt(i)) | 0;
  return replayPath === undefined ? { ...base, seed: hash } : { ...base, seed: hash, path: replayPath };
}

/**
 * A property as a test, known to `pnpm fuzz` by its id: skipped under `--property other`, and
 * without a time limit when fuzzing. `pnpm test` gives it a minute: its few cases take a second or
 * two on an idle machine, and the margin is for a loaded one.
 */
export function property(id: string, title: string, body: (id: string) => Promise<void>): void {
  const skip = only !== undefined && only !== id;
  (skip ? test.skip : test)(
    `${title} [${id}]`,
    async () => {
      const started = performance.now();
      await body(id);
      if (fuzzing) {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(
          replayPath === undefined
            ? `fuzz: ${id}: ${fuzzRuns} cases passed in ${seconds} s`
            : `fuzz: ${id}: the case at path ${replayPath} passed`,
        );
      }
    },
    fuzzing ? 24 * 3600_000 : 60_000,
  );
}

/**
 * Under `pnpm fuzz`, writes the case about to run to the heartbeat file. A case that blocks the
 * thread (a synchronous endless walk) cannot be stopped from inside the process, nor can
 * fast-check report it; the runner sees the file stop changing, stops the process and prints
 * the case from the file.
 */
export function heartbeat(recipe: unknown): void {
  if (heartbeatFile === undefined) return;
  writeFileSync(
    heartbeatFile,
    JSON.stringify(recipe, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value)),
  );
}
