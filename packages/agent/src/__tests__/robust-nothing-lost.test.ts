/**
 * Nothing is lost when a run ends early: whatever ended it (the model failing, an abort, a budget,
 * the mission deadline), the Step still holds every turn, message (with `collectMessages`), tool
 * call and memory value recorded before the end. One scenario per mode: a good turn, then a turn
 * whose tool throws, then the ending.
 */
import { describe, expect, it } from "vitest";
import {
  type AgentOptions,
  createAgent,
  type ModelResponse,
  type RunOptions,
  run,
  type Step,
} from "../index.js";
import { createScriptedModel, type ScriptedStep } from "../testing/index.js";

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;
const tokens = { input: 100, output: 100 };

interface Scenario {
  readonly label: string;
  readonly agent: Omit<AgentOptions, "prompt" | "tools">;
  /** Turn 1 reads rows (and keeps a count where programs run); turn 2 calls the throwing tool. */
  readonly turns: readonly [ModelResponse, ModelResponse];
  readonly memory: Record<string, unknown>;
  readonly roles: readonly string[];
  /** Whether token budgets apply (PTC-Lisp loops only). */
  readonly budgets: boolean;
}

const program = (source: string, id: string): ModelResponse => ({
  toolCalls: [{ id, name: "lisp_eval", args: { program: source } }],
  tokens,
});

const scenarios: readonly Scenario[] = [
  {
    label: "PTC-Lisp content mode",
    agent: {},
    turns: [
      { content: fenced('(def n (count (tool/rows {})))\n(println "n" n)'), tokens },
      { content: fenced("(tool/boom {})"), tokens },
    ],
    memory: { n: 3 },
    roles: ["system", "user", "assistant", "user", "assistant", "user"],
    budgets: true,
  },
  {
    label: "tool_call transport",
    agent: { ptcTransport: "tool_call" },
    turns: [
      program('(def n (count (tool/rows {})))\n(println "n" n)', "c1"),
      program("(tool/boom {})", "c2"),
    ],
    memory: { n: 3 },
    roles: ["system", "user", "assistant", "tool", "assistant", "tool"],
    budgets: true,
  },
  {
    label: "text mode",
    agent: { output: "text" },
    turns: [
      { toolCalls: [{ id: "c1", name: "rows", args: {} }], tokens },
      { toolCalls: [{ id: "c2", name: "boom", args: {} }], tokens },
    ],
    memory: {},
    roles: ["system", "user", "assistant", "tool", "assistant", "tool"],
    budgets: false,
  },
  {
    label: "combined mode",
    agent: { output: "text", ptcTransport: "tool_call" },
    turns: [
      program('(def n (count (tool/rows {})))\n(println "n" n)', "c1"),
      { toolCalls: [{ id: "c2", name: "boom", args: {} }], tokens },
    ],
    memory: { n: 3 },
    roles: ["system", "user", "assistant", "tool", "assistant", "tool"],
    budgets: false,
  },
];

interface Ending {
  readonly label: string;
  readonly reason: string;
  readonly applies: (scenario: Scenario) => boolean;
  readonly setup: () => {
    step: ScriptedStep | undefined;
    options: Partial<RunOptions>;
    agent: Partial<AgentOptions>;
  };
}

const endings: readonly Ending[] = [
  {
    label: "the model fails",
    reason: "llm_error",
    applies: () => true,
    setup: () => ({ step: new Error("provider down"), options: {}, agent: {} }),
  },
  {
    label: "the run is aborted",
    reason: "aborted",
    applies: () => true,
    setup: () => {
      const controller = new AbortController();
      return {
        step: () => {
          controller.abort();
          return never();
        },
        options: { signal: controller.signal },
        agent: {},
      };
    },
  },
  {
    label: "the token budget runs out",
    reason: "budget_callback_exceeded",
    applies: (scenario) => scenario.budgets,
    // The third response pushes the total past the limit; it is not executed.
    setup: () => ({
      step: { content: fenced("(return 1)"), tokens },
      options: { tokenLimit: 500 },
      agent: {},
    }),
  },
  {
    label: "the budget callback says stop",
    reason: "budget_callback_exceeded",
    applies: (scenario) => scenario.budgets,
    setup: () => ({
      step: { content: fenced("(return 1)"), tokens },
      options: { budget: (usage) => (usage.llmRequests >= 3 ? "stop" : "continue") },
      agent: {},
    }),
  },
  {
    label: "the mission times out",
    reason: "mission_timeout",
    applies: () => true,
    // Both turns must end before the deadline: a second leaves room for a loaded machine.
    setup: () => ({ step: () => never(), options: {}, agent: { missionTimeout: 1000 } }),
  },
];

