/**
 * What the model is told stays in its context for the rest of the run, so no text the run sends
 * back may grow with what hostile input holds: the arguments a model sends (two megabytes of
 * them), the names it writes (a tool, a symbol, a var), the keys of a tool's result. Each such
 * text is quoted by its start and its size, and still says what went wrong and what to do. The
 * measure is what the scripted model receives in its next request, less the assistant turn it
 * wrote itself.
 *
 * (Already bounded, and covered elsewhere: what a tool throws, robust-hostile-errors.test.ts and
 * robust-tool-faults.test.ts; printed output and previews of huge values, the protocol's caps.)
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, asTool, createAgent, run } from "../index.js";
import {
  createScriptedModel,
  fencedProgram,
  lispEvalCall,
  type ScriptedModel,
  type ScriptedStep,
  toolCalls,
} from "../testing/index.js";

/** Two megabytes of one argument. */
const HUGE = "x".repeat(2_000_000);
/** A name as long as a program may make one. */
const LONG_NAME = "a".repeat(500_000);
/** Bytes of one answer far above what normal-sized input gets, far below what a quote of HUGE costs. */
const BOUND = 10_000;

const TEXT = { output: "text" } as const;
const COMBINED = { output: "text", ptcTransport: "tool_call" } as const;

/** What request `index` added to the conversation, less the model's own turn. */
function told(model: ScriptedModel, index = 1): string {
  const before = model.calls[index - 1]?.messages.length ?? 0;
  return (model.calls[index]?.messages ?? [])
    .slice(before)
    .filter((message) => message.role !== "assistant")
    .map((message) => message.content)
    .join("\n");
}

async function runScript(options: Partial<AgentOptions>, steps: ScriptedStep[]) {
  const model = createScriptedModel(steps);
  const result = await run(createAgent({ prompt: "p", ...options }), { llm: model.llm });
  return { model, result };
}

const intTool = { signature: "(id :int) -> :any", execute: () => 1 };

