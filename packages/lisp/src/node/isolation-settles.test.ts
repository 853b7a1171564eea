/**
 * Every isolated run settles, whatever the worker does: a result it cannot hand back, a message
 * the host cannot read or does not understand, a crash, an exit, silence. A stand-in worker
 * (__fixtures__/fake-worker.mjs) misbehaves on cue for the cases the real one never shows.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { RunResult } from "../run.js";
import { builtWorker } from "./__fixtures__/built-worker.js";
import { isolatedRunner, isolatedSessionFactory } from "./isolated.js";

const { workerUrl } = builtWorker();
const runIsolated = isolatedRunner(workerUrl);
const createIsolatedSession = isolatedSessionFactory(workerUrl);
const fakeWorkerUrl = new URL("./__fixtures__/fake-worker.mjs", import.meta.url);

/** A value nested 3,000 maps deep: the program builds it in an instant, the host's stack cannot receive it. */
const DEEP_RESULT = "(reduce (fn [v _] {:a v}) {} (range 3000))";

function failure(result: RunResult) {
  if (result.ok) throw new Error(`expected a failure, got ${String(result.value)}`);
  return result.error;
}

describe("a result the host cannot receive", () => {
  it("ends the run as recursion_limit_exceeded instead of never settling", async () => {
    const error = failure(await runIsolated(DEEP_RESULT));
    expect(error.reason).toBe("recursion_limit_exceeded");
    expect(error.message).toMatch(/could not be copied out of its isolated worker.*nested more than 400/);
  });

  it("leaves an isolated session as it was before that program", async () => {
    const session = createIsolatedSession();
    try {
      await session.run("(def kept 1)");
      const error = failure(await session.run(`(def kept 2) (def deep ${DEEP_RESULT}) deep`));
      expect(error.reason).toBe("recursion_limit_exceeded");
      expect(session.status).toBe("ready");
      const kept = await session.run("kept");
      expect(kept.ok && kept.value).toBe(1);
      expect(failure(await session.run("deep")).reason).toBe("unbound_var");
    } finally {
      await session.close();
    }
  });

  it("works when the deep value stays in the worker and only a part comes out", async () => {
    const session = createIsolatedSession();
    try {
      const kept = await session.run(`(def deep ${DEEP_RESULT}) (count (keys deep))`);
      expect(kept.ok && kept.value).toBe(1);
    } finally {
      await session.close();
    }
  });
});

describe("a worker that misbehaves", () => {
  const run = isolatedRunner(fakeWorkerUrl);
  // Long enough for a worker to boot on a loaded machine, short enough for a test.
  const stalled = { transferTimeoutMs: 2000 };

  it("a message the host cannot deserialize ends the run, and the worker", async () => {
    const error = failure(await run("unreadable"));
    expect(error.reason).toBe("execution_error");
    expect(error.message).toMatch(/message from the isolated worker could not be read on the host/);
  });

  it("a message that is not an object ends the run as a broken worker", async () => {
    const error = failure(await run("garbage"));
    expect(error.message).toMatch(/stopped unexpectedly.*does not understand/);
  });

  it("a message of a type the host does not know ends the run as a broken worker", async () => {
    const error = failure(await run("bogus"));
    expect(error.message).toMatch(/does not understand/);
  });

  it("a result that is not a run result is reported, not returned", async () => {
    const error = failure(await run("not-a-result"));
    expect(error.reason).toBe("execution_error");
    expect(error.message).toMatch(/result could not be read on the host.*not a RunResult/);
  });

  it("a worker that exits mid-run ends the run with its exit code", async () => {
    const error = failure(await run("exit"));
    expect(error.reason).toBe("execution_error");
    expect(error.message).toMatch(/stopped unexpectedly.*exit code 7/);
  });

  it("a worker that throws mid-run ends the run with what it threw", async () => {
    const error = failure(await run("throw"));
    expect(error.message).toMatch(/stopped unexpectedly.*the fake worker broke down/);
  });

  it("a worker that says it finished but never hands the result over is stopped", async () => {
    const error = failure(await run("finished-silent", stalled));
    expect(error.reason).toBe("execution_error");
    expect(error.message).toMatch(/did not hand the result back within 2 s/);
  });

  it("a worker that never starts the program is stopped", async () => {
    const error = failure(await run("silent", stalled));
    expect(error.message).toMatch(/did not start the program within 2 s/);
  });

  it("a cancel reaches a worker that never started the program", async () => {
    const controller = new AbortController();
    const pending = run("silent", { signal: controller.signal });
    controller.abort();
    const error = failure(await pending);
    expect(error.reason).toBe("aborted");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a session whose worker broke says why, and restarts", async () => {
    const session = isolatedSessionFactory(fakeWorkerUrl)({ workerUrl: fakeWorkerUrl });
    try {
      failure(await session.run("exit"));
      expect(session.status).toBe("lost");
      await expect(session.run("(+ 1 2)")).rejects.toThrow(
        /lost its state: its worker stopped unexpectedly with exit code 7/,
      );
    } finally {
      await session.close();
    }
  });
});

describe("a worker that cannot start", () => {
  it("makes createIsolatedSession return a session whose runs reject, instead of throwing", async () => {
    // A relative path that is not ./ or ../ : the Worker constructor throws synchronously.
    const session = createIsolatedSession({ workerUrl: "not/a/worker/path.js" });
    expect(session.status).toBe("lost");
    await expect(session.run("(+ 1 2)")).rejects.toThrow(/could not start the isolated worker/);
    await session.close();
  });

  it("makes runIsolated reject with a LispError", async () => {
    await expect(runIsolated("1", { workerUrl: "not/a/worker/path.js" })).rejects.toMatchObject({
      code: "PTC_LISP_EXECUTION_ERROR",
      message: expect.stringMatching(/could not start the isolated worker/),
    });
  });
});

describe("closing a worker while its program waits on a tool", () => {
  it("ends the run, and the tool's late answer goes nowhere", async () => {
    const session = createIsolatedSession();
    let entered: () => void = () => undefined;
    let answer: (value: unknown) => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (entered = resolve));
    const tools = {
      slow: () => {
        entered();
        return new Promise((resolve) => (answer = resolve));
      },
    };
    const pending = session.run("(tool/slow {})", { tools, limits: { timeoutMs: 60_000 } });
    await waiting;
    await session.close();
    const error = failure(await pending);
    expect(error.message).toMatch(/closed while the program was running/);
    answer("too late");
    expect(session.status).toBe("closed");
    await expect(session.run("1")).rejects.toThrow(/closed/);
  });
});

describe("the signal's listener", () => {
  it("is removed when the run settles, so one signal can serve many runs", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) {
      const result = await runIsolated("(+ 1 2)", { signal: controller.signal });
      expect(result.ok).toBe(true);
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("is one for many runs at once on the same signal, and a cancel still reaches each", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const controller = new AbortController();
      // Workers that never start their program: each run waits until the signal fires.
      const run = isolatedRunner(fakeWorkerUrl);
      const pending = Array.from({ length: 12 }, () => run("silent", { signal: controller.signal }));
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
      controller.abort();
      for (const result of await Promise.all(pending)) expect(failure(result).reason).toBe("aborted");
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
