/**
 * Unknown option keys of the isolation entry points are refused, as `createSession`'s, `limits`'
 * and the agent's are: from plain JavaScript, where TypeScript cannot help, `limits` given to
 * `createIsolatedSession` was dropped without a word, and every program of the session then ran
 * under the default limits, not the ones the host asked for.
 */
import { describe, expect, it } from "vitest";
import { builtWorker } from "./__fixtures__/built-worker.js";
import { isolatedRunner, isolatedRunnerFactory, isolatedSessionFactory } from "./isolated.js";

const { workerUrl } = builtWorker();
const createIsolatedSession = isolatedSessionFactory(workerUrl);
const createIsolatedRunner = isolatedRunnerFactory(workerUrl);
const runIsolated = isolatedRunner(workerUrl);

/** Options as plain JavaScript may pass them: any keys. */
const loose = (options: Record<string, unknown>) => options as never;

describe("isolation entry points refuse unknown options", () => {
  it("createIsolatedSession({ limits }) says limits belong to each run", () => {
    expect(() => createIsolatedSession(loose({ limits: { timeoutMs: 50 } }))).toThrow(
      expect.objectContaining({
        code: "PTC_LISP_INVALID_OPTIONS",
        message:
          'unknown createIsolatedSession option "limits": limits is an option of each program, as in session.run(source, { limits }); the options are heapMb and reuseContext',
      }),
    );
  });

  it("createIsolatedRunner({ heapMB }) names the key and the nearest option", () => {
    expect(() => createIsolatedRunner(loose({ heapMB: 64 }))).toThrow(
      expect.objectContaining({
        code: "PTC_LISP_INVALID_OPTIONS",
        message:
          'unknown createIsolatedRunner option "heapMB" (did you mean "heapMb"?); the options are heapMb and reuseContext',
      }),
    );
  });

  it("runIsolated rejects an unknown key of its options", async () => {
    await expect(runIsolated("1", loose({ limit: { timeoutMs: 50 } }))).rejects.toMatchObject({
      code: "PTC_LISP_INVALID_OPTIONS",
      message: expect.stringMatching(
        /^unknown runIsolated option "limit" \(did you mean "limits"\?\); the options are .*heapMb/,
      ),
    });
  });

  it("a session's and a runner's run reject an unknown key, and stay usable", async () => {
    const session = createIsolatedSession();
    const runner = createIsolatedRunner();
    try {
      await expect(session.run("1", loose({ timeoutMs: 50 }))).rejects.toMatchObject({
        code: "PTC_LISP_INVALID_OPTIONS",
        message: expect.stringMatching(
          /^unknown run option "timeoutMs": timeoutMs is a limit, as in \{ limits: \{ timeoutMs \} \}; the options are /,
        ),
      });
      await expect(runner.run("1", loose({ contexts: {} }))).rejects.toMatchObject({
        code: "PTC_LISP_INVALID_OPTIONS",
        message: expect.stringMatching(/^unknown run option "contexts" \(did you mean "context"\?\)/),
      });
      expect(session.status).toBe("ready");
      expect(await session.run("(+ 1 2)")).toMatchObject({ ok: true, value: 3 });
      expect(await runner.run("(+ 1 2)")).toMatchObject({ ok: true, value: 3 });
    } finally {
      await session.close();
      await runner.close();
    }
  });

  it("known options, and an unknown key set to undefined, are accepted", async () => {
    const session = createIsolatedSession(loose({ heapMb: 64, reuseContext: true, other: undefined }));
    try {
      expect(
        await session.run("(+ 1 2)", loose({ limits: { timeoutMs: 5000 }, other: undefined })),
      ).toMatchObject({
        ok: true,
        value: 3,
      });
    } finally {
      await session.close();
    }
  });
});