describe("args_received", () => {
  for (const [mode, options] of Object.entries({ "text mode": TEXT, "combined mode": COMBINED })) {
    it(`quotes two megabytes of invalid arguments by their start and size (${mode})`, async () => {
      const tool = mode === "combined mode" ? { ...intTool, expose: "both" as const } : intTool;
      const { model } = await runScript({ ...options, tools: { get: tool } }, [
        toolCalls({ name: "get", args: { id: HUGE } }),
        "done",
      ]);
      const answer = told(model);
      expect(answer.length).toBeLessThan(BOUND);
      const body = JSON.parse(answer.split("\n").at(-1) ?? "") as Record<string, unknown>;
      expect(body.error).toContain("invalid arguments for tool get");
      expect(body.hint).toContain('{"id": int}');
      expect(body.args_received).toMatch(/^\{"id":"xxx+\.\.\. \(cut: 2000009 characters of JSON\)$/);
    });
  }

  it("quotes the arguments of a call that failed by their start and size", async () => {
    const failing = {
      signature: "(q :string) -> :any",
      execute: () => {
        throw new Error("no such thing");
      },
    };
    const { model, result } = await runScript({ ...TEXT, tools: { find: failing } }, [
      toolCalls({ name: "find", args: { q: HUGE } }),
      "done",
    ]);
    expect(told(model).length).toBeLessThan(BOUND);
    expect(JSON.parse(told(model))).toMatchObject({
      error: "no such thing",
      tool: "find",
      args_received: expect.stringMatching(/\.\.\. \(cut: 2000008 characters of JSON\)$/),
    });
    // The host's record keeps what the model sent.
    expect(result.step.toolCalls[0]?.args).toEqual({ q: HUGE });
  });

  it("keeps arguments of a kilobyte exactly as sent", async () => {
    const args = { id: "y".repeat(990) };
    const { model } = await runScript({ ...TEXT, tools: { get: intTool } }, [
      toolCalls({ name: "get", args }),
      "done",
    ]);
    expect(JSON.parse(told(model))).toMatchObject({ args_received: args });
  });
});

describe("arguments a model adapter could not parse", () => {
  // The adapters quote the model's raw text: `Invalid JSON arguments: <raw>`.
  const broken = (name: string) => ({
    toolCalls: [{ id: "a", name, args: {}, argsError: `Invalid JSON arguments: {"q": "${HUGE}` }],
  });
  const cases: Record<string, { options: Partial<AgentOptions>; steps: ScriptedStep[] }> = {
    "text mode": { options: { ...TEXT, tools: { get: intTool } }, steps: [broken("get"), "done"] },
    "the tool_call transport": {
      options: { ptcTransport: "tool_call" },
      steps: [broken("lisp_eval"), lispEvalCall("(return 1)")],
    },
  };
  for (const [mode, { options, steps }] of Object.entries(cases)) {
    it(`are quoted back by their start and size (${mode})`, async () => {
      const { model } = await runScript(options, steps);
      expect(told(model).length).toBeLessThan(BOUND);
      expect(told(model)).toContain("Invalid JSON arguments: {");
      expect(told(model)).toContain("... (2000031 characters)");
    });
  }
});

describe("a tool name the model made up", () => {
  const cases: Record<string, { options: Partial<AgentOptions>; steps: ScriptedStep[] }> = {
    "text mode": {
      options: { ...TEXT, tools: { get: intTool } },
      steps: [toolCalls({ name: HUGE }), "done"],
    },
    "combined mode": { options: COMBINED, steps: [toolCalls({ name: HUGE }), "done"] },
    "the tool_call transport": {
      options: { ptcTransport: "tool_call" },
      steps: [toolCalls({ name: HUGE }), lispEvalCall("(return 1)")],
    },
  };
  for (const [mode, { options, steps }] of Object.entries(cases)) {
    it(`is quoted by its start and length (${mode})`, async () => {
      const { model } = await runScript(options, steps);
      expect(told(model).length).toBeLessThan(BOUND);
      expect(told(model)).toContain(`${"x".repeat(200)}... (2000000 characters)`);
    });
  }
});

describe("a program's error quoting a 500,000-character name", () => {
  const programs: Record<string, string> = {
    "an unbound symbol": `(+ 1 ${LONG_NAME})`,
    "a keyword called with no map": `(:${LONG_NAME})`,
    "an unknown tool": `(tool/${LONG_NAME} {})`,
    "a cond without a result": `(cond ${LONG_NAME})`,
  };
  for (const [label, program] of Object.entries(programs)) {
    it(`stays short over the tool_call transport: ${label}`, async () => {
      const { model } = await runScript({ ptcTransport: "tool_call" }, [
        lispEvalCall(program, { id: "a" }),
        lispEvalCall("(return 1)", { id: "b" }),
      ]);
      expect(told(model).length).toBeLessThan(BOUND);
      expect(told(model)).toContain("... (500000 characters)");
    });
  }
});

describe("a var with a 500,000-character name", () => {
  const transports: Record<
    string,
    { options: Partial<AgentOptions>; step: (program: string) => ScriptedStep }
  > = {
    "content mode": { options: {}, step: fencedProgram },
    "the tool_call transport": { options: { ptcTransport: "tool_call" }, step: (p) => lispEvalCall(p) },
  };
  for (const [mode, { options, step }] of Object.entries(transports)) {
    it(`is named by its start and length in every later turn's memory (${mode})`, async () => {
      const { model } = await runScript(options, [
        step(`(def ${LONG_NAME} 1)`),
        step("(+ 1 2)"),
        step("(return 1)"),
      ]);
      for (const index of [1, 2]) {
        expect(told(model, index).length).toBeLessThan(BOUND);
        expect(told(model, index)).toContain("... (500000 characters)");
      }
    });
  }
});

describe("a program that defines 9,000 vars", () => {
  const defs = Array.from({ length: 9000 }, (_, index) => `(def ${"v".repeat(90)}${index} ${index})`).join(
    " ",
  );
  const transports: Record<
    string,
    { options: Partial<AgentOptions>; step: (program: string) => ScriptedStep }
  > = {
    "content mode": { options: {}, step: fencedProgram },
    "the tool_call transport": { options: { ptcTransport: "tool_call" }, step: (p) => lispEvalCall(p) },
  };
  for (const [mode, { options, step }] of Object.entries(transports)) {
    it(`costs no later turn their names (${mode})`, async () => {
      const { model } = await runScript(options, [step(defs), step("(+ 1 2)"), step("(return 1)")]);
      // 50 names of 95 characters, twice (changed and stored), each preview framed: 13,619 characters.
      expect(told(model, 1).length).toBeLessThan(2 * BOUND);
      expect(told(model, 2).length).toBeLessThan(BOUND);
    });
  }
});

describe("a returned value that does not fit the signature", () => {
  it("lists its first 20 issues and how many more there are (tool_call transport)", async () => {
    const { model } = await runScript({ signature: "[:int]", ptcTransport: "tool_call" }, [
      lispEvalCall("(return (vec (map str (range 300000))))", { id: "a" }),
      lispEvalCall("(return [1])", { id: "b" }),
    ]);
    const answer = told(model);
    expect(answer.length).toBeLessThan(BOUND);
    const body = JSON.parse(answer) as Record<string, string>;
    expect(body.reason).toBe("validation_error");
    expect(body.message).toContain("- [19]: expected int, got string");
    expect(body.message).toContain("- ... (299980 more errors)");
    expect(body.message).toContain("Please fix and call (return ...) with a correctly typed value.");
  });
});

describe("300,000 values of the wrong type", () => {
  it("as a text-mode JSON answer, are reported by their first 20 issues", async () => {
    const answer = JSON.stringify({ items: Array.from({ length: 300_000 }, (_, index) => `s${index}`) });
    const { model } = await runScript({ ...TEXT, signature: "{items [:int]}" }, [answer, '{"items": [1]}']);
    expect(told(model).length).toBeLessThan(BOUND);
    expect(told(model)).toContain("items.19: expected int, got string; ... (299980 more)");
  });

  it("as a native call's arguments, are reported by their first 20 issues", async () => {
    const tool = { signature: "(ids [:int]) -> :any", execute: () => 1 };
    const ids = Array.from({ length: 300_000 }, (_, index) => `s${index}`);
    const { model } = await runScript({ ...TEXT, tools: { get: tool } }, [
      toolCalls({ name: "get", args: { ids } }),
      "done",
    ]);
    expect(told(model).length).toBeLessThan(BOUND);
    expect(JSON.parse(told(model)).error).toMatch(
      /ids\.19: expected int, got string; \.\.\. \(299980 more\)$/,
    );
  });
});

describe("a child agent that fails with a huge value", () => {
  it("is a tool error the parent's model reads in 2,000 characters", async () => {
    const child = createAgent({ name: "child", prompt: "c", description: "child" });
    const childModel = createScriptedModel([fencedProgram("(fail (vec (range 300000)))")]);
    const parentModel = createScriptedModel([toolCalls({ name: "child", args: {} }), "done"]);
    const parent = createAgent({
      prompt: "p",
      ...TEXT,
      tools: { child: asTool(child, { llm: childModel.llm }) },
    });
    const result = await run(parent, { llm: parentModel.llm });
    expect(result.step.return).toBe("done");
    expect(told(parentModel).length).toBeLessThan(BOUND);
    expect(JSON.parse(told(parentModel))).toMatchObject({
      tool: "child",
      error: expect.stringMatching(/^\[0 1 2 /),
    });
  });
});

describe("a (fail v) in combined mode", () => {
  it("shows the model a preview of v, not all of the host's rows it holds", async () => {
    const rows = Array.from({ length: 100_000 }, (_, id) => ({ id, name: `customer ${id}` }));
    const model = createScriptedModel([lispEvalCall("(fail {:rows data/rows})"), "done"]);
    const result = await run(createAgent({ prompt: "p", ...COMBINED }), {
      llm: model.llm,
      context: { rows },
    });
    expect(result.step.return).toBe("done");
    const answer = told(model);
    expect(answer.length).toBeLessThan(BOUND);
    const body = JSON.parse(answer) as Record<string, string>;
    expect(body.reason).toBe("fail");
    expect(body.result).toContain('{:rows [{"id" 0 "name" "customer 0"}');
    expect(body.result).toContain("(cut at 2000 characters)");
  });
});

describe("combined mode's native preview", () => {
  const cachedTool = (result: unknown) => ({
    search: { signature: "(q :string) -> :any", execute: () => result, expose: "both" as const, cache: true },
  });

  it("refers to two megabytes of arguments in its cache hint without repeating them", async () => {
    const { model } = await runScript({ ...COMBINED, tools: cachedTool([1, 2]) }, [
      toolCalls({ name: "search", args: { q: HUGE } }),
      "done",
    ]);
    expect(told(model).length).toBeLessThan(BOUND);
    expect(JSON.parse(told(model))).toMatchObject({
      full_result_cached: true,
      cache_hint:
        "Call lisp_eval and then call (tool/search ...) with the same arguments to process the full cached result.",
    });
  });

  it("names keys 100,000 characters long by their start and length", async () => {
    const keys = Array.from(
      { length: 30 },
      (_, index) => `${"k".repeat(100_000)}${String(index).padStart(2, "0")}`,
    );
    const row = Object.fromEntries(keys.map((key, index) => [key, index]));
    for (const result of [row, [row, row]]) {
      const { model } = await runScript({ ...COMBINED, tools: cachedTool(result) }, [
        toolCalls({ name: "search", args: { q: "a" } }),
        "done",
      ]);
      expect(told(model).length).toBeLessThan(BOUND);
      const preview = JSON.parse(told(model)) as { sample_keys: string[] };
      expect(preview.sample_keys).toHaveLength(20);
      expect(preview.sample_keys[0]).toBe(`${"k".repeat(200)}... (100002 characters)`);
    }
  });
});
