/**
 * createIsolatedRunner: one worker for programs that bring their own, host-held Session, as `run`
 * takes one. The session behaves as after `run`; functions it holds stay callable in later runs.
 */
import { describe, expect, it } from "vitest";
import { format } from "../format/format.js";
import { run } from "../run.js";
import { createSession } from "../session.js";
import { builtWorker } from "./__fixtures__/built-worker.js";
import { isolatedRunnerFactory } from "./isolated.js";

const { workerUrl } = builtWorker();
const createIsolatedRunner = isolatedRunnerFactory(workerUrl);

/** Stuck inside one regex search over 2 MB: only terminate() stops it at the deadline. */
const STUCK_PROGRAM = '(re-find #"[ab]{300}d" data/text)';
const stuckContext = () => ({ text: `d${"ab".repeat(1_000_000)}` });

describe("createIsolatedRunner", () => {
  it("leaves the session as run does: defs, functions, *1, the journal", async () => {
    const runner = createIsolatedRunner();
    const local = createSession({ journal: {} });
    const isolated = createSession({ journal: {} });
    const programs = [
      '(def rate 3) (defn triple [x] (* rate x)) (task "t1" (triple 2))',
      "(def m {:f triple}) (triple 5)",
      "[((:f m) 1) *1 (get (budget/remaining) :k)]",
    ];
    try {
      for (const program of programs) {
        const expected = await run(program, { session: local, budget: { k: 1 } });
        const actual = await runner.run(program, { session: isolated, budget: { k: 1 } });
        expect(actual.ok).toBe(expected.ok);
        expect(format(actual.ok ? actual.value : actual.error.message)).toBe(
          format(expected.ok ? expected.value : expected.error.message),
        );
      }
      expect(isolated.names()).toEqual(local.names());
      expect(format(isolated.history())).toBe(format(local.history()));
      expect(isolated.journalEntries()).toEqual(local.journalEntries());
      expect(format(isolated.get("triple"))).toBe("#fn[x]");
    } finally {
      await runner.close();
    }
  });

  it("keeps the journal as run does when a program resets and records tasks again", async () => {
    const runner = createIsolatedRunner();
    const local = createSession({ journal: { a: 1, b: 2 } });
    const isolated = createSession({ journal: { a: 1, b: 2 } });
    const programs = [
      '(task-reset "a") :reset',
      '[(task "a" 5) (task "c" 3)]',
      '(task-reset "b") (task "b" 9)',
      '[(task "a" 0) (task "b" 0) (task "c" 0)]',
    ];
    try {
      for (const program of programs) {
        const expected = await run(program, { session: local });
        const actual = await runner.run(program, { session: isolated });
        expect(actual.ok && format(actual.value)).toBe(expected.ok && format(expected.value));
        // Same entries, same values, same order.
        expect(Object.entries(isolated.journalEntries())).toEqual(Object.entries(local.journalEntries()));
      }
    } finally {
      await runner.close();
    }
  });

  it("blames a definition too deep to copy back, not the program's value, and changes nothing", async () => {
    const runner = createIsolatedRunner();
    const session = createSession({ bindings: { kept: 1 } });
    try {
      const result = await runner.run(
        "(def deep (loop [v [] i 0] (if (< i 1000) (recur [v] (inc i)) v))) :small",
        {
          session,
        },
      );
      expect(!result.ok && result.error.reason).toBe("recursion_limit_exceeded");
      const message = result.ok ? "" : result.error.message;
      expect(message).toMatch(
        /^the session's state \(its defs, \*1 \*2 \*3 and task results\) could not be copied out of its isolated worker/,
      );
      expect(message).not.toMatch(/keep a large one in a def/);
      expect(session.bindings()).toEqual({ kept: 1 });
      expect(session.history()).toEqual([]);
    } finally {
      await runner.close();
    }
  });

  it("changes nothing in the session when a program fails", async () => {
    const runner = createIsolatedRunner();
    const session = createSession({ bindings: { kept: 1 } });
    try {
      const failed = await runner.run("(def kept 2) (def other 3) (undefined-fn)", { session });
      expect(failed.ok).toBe(false);
      expect(session.bindings()).toEqual({ kept: 1 });
      expect(session.history()).toEqual([]);
    } finally {
      await runner.close();
    }
  });

  it("holds the session busy while a program runs in the worker", async () => {
    const runner = createIsolatedRunner();
    const session = createSession();
    let release: (value: unknown) => void = () => undefined;
    let entered: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (entered = resolve));
    const tools = {
      wait: () => {
        entered();
        return new Promise((resolve) => (release = resolve));
      },
    };
    try {
      const first = runner.run("(tool/wait {})", { session, tools });
      await waiting;
      await expect(run("1", { session })).rejects.toThrow(/already running a program/);
      await expect(runner.run("1")).rejects.toThrow(/already running a program/);
      release("done");
      expect((await first).ok).toBe(true);
      expect((await run("*1", { session })).ok).toBe(true);
    } finally {
      await runner.close();
    }
  });

  it("after a hard stop, runs on a fresh worker; functions defined before say they were lost", async () => {
    const runner = createIsolatedRunner();
    const session = createSession();
    try {
      expect((await runner.run("(def n 2) (defn twice [x] (* n x))", { session })).ok).toBe(true);
      const stopped = await runner.run(STUCK_PROGRAM, {
        session,
        context: stuckContext(),
        // A second, not less: on a loaded machine a shorter limit can pass before the stuck call
        // starts, and the worker then stops itself (no hard stop, nothing lost).
        limits: { timeoutMs: 1000 },
      });
      expect(!stopped.ok && stopped.error.reason).toBe("timeout");
      expect(runner.status).toBe("ready");
      const data = await runner.run("(* n 5)", { session });
      expect(data.ok && data.value).toBe(10);
      const lost = await runner.run("(twice 5)", { session });
      expect(lost.ok).toBe(false);
      expect(!lost.ok && lost.error.message).toMatch(
        /twice was defined in another isolated worker.*define it again/,
      );
    } finally {
      await runner.close();
    }
    await expect(runner.run("1")).rejects.toThrow(/closed/);
  });

  it("a function a program defined on the host says so when an isolated program calls it", async () => {
    const runner = createIsolatedRunner();
    const session = createSession();
    try {
      expect((await run("(defn f [x] (* 2 x)) (def m {:g f})", { session })).ok).toBe(true);
      for (const program of ["(f 3)", "((:g m) 3)"]) {
        const result = await runner.run(program, { session });
        expect(!result.ok && result.error.reason).toBe("not_callable");
        expect(!result.ok && result.error.message).toBe(
          "the function f comes from a program run on the host, outside this isolated worker, and cannot be called in it; define it again in an isolated program",
        );
      }
    } finally {
      await runner.close();
    }
  });

  it("a function of the session cannot be called on the host", async () => {
    const runner = createIsolatedRunner();
    const session = createSession();
    try {
      await runner.run("(defn f [x] x)", { session });
      const f = session.get("f") as () => unknown;
      expect(() => f()).toThrow(/lives in an isolated worker and cannot be called on the host/);
    } finally {
      await runner.close();
    }
  });

  it("with reuseContext, copies a context entry again only when it is another value", async () => {
    const reusing = createIsolatedRunner({ reuseContext: true });
    const copying = createIsolatedRunner();
    const rows = [1, 2, 3];
    const program = "[(count data/rows) data/n]";
    try {
      for (const runner of [reusing, copying]) await runner.run(program, { context: { rows, n: 1 } });
      rows.push(4); // changed in place: the reusing worker still holds its copy
      const [reused, copied] = await Promise.all(
        [reusing, copying].map((runner) => runner.run(program, { context: { rows, n: 2 } })),
      );
      expect(reused?.ok && reused.value).toEqual([3, 2]);
      expect(copied?.ok && copied.value).toEqual([4, 2]);
      const renewed = await reusing.run(program, { context: { rows: [...rows] } });
      expect(renewed.ok && renewed.value).toEqual([4, null]);
    } finally {
      await reusing.close();
      await copying.close();
    }
  });
});
