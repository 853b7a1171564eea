import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { format } from "../format/format.js";
import type { RunResult } from "../run.js";
import { run } from "../run.js";
import { Keyword } from "../values/keyword.js";
import { LispMap } from "../values/lisp-map.js";
import { LispSet } from "../values/lisp-set.js";
import { WholeFloat } from "../values/numbers.js";
import { builtWorker } from "./__fixtures__/built-worker.js";
import { isolatedRunner, isolatedSessionFactory } from "./isolated.js";

const { directory, workerUrl } = builtWorker();
const runIsolated = isolatedRunner(workerUrl);
const createIsolatedSession = isolatedSessionFactory(workerUrl);

function successValue(result: RunResult): unknown {
  if (!result.ok) throw new Error(`${result.error.reason}: ${result.error.message}`);
  return result.value;
}

/**
 * Stuck inside one builtin call: a single regex search is never interrupted, and RE2's linear
 * time has a constant that grows with the pattern (`[ab]{300}d` over 2 MB takes seconds).
 */
/**
 * Stays inside one call of RE2 for about 18 s. Its runs get a limit of a second: with less, a
 * loaded machine can spend the limit before the call starts, and the worker then reports its own
 * timeout at its next check instead of being terminated, which is what these tests are about.
 */
const STUCK_PROGRAM = '(re-find #"[ab]{300}d" data/text)';
const STUCK_LIMITS = { timeoutMs: 1000 };
const stuckContext = () => ({ text: `d${"ab".repeat(1_000_000)}` });

/**
 * Keeps every result of a tool until the heap is full. Host data is not charged to the program's
 * memory budget (which a worker caps at a quarter of its heap), so it is the heap cap that stops it.
 */
const HEAP_BOMB = "(loop [acc [] i 0] (recur (conj acc (tool/rows {})) (inc i)))";
const heapBombTools = {
  rows: () => Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `row-${i}`, tags: ["a", "b"] })),
};
const unlimited = {
  maxIterations: Number.POSITIVE_INFINITY,
  maxMemoryBytes: Number.POSITIVE_INFINITY,
  timeoutMs: 60_000,
};

const ABORTED_MESSAGE = "the run was cancelled (its AbortSignal fired)";

/** A tool that reports when it is entered and never answers. */
function hangingTool() {
  let entered: () => void = () => undefined;
  const waiting = new Promise<void>((resolve) => (entered = resolve));
  const hang = () => {
    entered();
    return new Promise(() => undefined);
  };
  return { waiting, hang };
}

async function expectHostHealthy(): Promise<void> {
  expect(successValue(await run("(+ 1 2)"))).toBe(3);
  expect(successValue(await runIsolated("(* 6 7)", { workerUrl }))).toBe(42);
}

