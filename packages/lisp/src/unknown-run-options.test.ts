/**
 * `run` refuses an unknown key of its options, as `createSession`, `limits` and the agent's
 * options do: from plain JavaScript a misspelled `limit` (or a limit given at the top level) was
 * dropped without a word, and the program ran under the default limits.
 */
import { describe, expect, it } from "vitest";
import { run } from "./index.js";

const loose = (options: Record<string, unknown>) => options as never;

describe("run refuses unknown options", () => {
  it("names the key and the nearest option", async () => {
    await expect(run("1", loose({ limit: { timeoutMs: 50 } }))).rejects.toMatchObject({
      code: "PTC_LISP_INVALID_OPTIONS",
      message:
        'unknown run option "limit" (did you mean "limits"?); the options are context, tools, limits, session, budget, engine, signal, ledger and pauseBefore',
    });
  });

  it("points a limit given at the top level to limits", async () => {
    await expect(run("1", loose({ maxIterations: 10 }))).rejects.toMatchObject({
      code: "PTC_LISP_INVALID_OPTIONS",
      message: expect.stringMatching(
        /^unknown run option "maxIterations": maxIterations is a limit, as in \{ limits: \{ maxIterations \} \}; /,
      ),
    });
  });

  it("accepts an unknown key set to undefined, and inherited keys", async () => {
    expect(await run("(+ 1 2)", loose({ other: undefined }))).toMatchObject({ ok: true, value: 3 });
    const inherited = Object.create({ other: 1 }) as Record<string, unknown>;
    expect(await run("(+ 1 2)", loose(inherited))).toMatchObject({ ok: true, value: 3 });
  });
});