function expectComplete(step: Step, scenario: Scenario) {
  expect(step.turns?.map((turn) => turn.number)).toEqual([1, 2]);
  // A turn of native calls succeeds even when a tool fails (the model reads the error); a program does not.
  expect(step.turns?.[1]?.success).toBe(scenario.agent.output === "text");
  const calls = step.toolCalls.filter((call) => call.name !== "lisp_eval");
  expect(calls.map((call) => call.name)).toEqual(["rows", "boom"]);
  expect(calls[0]?.result).toEqual([1, 2, 3]);
  expect(calls[1]?.error).toContain("disk on fire");
  expect(step.memory).toEqual(scenario.memory);
  expect(step.messages?.map((message) => message.role)).toEqual(scenario.roles);
  expect(JSON.stringify(step.messages)).toContain("disk on fire");
}

describe("a run that ends early keeps everything recorded so far", () => {
  for (const scenario of scenarios) {
    for (const ending of endings) {
      if (!ending.applies(scenario)) continue;
      it(`${scenario.label}: when ${ending.label}`, async () => {
        const setup = ending.setup();
        const script: ScriptedStep[] = [...scenario.turns];
        if (setup.step !== undefined) script.push(setup.step);
        const model = createScriptedModel(script);
        const agent = createAgent({
          prompt: "Count the rows",
          ...scenario.agent,
          ...setup.agent,
          tools: {
            rows: { execute: () => [1, 2, 3], expose: "both" },
            boom: {
              execute: () => {
                throw new Error("disk on fire");
              },
              expose: "both",
            },
          },
        });
        const result = await run(agent, { llm: model.llm, collectMessages: true, ...setup.options });
        expect(result.ok).toBe(false);
        expect(result.step.fail?.reason).toBe(ending.reason);
        model.assertConsumed();
        expectComplete(result.step, scenario);
        if (scenario.memory.n !== undefined) expect(result.step.prints).toEqual(["n 3"]);
      });
    }
  }
});

describe("a run ended by its own turn limit keeps everything too", () => {
  it("PTC-Lisp: max_turns_exceeded keeps both turns and the failing tool call", async () => {
    const model = createScriptedModel([
      fenced('(def n (count (tool/rows {})))\n(println "n" n)'),
      fenced("(tool/boom {})"),
    ]);
    const agent = createAgent({
      prompt: "p",
      maxTurns: 2,
      tools: {
        rows: () => [1, 2, 3],
        boom: () => {
          throw new Error("disk on fire");
        },
      },
    });
    const result = await run(agent, { llm: model.llm, collectMessages: true });
    // The last good program's value is nil (a def + println), so there is no fallback answer.
    expect(result.step.fail?.reason).toBe("max_turns_exceeded");
    expect(result.step.turns).toHaveLength(2);
    expect(result.step.toolCalls.map((call) => call.name)).toEqual(["rows", "boom"]);
    expect(result.step.memory).toEqual({ n: 3 });
    expect(result.step.messages?.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
  });

  it("trace: false drops turns but keeps tool calls, messages and memory", async () => {
    const model = createScriptedModel([fenced("(def n (count (tool/rows {})))"), new Error("down")]);
    const agent = createAgent({ prompt: "p", tools: { rows: () => [1, 2, 3] } });
    const result = await run(agent, { llm: model.llm, collectMessages: true, trace: false });
    expect(result.step.turns).toBeNull();
    expect(result.step.toolCalls).toHaveLength(1);
    expect(result.step.memory).toEqual({ n: 3 });
    expect(result.step.messages).toHaveLength(4);
  });

  it('trace: "on_error" keeps the turns of a failed run', async () => {
    const model = createScriptedModel([fenced("(def n 1)"), new Error("down")]);
    const result = await run(createAgent({ prompt: "p" }), { llm: model.llm, trace: "on_error" });
    expect(result.step.turns).toHaveLength(1);
  });
});