describe("runIsolated", () => {
  it("returns the value, prints and definitions of a program", async () => {
    const result = await runIsolated('(println "hello" 1.5) (def x 2) (+ x data/n)', { context: { n: 40 } });
    expect(result.ok).toBe(true);
    expect(successValue(result)).toBe(42);
    expect(result.prints).toEqual(["hello 1.5"]);
    expect(result.ok && result.defined).toEqual(["x"]);
  });

  it("returns values of the same types as run", async () => {
    const source = '[:k 2.0 12345678901234567890 {:a #{1 2} "s" [nil true]} #"a+" #{:x}]';
    const local = successValue(await run(source)) as unknown[];
    const isolated = successValue(await runIsolated(source)) as unknown[];
    expect(format(isolated)).toBe(format(local));
    expect(isolated[0]).toBe(Keyword.of("k"));
    expect(isolated[1]).toBeInstanceOf(WholeFloat);
    expect(typeof isolated[2]).toBe("bigint");
    expect(isolated[3]).toBeInstanceOf(LispMap);
    expect(isolated[5]).toBeInstanceOf(LispSet);
  });

  it("returns host data from the context as plain data", async () => {
    const orders = JSON.parse('[{"id": 1, "__proto__": {"x": 1}}, {"id": 2}]');
    const result = await runIsolated("data/orders", { context: { orders } });
    const copy = successValue(result) as Array<Record<string, unknown>>;
    expect(copy).toEqual(orders);
    expect(Object.hasOwn(copy[0] as object, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(copy[0])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("reports program errors as run does, with reason and position", async () => {
    const local = await run("(+ 1\n  undefined-thing)");
    const isolated = await runIsolated("(+ 1\n  undefined-thing)");
    expect(isolated.ok).toBe(false);
    expect(!isolated.ok && isolated.error).toEqual(!local.ok && local.error);
  });

  it("keeps the value given to fail", async () => {
    const result = await runIsolated("(fail {:code :not-found})");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("fail");
    expect(format(result.error.value)).toBe("{:code :not-found}");
  });

  it("runs the program's own cooperative limits inside the worker", async () => {
    const result = await runIsolated("(loop [i 0] (recur (inc i)))", { limits: { maxIterations: 50 } });
    expect(!result.ok && result.error.reason).toBe("loop_limit_exceeded");
  });

  it("rejects bad options like run does", async () => {
    await expect(runIsolated("1", { limits: { timeoutMs: -1 } })).rejects.toThrow(/timeoutMs/);
    await expect(runIsolated("1", { heapMb: 1 })).rejects.toThrow(/heapMb/);
    await expect(runIsolated("1", { context: [] as unknown as Record<string, unknown> })).rejects.toThrow(
      /plain object/,
    );
  });

  it("rejects when the worker module cannot be started", async () => {
    const missing = pathToFileURL(join(directory, "missing-worker.js"));
    await expect(runIsolated("1", { workerUrl: missing })).rejects.toThrow(
      /could not start the isolated worker/,
    );
  });
});

describe("runIsolated: tools run in the host", () => {
  it("proxies synchronous and asynchronous tools and logs each call", async () => {
    const seen: unknown[] = [];
    const tools = {
      lookup: (args: Record<string, unknown>) => {
        seen.push(args);
        return { id: args.id, name: "Ada", tags: ["x"] };
      },
      total: async (args: Record<string, unknown>) => (args.values as number[]).reduce((a, b) => a + b, 0),
    };
    const result = await runIsolated(
      "(let [user (tool/lookup {:id 7 :user-kind :admin})] [(:name user) (tool/total {:values [1 2 3]})])",
      { tools },
    );
    expect(format(successValue(result))).toBe('["Ada" 6]');
    expect(seen).toEqual([{ id: 7, user_kind: "admin" }]);
    expect(result.toolCalls.map((call) => [call.name, call.args, call.result])).toEqual([
      ["lookup", { id: 7, user_kind: "admin" }, { id: 7, name: "Ada", tags: ["x"] }],
      ["total", { values: [1, 2, 3] }, 6],
    ]);
  });

  it("turns a throwing or rejecting tool into the same tool_error as run", async () => {
    const tools = {
      broken: () => {
        throw new Error("database offline");
      },
      rejecting: async () => Promise.reject(new Error("quota exceeded")),
    };
    for (const source of ["(tool/broken {})", "(tool/rejecting {:n 1})"]) {
      const local = await run(source, { tools });
      const isolated = await runIsolated(source, { tools });
      expect(isolated.ok).toBe(false);
      expect(!isolated.ok && isolated.error).toEqual(!local.ok && local.error);
      expect(isolated.toolCalls.map((call) => call.error)).toEqual(local.toolCalls.map((call) => call.error));
    }
  });

  it("lets the program handle tool results that contain language-looking keys", async () => {
    const tools = { odd: () => ({ "\u0000ptc": "keyword", d: "x" }) };
    const result = await runIsolated('(get (tool/odd {}) "d")', { tools });
    expect(successValue(result)).toBe("x");
  });

  it("does not start a run whose signal has already fired", async () => {
    let called = false;
    const result = await runIsolated("(tool/t {})", {
      signal: AbortSignal.abort(),
      tools: { t: () => (called = true) },
    });
    expect(result).toMatchObject({ ok: false, error: { reason: "aborted", message: ABORTED_MESSAGE } });
    expect(called).toBe(false);
  });

  it("stops waiting on a tool when the signal fires, cooperatively", async () => {
    const controller = new AbortController();
    const { waiting, hang } = hangingTool();
    const pending = runIsolated("(tool/hang {})", {
      signal: controller.signal,
      tools: { hang },
      limits: { timeoutMs: 60_000 },
    });
    await waiting;
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { reason: "aborted", message: ABORTED_MESSAGE } });
    expect(result.toolCalls.map((call) => call.name)).toEqual(["hang"]);
  });

  it("times out a tool that never answers, cooperatively", async () => {
    const tools = { hang: () => new Promise(() => undefined) };
    const result = await runIsolated("(tool/hang {})", { tools, limits: { timeoutMs: 50 } });
    expect(!result.ok && result.error.reason).toBe("timeout");
    await expectHostHealthy();
  });
});

describe("runIsolated: hard stops", () => {
  it("terminates a program stuck inside one builtin call at its time limit", async () => {
    const result = await runIsolated(STUCK_PROGRAM, { context: stuckContext(), limits: STUCK_LIMITS });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("timeout");
    expect(result.error.message).toMatch(/exceeded 1000ms limit.*worker was terminated/);
    await expectHostHealthy();
  });

  it("terminates a sort of a huge vector that outlives its time limit", async () => {
    // One call to sort: the cooperative clock checks cannot interrupt it, terminate() can.
    const xs = Array.from({ length: 5_000_000 }, (_, i) => (i * 7919) % 5_000_011);
    const result = await runIsolated("(count (sort data/xs))", {
      context: { xs },
      heapMb: 512,
      limits: { timeoutMs: 100, maxMemoryBytes: Number.POSITIVE_INFINITY },
    });
    expect(!result.ok && result.error.reason).toBe("timeout");
    await expectHostHealthy();
  });

  it("reports a heap blow-up as memory_exceeded", async () => {
    const result = await runIsolated(HEAP_BOMB, { limits: unlimited, heapMb: 16, tools: heapBombTools });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("memory_exceeded");
    expect(result.error.message).toMatch(/heap cap of 16 MB/);
    await expectHostHealthy();
  });

  it("keeps the host's log of tool calls made before the stop", async () => {
    const tools = { ping: () => "pong" };
    const result = await runIsolated(`(tool/ping {}) ${STUCK_PROGRAM}`, {
      tools,
      context: stuckContext(),
      limits: STUCK_LIMITS,
    });
    expect(!result.ok && result.error.reason).toBe("timeout");
    expect(result.toolCalls.map((call) => [call.name, call.result])).toEqual([["ping", "pong"]]);
  });
});

describe("runIsolated: cancelling a busy worker", () => {
  it("terminates a program that is too busy to see the abort", async () => {
    const controller = new AbortController();
    // The abort reaches the worker only after it is back in a loop that never yields.
    const tools = {
      go: () => {
        setImmediate(() => controller.abort());
        return "go";
      },
    };
    const result = await runIsolated("(tool/go {}) (loop [i 0] (recur (inc i)))", {
      signal: controller.signal,
      tools,
      limits: unlimited,
    });
    expect(!result.ok && result.error.reason).toBe("aborted");
    expect(!result.ok && result.error.message).toMatch(/cancelled .*worker was terminated/);
    await expectHostHealthy();
  });
});

describe("createIsolatedSession", () => {
  it("keeps defs and *1 across runs", async () => {
    const session = createIsolatedSession({ workerUrl });
    try {
      expect((await session.run("(def rate 3) (defn triple [x] (* rate x))")).ok).toBe(true);
      expect(successValue(await session.run("(triple 5)"))).toBe(15);
      expect(successValue(await session.run("(+ *1 1)"))).toBe(16);
      expect(session.status).toBe("ready");
    } finally {
      await session.close();
    }
  });

  it("leaves the session unchanged when a program fails", async () => {
    const session = createIsolatedSession({ workerUrl });
    try {
      await session.run("(def x 1)");
      const failed = await session.run("(def x 2) (undefined-fn)");
      expect(failed.ok).toBe(false);
      expect(successValue(await session.run("x"))).toBe(1);
    } finally {
      await session.close();
    }
  });

  it("passes each run its own tools and context", async () => {
    const session = createIsolatedSession({ workerUrl });
    try {
      const first = await session.run("(tool/a {})", { tools: { a: () => 1 } });
      const second = await session.run("[(tool/b {}) data/k]", {
        tools: { b: async () => 2 },
        context: { k: "v" },
      });
      expect(successValue(first)).toBe(1);
      expect(format(successValue(second))).toBe('[2 "v"]');
    } finally {
      await session.close();
    }
  });

  it("refuses a second program while one is running", async () => {
    const session = createIsolatedSession({ workerUrl });
    try {
      let release: (value: unknown) => void = () => undefined;
      let called: () => void = () => undefined;
      const toolCalled = new Promise<void>((resolve) => (called = resolve));
      const tools = {
        wait: () => {
          called();
          return new Promise((resolve) => (release = resolve));
        },
      };
      const first = session.run("(tool/wait {})", { tools });
      await expect(session.run("1")).rejects.toThrow(/already running a program/);
      await toolCalled;
      release("done");
      expect(successValue(await first)).toBe("done");
    } finally {
      await session.close();
    }
  });

  it("after a stopped run, says its state is lost, and restarts empty", async () => {
    const session = createIsolatedSession({ workerUrl });
    try {
      await session.run("(def kept 1)");
      const killed = await session.run(STUCK_PROGRAM, {
        context: stuckContext(),
        limits: STUCK_LIMITS,
      });
      expect(!killed.ok && killed.error.reason).toBe("timeout");
      expect(!killed.ok && killed.error.message).toMatch(/defs and \*1 \*2 \*3 were lost/);
      expect(session.status).toBe("lost");
      await expect(session.run("kept")).rejects.toThrow(/lost its state.*restart/);
      await session.restart();
      expect(session.status).toBe("ready");
      const after = await session.run("kept");
      expect(!after.ok && after.error.reason).toBe("unbound_var");
      expect(successValue(await session.run("(def kept 2) kept"))).toBe(2);
      await expectHostHealthy();
    } finally {
      await session.close();
    }
    expect(session.status).toBe("closed");
    await expect(session.run("1")).rejects.toThrow(/closed/);
  });

  it("a run cancelled while it waits on a tool leaves the session ready, with its state", async () => {
    const session = createIsolatedSession({ workerUrl });
    try {
      await session.run("(def kept 1)");
      const controller = new AbortController();
      const { waiting, hang } = hangingTool();
      const pending = session.run("(def kept 2) (tool/hang {})", {
        signal: controller.signal,
        tools: { hang },
      });
      await waiting;
      controller.abort();
      expect(await pending).toMatchObject({
        ok: false,
        error: { reason: "aborted", message: ABORTED_MESSAGE },
      });
      expect(session.status).toBe("ready");
      expect(successValue(await session.run("kept"))).toBe(1);
      const late = await session.run("(def kept 3)", { signal: controller.signal });
      expect(!late.ok && late.error.reason).toBe("aborted");
      expect(successValue(await session.run("kept"))).toBe(1);
    } finally {
      await session.close();
    }
  });

  it("loses its state after a heap blow-up too", async () => {
    const session = createIsolatedSession({ workerUrl, heapMb: 16 });
    try {
      const killed = await session.run(HEAP_BOMB, { limits: unlimited, tools: heapBombTools });
      expect(!killed.ok && killed.error.reason).toBe("memory_exceeded");
      await expect(session.run("1")).rejects.toThrow(/heap cap/);
    } finally {
      await session.close();
    }
  });
});

describe("the built entry point", () => {
  it("finds its worker next to itself, and idle workers do not keep the process alive", () => {
    const script = `
      const { runIsolated, createIsolatedSession } = await import(${JSON.stringify(pathToFileURL(join(directory, "index.js")).href)});
      const once = await runIsolated("(+ 1 2)");
      const session = createIsolatedSession();
      const first = await session.run("(def x 40) (+ x 1)");
      createIsolatedSession(); // never used, never closed
      console.log(once.value, first.value);
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("3 41\n");
    expect(child.status).toBe(0);
  });
});
