/**
 * Exposure rules in every mode: `expose` is enforced only in combined mode. In the
 * PTC-Lisp modes every tool is program-callable whatever its `expose`; in pure text mode every
 * tool is native, and `expose`/`cache`/`nativeResult` change nothing at all.
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, type AgentToolDefinition, createAgent, type Message, run } from "../index.js";
import { createScriptedModel, type ScriptedStep } from "../testing/index.js";

type Expose = "native" | "ptc_lisp" | "both" | undefined;

const EXPOSES: readonly [string, Expose][] = [
  ["t_both", "both"],
  ["t_default", undefined],
  ["t_lisp", "ptc_lisp"],
  ["t_native", "native"],
];

function tools() {
  const executed: string[] = [];
  const definitions: Record<string, AgentToolDefinition> = {};
  for (const [name, expose] of EXPOSES) {
    definitions[name] = {
      signature: "() -> :string",
      ...(expose === undefined ? {} : { expose }),
      execute: () => {
        executed.push(name);
        return name;
      },
    } as AgentToolDefinition;
  }
  return { definitions, executed };
}

const ALL_CALLS = "[(tool/t_both {}) (tool/t_default {}) (tool/t_lisp {}) (tool/t_native {})]";

function toolBodies(messages: readonly Message[] | undefined): unknown[] {
  return (messages ?? [])
    .filter((message) => message.role === "tool")
    .map((message) => JSON.parse(message.content));
}

async function runWith(options: Omit<AgentOptions, "prompt">, steps: ScriptedStep[]) {
  const model = createScriptedModel(steps);
  const result = await run(createAgent({ prompt: "Use the tools.", ...options }), { llm: model.llm });
  model.assertConsumed();
  return { model, result };
}

describe("PTC-Lisp modes: every tool is program-callable", () => {
  it("content transport calls every tool from a program and lists them all", async () => {
    const { definitions, executed } = tools();
    const { model, result } = await runWith({ tools: definitions }, [
      `\`\`\`clojure\n(return ${ALL_CALLS})\n\`\`\``,
    ]);
    expect(result.ok).toBe(true);
    expect(executed).toEqual(["t_both", "t_default", "t_lisp", "t_native"]);
    expect(result.step.return).toEqual(["t_both", "t_default", "t_lisp", "t_native"]);
    const first = model.calls[0]?.messages[0]?.content ?? "";
    for (const [name] of EXPOSES) expect(first).toContain(`tool/${name}(`);
    expect(model.calls[0]?.tools).toBeUndefined();
    expect(result.step.toolCalls.every((call) => call.exposureLayer === "ptc_lisp")).toBe(true);
  });

  it("tool_call transport offers only lisp_eval and calls every tool from a program", async () => {
    const { definitions, executed } = tools();
    const { model, result } = await runWith({ tools: definitions, ptcTransport: "tool_call" }, [
      { toolCalls: [{ id: "c1", name: "lisp_eval", args: { program: `(return ${ALL_CALLS})` } }] },
    ]);
    expect(result.ok).toBe(true);
    expect(executed).toEqual(["t_both", "t_default", "t_lisp", "t_native"]);
    expect(model.calls[0]?.tools?.map((tool) => tool.function.name)).toEqual(["lisp_eval"]);
  });
});

describe("pure text mode: every tool is native", () => {
  it("offers and executes every tool natively, ptc_lisp ones included", async () => {
    const { definitions, executed } = tools();
    const { model } = await runWith({ tools: definitions, output: "text" }, [
      {
        toolCalls: EXPOSES.map(([name], index) => ({ id: `c${index}`, name, args: {} })),
      },
      "done",
    ]);
    expect(model.calls[0]?.tools?.map((tool) => tool.function.name).sort()).toEqual([
      "t_both",
      "t_default",
      "t_lisp",
      "t_native",
    ]);
    expect(executed).toEqual(["t_both", "t_default", "t_lisp", "t_native"]);
    expect(toolBodies(model.calls[1]?.messages)).toEqual(["t_both", "t_default", "t_lisp", "t_native"]);
    expect(model.calls[0]?.system).not.toContain("<ptc_tools>");
  });

  it("sends identical requests with and without expose, cache and nativeResult", async () => {
    const rows = Array.from({ length: 30 }, (_, index) => ({ id: index, ok: index % 2 === 0 }));
    const plain = { signature: "(query :string) -> [:any]", description: "Search.", execute: () => rows };
    const decorated = {
      ...plain,
      expose: "both" as const,
      cache: true,
      nativeResult: { preview: "rows" as const, limit: 2 },
    };
    const script = (): ScriptedStep[] => [
      { toolCalls: [{ id: "c1", name: "search", args: { query: "q" } }] },
      { toolCalls: [{ id: "c2", name: "search", args: { query: "q" } }] },
      "thirty rows",
    ];
    const counted = (definition: typeof plain) => {
      let count = 0;
      return {
        definition: {
          ...definition,
          execute: () => {
            count += 1;
            return definition.execute();
          },
        },
        count: () => count,
      };
    };
    const a = counted(plain);
    const b = counted(decorated);
    const first = await runWith({ output: "text", tools: { search: a.definition } }, script());
    const second = await runWith({ output: "text", tools: { search: b.definition } }, script());

    expect(second.model.calls).toEqual(first.model.calls);
    // The tool's full result, not a preview, and no cache: it ran on both calls.
    expect(toolBodies(second.model.calls[1]?.messages)).toEqual([rows]);
    expect(b.count()).toBe(2);
    expect(a.count()).toBe(2);
    expect(second.result.step.toolCache.size).toBe(0);
    expect(second.result.step.return).toBe(first.result.step.return);
  });
});

describe("combined mode: the exposure table", () => {
  it("offers native, default and both tools natively, and rejects ptc_lisp ones", async () => {
    const { definitions, executed } = tools();
    const { model } = await runWith({ tools: definitions, output: "text", ptcTransport: "tool_call" }, [
      { toolCalls: EXPOSES.map(([name], index) => ({ id: `c${index}`, name, args: {} })) },
      "done",
    ]);
    expect(model.calls[0]?.tools?.map((tool) => tool.function.name).sort()).toEqual([
      "lisp_eval",
      "t_both",
      "t_default",
      "t_native",
    ]);
    expect(executed).toEqual(["t_both", "t_default", "t_native"]);
    expect(toolBodies(model.calls[1]?.messages)).toEqual([
      "t_both",
      "t_default",
      { status: "error", reason: "unknown_tool", message: "Unknown native tool `t_lisp`." },
      "t_native",
    ]);
  });

  it("lets programs call only both and ptc_lisp tools", async () => {
    const { definitions, executed } = tools();
    const { model } = await runWith({ tools: definitions, output: "text", ptcTransport: "tool_call" }, [
      {
        toolCalls: [
          { id: "c1", name: "lisp_eval", args: { program: "[(tool/t_both {}) (tool/t_lisp {})]" } },
        ],
      },
      { toolCalls: [{ id: "c2", name: "lisp_eval", args: { program: "(tool/t_native {})" } }] },
      { toolCalls: [{ id: "c3", name: "lisp_eval", args: { program: "(tool/t_default {})" } }] },
      "done",
    ]);
    expect(executed).toEqual(["t_both", "t_lisp"]);
    expect(toolBodies(model.calls[1]?.messages).at(-1)).toMatchObject({ status: "ok" });
    for (const call of [model.calls[2], model.calls[3]]) {
      const body = toolBodies(call?.messages).at(-1) as Record<string, unknown>;
      expect(body.status).toBe("error");
      expect(String(body.message)).toContain("Available tools: t_both, t_lisp");
    }
    const system = model.calls[0]?.system ?? "";
    expect(system).toContain("- tool/t_both");
    expect(system).toContain("- tool/t_lisp");
    expect(system).not.toContain("tool/t_native");
    expect(system).not.toContain("tool/t_default");
  });
});
