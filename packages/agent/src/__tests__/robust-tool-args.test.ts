/**
 * Tool arguments are checked before a tool runs, in every mode and every layer: a program's call
 * (also inside pmap), a native call, an agent tool, a call the cache bridge could answer. A call
 * whose arguments do not fit never reaches `execute` (nor the cache), and the model's next request
 * names the parameter and the type it expects. Calls that fit are made with the schema's output.
 */
import { canonicalCacheKey } from "@ptc/tool";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AgentOptions,
  type AgentToolDefinition,
  asTool,
  createAgent,
  type ModelRequest,
  type RunOptions,
  run,
} from "../index.js";
import { createScriptedModel, type ScriptedStep } from "../testing/index.js";

type Kind = "schema" | "signature";

/** What the model is told is wrong with `{id: "nine"}`, per kind of definition. */
const EXPECTED: Record<Kind, string> = {
  schema: "id: Invalid input: expected number, received string",
  signature: "id: expected int, got string",
};

function customerTool(kind: Kind, extra: Partial<Record<string, unknown>> = {}) {
  const executions: Record<string, unknown>[] = [];
  const execute = (args: Record<string, unknown>) => {
    executions.push(args);
    return { id: args.id, name: "Ada" };
  };
  const definition =
    kind === "schema"
      ? { parameters: z.object({ id: z.number().int() }), execute, ...extra }
      : { signature: "(id :int) -> {id :int, name :string}", execute, ...extra };
  return { definition: definition as AgentToolDefinition, executions };
}

const fenced = (program: string) => `\`\`\`clojure\n${program}\n\`\`\``;
const native = (name: string, args: Record<string, unknown>) => ({
  toolCalls: [{ id: "call_1", name, args }],
});
const lispEval = (program: string) => ({
  toolCalls: [{ id: "call_1", name: "lisp_eval", args: { program } }],
});

/** The text of the messages request `index` added to the conversation of request `index - 1`. */
function added(calls: readonly ModelRequest[], index: number): string {
  const before = calls[index - 1]?.messages.length ?? 0;
  return (calls[index]?.messages ?? [])
    .slice(before)
    .map((message) => message.content)
    .join("\n");
}

async function runScript(
  options: AgentOptions,
  steps: ScriptedStep[],
  runOptions: Omit<RunOptions, "llm"> = {},
) {
  const model = createScriptedModel(steps);
  const result = await run(createAgent(options), { ...runOptions, llm: model.llm });
  model.assertConsumed();
  return { model, result };
}

const TEXT = { output: "text" } as const;
const TOOL_CALL = { ptcTransport: "tool_call" } as const;
const COMBINED = { output: "text", ptcTransport: "tool_call" } as const;

