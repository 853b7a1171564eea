/**
 * What every limit must have, whichever it is: a row in docs/sandbox.md, a default, and the same
 * checks in `run`. A limit added to `Limits` without one of them fails here
 * (docs/contributing-limits.md).
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { DEFAULT_LIMITS, type Limits, LispError, run } from "../index.js";

const names = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];
const sandboxGuide = readFileSync(new URL("../../../../docs/sandbox.md", import.meta.url), "utf8");

describe.each(names)("the limit %s", (name) => {
  test("has a row in the limits table of docs/sandbox.md", () => {
    expect(sandboxGuide).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, "m"));
  });

  test("has a positive default", () => {
    expect(DEFAULT_LIMITS[name]).toBeGreaterThan(0);
  });

  test("is accepted by run, Infinity included, and rejected when not a positive number", async () => {
    expect((await run("(+ 1 2)", { limits: { [name]: DEFAULT_LIMITS[name] } })).ok).toBe(true);
    expect((await run("(+ 1 2)", { limits: { [name]: Number.POSITIVE_INFINITY } })).ok).toBe(true);
    for (const bad of [0, -1, Number.NaN, "10"]) {
      const rejected = run("(+ 1 2)", { limits: { [name]: bad as number } });
      await expect(rejected).rejects.toBeInstanceOf(LispError);
      await expect(rejected).rejects.toMatchObject({ code: "PTC_LISP_INVALID_OPTIONS" });
    }
  });
});

test("an unknown limit is rejected with the list of known ones", async () => {
  await expect(run("1", { limits: { maxWidgets: 3 } as Partial<Limits> })).rejects.toThrow(
    /unknown limit "maxWidgets"; known limits: timeoutMs, /,
  );
});
