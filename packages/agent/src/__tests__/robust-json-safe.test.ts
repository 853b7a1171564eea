/**
 * Everything the agent returns is JSON-safe whatever the tools returned: BigInts, cycles, getters
 * that throw, revoked proxies, Dates, Maps, huge strings. In every mode, `JSON.stringify` of the
 * step, of each transcript line and of each event succeeds and reads back to the same text, and a
 * chat resumes from `JSON.parse(JSON.stringify(state))` with its cache.
 */
import { describe, expect, it } from "vitest";
import {
  type AgentEvent,
  type AgentToolDefinition,
  chat,
  createAgent,
  createJsonlTranscript,
  type RunOptions,
  run,
} from "../index.js";
import { createScriptedModel, type ScriptedStep } from "../testing/index.js";

const HUGE = "x".repeat(300_000);

/** One tool per kind of value JSON has trouble with; `calls` counts the runs of each. */
function hostileTools(calls: Record<string, number>, extra: { expose?: "both"; cache?: boolean } = {}) {
  const make = (name: string, value: () => unknown): AgentToolDefinition => ({
    signature: "() -> :any",
    ...extra,
    execute: () => {
      calls[name] = (calls[name] ?? 0) + 1;
      return value();
    },
  });
  return {
    big: make("big", () => ({ id: 12345678901234567890n, rows: [1n, 2n] })),
    cyclic: make("cyclic", () => {
      const node: Record<string, unknown> = { name: "loop" };
      node.self = node;
      return [node];
    }),
    getter: make("getter", () => ({
      ok: 1,
      get bad(): never {
        throw new Error("the getter failed");
      },
    })),
    revoked: make("revoked", () => {
      const { proxy, revoke } = Proxy.revocable({ a: 1 }, {});
      revoke();
      return proxy;
    }),
    dated: make("dated", () => ({ at: new Date(0), index: new Map([["k", new Set([1])]]) })),
    huge: make("huge", () => ({ text: HUGE })),
  } satisfies Record<string, AgentToolDefinition>;
}

const NAMES = ["big", "cyclic", "getter", "revoked", "dated", "huge"];

/** Stringifies, and checks that the text reads back to data that writes the same text. */
function expectJsonSafe(value: unknown, what: string): unknown {
  let text = "";
  expect(() => {
    text = JSON.stringify(value);
  }, what).not.toThrow();
  expect(JSON.stringify(JSON.parse(text)), what).toBe(text);
  return JSON.parse(text);
}

async function runAndCheck(
  agent: ReturnType<typeof createAgent>,
  steps: ScriptedStep[],
  options: Omit<RunOptions, "llm"> = {},
) {
  const model = createScriptedModel(steps);
  const transcript = createJsonlTranscript();
  const events: AgentEvent[] = [];
  const result = await run(agent, {
    ...options,
    llm: model.llm,
    transcript: transcript.write,
    eventPayloads: true,
    collectMessages: true,
    onEvent: (event) => events.push(event),
  });
  model.assertConsumed();
  const step = expectJsonSafe(result.step, "step") as { toolCalls: { name: string; result?: unknown }[] };
  expect(transcript.lines.length).toBeGreaterThan(0);
  for (const line of transcript.lines) expect(JSON.stringify(JSON.parse(line))).toBe(line);
  for (const event of events) expectJsonSafe(event, event.type);
  expect(transcript.lines.some((line) => line.includes('"type":"step"'))).toBe(true);
  return { result, step, events };
}

const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;
const calls = (names: readonly string[]): ScriptedStep => ({
  toolCalls: names.map((name, index) => ({ id: `c${index}`, name, args: {} })),
});
const lispEval = (id: string, program: string): ScriptedStep => ({
  toolCalls: [{ id, name: "lisp_eval", args: { program } }],
});