describe.each(["schema", "signature"] as const)("arguments that do not fit a tool's %s", (kind) => {
  it("fail a program's call in PTC-Lisp mode before the tool runs", async () => {
    const { definition, executions } = customerTool(kind);
    const { model, result } = await runScript(
      { prompt: "Find customer 9", tools: { get_customer: definition } },
      [fenced('(tool/get_customer {:id "nine"})'), fenced("(return 1)")],
    );
    expect(executions).toEqual([]);
    expect(result.step.turns?.[0]?.result).toMatchObject({ error: { reason: "invalid_tool_args" } });
    const feedback = added(model.calls, 1);
    expect(feedback).toContain(EXPECTED[kind]);
    expect(feedback).toContain("Its signature: (id :int)");
    expect(result.step.toolCalls).toMatchObject([
      { name: "get_customer", args: { id: "nine" }, exposureLayer: "ptc_lisp" },
    ]);
    expect(result.step.toolCalls[0]?.error).toContain(EXPECTED[kind]);
  });

  it("fail a call inside pmap before any branch's tool runs", async () => {
    const { definition, executions } = customerTool(kind);
    const { model } = await runScript({ prompt: "Find them", tools: { get_customer: definition } }, [
      fenced('(pmap (fn [id] (tool/get_customer {:id id})) ["nine" "ten"])'),
      fenced("(return 1)"),
    ]);
    expect(executions).toEqual([]);
    expect(added(model.calls, 1)).toContain(EXPECTED[kind]);
  });

  it("fail a program's call in the tool_call transport", async () => {
    const { definition, executions } = customerTool(kind);
    const { model } = await runScript(
      { prompt: "Find customer 9", ...TOOL_CALL, tools: { get_customer: definition } },
      [lispEval('(tool/get_customer {:id "nine"})'), lispEval("(return 1)")],
    );
    expect(executions).toEqual([]);
    expect(added(model.calls, 1)).toContain(EXPECTED[kind]);
  });

  it("fail a native call in text mode, with the parameters to send instead", async () => {
    const { definition, executions } = customerTool(kind);
    const { model, result } = await runScript(
      { prompt: "Find customer 9", ...TEXT, tools: { get_customer: definition } },
      [native("get_customer", { id: "nine" }), "done"],
    );
    expect(executions).toEqual([]);
    const body = JSON.parse(added(model.calls, 1).split("\n").at(-1) ?? "") as Record<string, unknown>;
    expect(body).toMatchObject({ tool: "get_customer", args_received: { id: "nine" } });
    expect(body.error).toContain(EXPECTED[kind]);
    expect(body.hint).toContain('{"id": int}');
    expect(result.step.toolCalls).toMatchObject([{ name: "get_customer", exposureLayer: "native" }]);
    expect(result.step.toolCalls[0]?.error).toContain(EXPECTED[kind]);
  });

  it("fail a native call in combined mode", async () => {
    const { definition, executions } = customerTool(kind, { expose: "both" });
    const { model } = await runScript(
      { prompt: "Find customer 9", ...COMBINED, tools: { get_customer: definition } },
      [native("get_customer", { id: "nine" }), "done"],
    );
    expect(executions).toEqual([]);
    expect(added(model.calls, 1)).toContain(EXPECTED[kind]);
  });

  it("fail a lisp_eval program's call in combined mode", async () => {
    const { definition, executions } = customerTool(kind, { expose: "both" });
    const { model } = await runScript(
      { prompt: "Find customer 9", ...COMBINED, tools: { get_customer: definition } },
      [lispEval('(tool/get_customer {:id "nine"})'), "done"],
    );
    expect(executions).toEqual([]);
    expect(added(model.calls, 1)).toContain(EXPECTED[kind]);
  });

  it("are neither answered from the cache bridge nor stored in it", async () => {
    const { definition, executions } = customerTool(kind, { expose: "both", cache: true });
    const planted = canonicalCacheKey("get_customer", { id: "nine" });
    const { model, result } = await runScript(
      { prompt: "Find customer 9", ...COMBINED, maxTurns: 4, tools: { get_customer: definition } },
      [native("get_customer", { id: "nine" }), lispEval('(tool/get_customer {:id "nine"})'), "done"],
      { toolCache: { [planted]: { result: { id: "nine", name: "Planted" } } } },
    );
    expect(executions).toEqual([]);
    for (const index of [1, 2]) {
      expect(added(model.calls, index)).toContain(EXPECTED[kind]);
      expect(added(model.calls, index)).not.toContain("Planted");
    }
    expect(result.step.toolCalls.every((call) => call.cached === false)).toBe(true);
    expect([...result.step.toolCache.keys()]).toEqual([planted]);
  });
});

describe.each(["schema", "signature"] as const)("a positional call of a tool with a %s", (kind) => {
  it("is answered with the tool's own parameter name", async () => {
    const { definition, executions } = customerTool(kind);
    const { model } = await runScript({ prompt: "Find customer 9", tools: { get_customer: definition } }, [
      fenced("(tool/get_customer 9)"),
      fenced("(return 1)"),
    ]);
    expect(executions).toEqual([]);
    expect(added(model.calls, 1)).toContain("write (tool/get_customer {:id 9})");
    expect(added(model.calls, 1)).not.toContain(":url");
  });
});

