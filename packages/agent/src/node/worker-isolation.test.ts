/**
 * What worker isolation adds to an agent: `signal` stops a CPU-bound program at once, a program
 * stuck in one builtin call is stopped at its timeout, functions stay callable across turns, and
 * the option is checked like every other.
 */
import { describe, expect, it } from "vitest";
import { AgentError, createAgent, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { testIsolation } from "./__fixtures__/worker-isolation.js";
import { createWorkerIsolation } from "./create-worker-isolation.js";

const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;

/** A loop that never ends by itself within the test: no iteration limit, a ten-minute timeout. */
const SPIN = "(loop [i 0] (recur (inc i)))";
const unlimited = { maxIterations: Number.POSITIVE_INFINITY };

describe("cancelling a run whose program is busy", () => {
  it("stops a CPU-bound program soon after the signal fires", async () => {
    const isolation = testIsolation();
    const controller = new AbortController();
    const model = createScriptedModel([fenced(`(tool/go {}) ${SPIN}`)]);
    const agent = createAgent({
      prompt: "spin",
      timeout: 600_000,
      limits: unlimited,
      // The abort fires once the program is back in its loop, where only a terminate reaches it.
      tools: { go: () => void setTimeout(() => controller.abort(new Error("user pressed stop")), 20) },
      isolation,
    });
    const started = performance.now();
    const result = await run(agent, { llm: model.llm, signal: controller.signal });
    // The program alone would spin for ten minutes; a generous bound for a loaded machine.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.ok).toBe(false);
    expect(result.step.fail?.reason).toBe("aborted");
    expect(result.step.turns?.[0]?.toolCalls.map((call) => call.name)).toEqual(["go"]);
    expect(isolation.closed).toBe(isolation.opened);
  });
});

describe("a program stuck inside one builtin call", () => {
  it("is stopped at the agent's timeout, the model is told, and the run goes on", async () => {
    const model = createScriptedModel([
      fenced('(def kept 41) (re-find #"[ab]{300}d" data/text)'),
      fenced("(def kept 42) (return kept)"),
    ]);
    // A second, not less: on a loaded machine a shorter limit can pass before the stuck call
    // starts, and the worker then reports its own timeout instead of being terminated.
    const agent = createAgent({ prompt: "search", timeout: 1000, isolation: testIsolation() });
    const result = await run(agent, { llm: model.llm, context: { text: `d${"ab".repeat(1_000_000)}` } });
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe(42);
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "timeout" } });
    expect(JSON.stringify(model.calls[1]?.messages.at(-1))).toMatch(
      /exceeded 1000ms limit.*worker was terminated/,
    );
  });
});

describe("memory across turns", () => {
  it("keeps functions a program defined callable in the next turns", async () => {
    const model = createScriptedModel([
      fenced("(def rate 2) (defn scale [x] (* rate x)) (scale 1)"),
      fenced("(def m {:f scale}) ((:f m) 10)"),
      fenced("(return (+ (scale 20) *1))"),
    ]);
    const agent = createAgent({ prompt: "scale", isolation: testIsolation() });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.fail).toBeNull();
    expect(result.step.return).toBe(60);
  });

  it("after a hard stop, keeps data defs; a function from before says it went with the worker", async () => {
    const model = createScriptedModel([
      fenced("(def n 2) (defn twice [x] (* n x)) n"),
      fenced('(re-find #"[ab]{300}d" data/text)'),
      fenced("(twice n)"),
      fenced("(return n)"),
    ]);
    const agent = createAgent({ prompt: "p", timeout: 1000, isolation: testIsolation() });
    const result = await run(agent, { llm: model.llm, context: { text: `d${"ab".repeat(1_000_000)}` } });
    expect(result.step.return).toBe(2);
    expect(result.step.turns?.[2]?.result).toMatchObject({
      error: {
        reason: "not_callable",
        message: expect.stringMatching(/twice was defined in another isolated worker/),
      },
    });
  });
});

describe("the isolation option", () => {
  it("is checked when the agent is created", () => {
    expect(() => createAgent({ prompt: "p", isolation: {} as never })).toThrow(AgentError);
    expect(() => createAgent({ prompt: "p", isolation: {} as never })).toThrow(/createWorkerIsolation/);
    expect(() => createWorkerIsolation({ heapMb: 1 })).toThrow(/heapMb/);
  });

  it("can be turned off for one run, and then opens no worker", async () => {
    const isolation = testIsolation();
    const model = createScriptedModel([fenced("(return (+ 1 2))")]);
    const agent = createAgent({ prompt: "p", maxTurns: 2, isolation });
    const result = await run(agent, { llm: model.llm, isolation: false });
    expect(result.step.return).toBe(3);
    expect(isolation.opened).toBe(0);
  });

  it("opens no worker for a run that runs no program", async () => {
    const isolation = testIsolation();
    const model = createScriptedModel(["just text"]);
    const agent = createAgent({ prompt: "p", output: "text", isolation });
    expect((await run(agent, { llm: model.llm })).step.return).toBe("just text");
    expect(isolation.opened).toBe(0);
  });

  it("a worker that cannot start is a program error the model sees, and the run still ends cleanly", async () => {
    const isolation = createWorkerIsolation({ workerUrl: "not/a/worker/path.js" });
    const model = createScriptedModel([fenced("(+ 1 2)"), fenced("(return 3)")]);
    const agent = createAgent({ prompt: "p", isolation });
    const result = await run(agent, { llm: model.llm });
    expect(result.step.turns?.[0]?.result).toMatchObject({
      error: { message: expect.stringMatching(/could not start the isolated worker/) },
    });
  });
});