describe("JSON-safe steps, transcripts and events", () => {
  it("text mode: native results of every kind", async () => {
    const counts: Record<string, number> = {};
    const agent = createAgent({ prompt: "p", output: "text", tools: hostileTools(counts) });
    const { step } = await runAndCheck(agent, [calls(NAMES), "done"]);
    const results = Object.fromEntries(step.toolCalls.map((call) => [call.name, call.result]));
    expect(results.big).toEqual({ id: "12345678901234567890", rows: ["1", "2"] });
    expect(results.dated).toEqual({ at: "1970-01-01T00:00:00.000Z", index: { k: [1] } });
    expect((results.huge as { text: string }).text).toHaveLength(HUGE.length);
  });

  it("content mode: program results with BigInts in records, memory, the journal and the answer", async () => {
    const counts: Record<string, number> = {};
    const agent = createAgent({ prompt: "p", tools: hostileTools(counts), journaling: true });
    const { result, step } = await runAndCheck(agent, [
      fenced(
        '(def b (tool/big {})) (task "load" (:id b)) (def d (tool/dated {})) (def h (tool/huge {})) (count (:text h))',
      ),
      fenced("(tool/cyclic {})"),
      fenced("(tool/getter {})"),
      fenced("(tool/revoked {})"),
      fenced("(return (:id b))"),
    ]);
    expect(result.ok).toBe(true);
    expect((step as unknown as { journal: unknown }).journal).toEqual({ load: "12345678901234567890" });
    expect(step.toolCalls.find((call) => call.name === "big")?.result).toEqual({
      id: "12345678901234567890",
      rows: ["1", "2"],
    });
  });

  it("tool_call transport: the same through lisp_eval", async () => {
    const counts: Record<string, number> = {};
    const agent = createAgent({ prompt: "p", ptcTransport: "tool_call", tools: hostileTools(counts) });
    const { result } = await runAndCheck(agent, [
      lispEval("a", "(def b (tool/big {})) (tool/dated {}) (tool/huge {}) 1"),
      lispEval("b", "(tool/cyclic {})"),
      lispEval("c", "(tool/getter {})"),
      lispEval("d", "(tool/revoked {})"),
      lispEval("e", "(return (:rows b))"),
    ]);
    expect(result.ok).toBe(true);
  });

  it("combined mode: cached results of every kind, natively and from programs", async () => {
    const counts: Record<string, number> = {};
    const agent = createAgent({
      prompt: "p",
      output: "text",
      ptcTransport: "tool_call",
      maxTurns: 6,
      tools: hostileTools(counts, { expose: "both", cache: true }),
    });
    const { step } = await runAndCheck(agent, [
      calls(NAMES),
      lispEval("p1", "(def b (tool/big {})) (count (:rows b))"),
      lispEval("p2", "(tool/cyclic {})"),
      "done",
    ]);
    // The cache writes itself as the record the toolCache option takes back. A revoked proxy
    // cannot even be awaited: that call failed, and a failed call writes nothing.
    const cache = (step as unknown as { toolCache: Record<string, { result: unknown }> }).toolCache;
    expect(Object.keys(cache).sort()).toEqual(
      NAMES.filter((name) => name !== "revoked")
        .map((name) => JSON.stringify([name, {}]))
        .sort(),
    );
    expect(step.toolCalls.find((call) => call.name === "revoked")).toHaveProperty("error");
    expect(cache[JSON.stringify(["cyclic", {}])]?.result).toEqual([{ name: "loop", self: null }]);
    expect(counts.big).toBe(1);
  });

  it("chat resumes from state read back from JSON, with the cache of every kind", async () => {
    const counts: Record<string, number> = {};
    const agent = createAgent({
      prompt: "p",
      output: "text",
      ptcTransport: "tool_call",
      tools: hostileTools(counts, { expose: "both", cache: true }),
    });
    const first = createScriptedModel([calls(NAMES), "first answer"]);
    const reply = await chat(agent, "look", { llm: first.llm });
    expect(reply.ok).toBe(true);
    const stored = expectJsonSafe(reply.state, "state") as typeof reply.state;
    expectJsonSafe(reply.messages, "messages");

    const second = createScriptedModel([
      lispEval(
        "again",
        '(str (:id (tool/big {})) " " (:at (tool/dated {})) " " (count (:text (tool/huge {}))))',
      ),
      "second answer",
    ]);
    const next = await chat(agent, "again", { llm: second.llm, messages: reply.messages, state: stored });
    expect(next.ok).toBe(true);
    // Answered from the resumed cache: no tool ran again, and the program read the JSON form.
    expect(counts).toEqual({ big: 1, cyclic: 1, getter: 1, revoked: 1, dated: 1, huge: 1 });
    const answer = JSON.parse(second.calls[1]?.messages.at(-1)?.content ?? "{}") as { result: string };
    expect(answer.result).toContain(`"12345678901234567890 1970-01-01T00:00:00.000Z ${HUGE.length}"`);
    expectJsonSafe(next.state, "state after the second call");
  });
});