describe("agent tools", () => {
  const child = () =>
    createAgent({ prompt: "Describe customer {{id}}", signature: "(id :int) -> :string", output: "text" });

  it("check a program's arguments against the child's signature before the child runs", async () => {
    const { model, result } = await runScript(
      { prompt: "Describe customer 9", tools: { describe_customer: asTool(child(), { description: "d" }) } },
      [fenced('(tool/describe_customer {:id "nine"})'), fenced("(return 1)")],
    );
    // A child that ran would have asked the scripted model, which has no step for it.
    expect(result.step.childSteps).toEqual([]);
    expect(added(model.calls, 1)).toContain("id: expected int, got string");
  });

  it("check a native call's arguments in text mode before the child runs", async () => {
    const { model, result } = await runScript(
      {
        prompt: "Describe customer 9",
        ...TEXT,
        tools: { describe_customer: asTool(child(), { description: "d" }) },
      },
      [native("describe_customer", { id: "nine" }), "done"],
    );
    expect(result.step.childSteps).toEqual([]);
    expect(added(model.calls, 1)).toContain("id: expected int, got string");
  });
});

describe("arguments that fit a schema", () => {
  function lookupTool() {
    const executions: Record<string, unknown>[] = [];
    const definition = {
      parameters: z.object({ id: z.coerce.number().int(), limit: z.number().default(10) }),
      expose: "both" as const,
      cache: true,
      execute: (args: Record<string, unknown>) => {
        executions.push(args);
        return [{ id: args.id }];
      },
    };
    return { definition: definition as AgentToolDefinition, executions };
  }

  it("reach a native call's execute as the schema's output, defaults and coercions applied", async () => {
    const { definition, executions } = lookupTool();
    const { result } = await runScript({ prompt: "Look up 9", ...TEXT, tools: { lookup: definition } }, [
      native("lookup", { id: "9" }),
      "done",
    ]);
    expect(executions).toEqual([{ id: 9, limit: 10 }]);
    expect(result.step.toolCalls[0]?.args).toEqual({ id: 9, limit: 10 });
  });

  it("reach a program's execute as the schema's output, as @ptc/lisp's run passes them", async () => {
    const { definition, executions } = lookupTool();
    await runScript({ prompt: "Look up 9", tools: { lookup: definition } }, [
      fenced('(tool/lookup {:id "9"})'),
      fenced("(return 1)"),
    ]);
    expect(executions).toEqual([{ id: 9, limit: 10 }]);
  });

  it("share one cache entry for calls the schema reads the same way, across layers", async () => {
    const { definition, executions } = lookupTool();
    const { result } = await runScript(
      { prompt: "Look up 9", ...COMBINED, maxTurns: 4, tools: { lookup: definition } },
      [native("lookup", { id: "9" }), lispEval("(tool/lookup {:id 9 :limit 10})"), "done"],
    );
    expect(executions).toHaveLength(1);
    expect(result.step.toolCalls.filter((call) => call.name === "lookup").map((call) => call.cached)).toEqual(
      [false, true],
    );
  });
});

describe("a check that throws", () => {
  it("is a tool error for a native call, and the tool does not run", async () => {
    const executions: unknown[] = [];
    const parameters = z.object({ id: z.number() }).refine(() => {
      throw new Error("the schema is broken");
    });
    const { model } = await runScript(
      {
        prompt: "p",
        ...TEXT,
        tools: {
          broken: { parameters, execute: (args: unknown) => executions.push(args) } as AgentToolDefinition,
        },
      },
      [native("broken", { id: 1 }), "done"],
    );
    expect(executions).toEqual([]);
    expect(added(model.calls, 1)).toContain("the schema is broken");
  });
});
