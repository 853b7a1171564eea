/**
 * The cache bridge of combined mode: an `expose: "both", cache: true` tool keeps its
 * full result in the run's tool cache, whichever layer called it first, under one canonical key;
 * native calls see a preview, programs read the full result. Also the `toolCache` run option and
 * the byte limits this port adds (`toolCacheLimitBytes`, per-tool `maxCachedBytes`).
 */
import { canonicalCacheKey } from "@ptc/tool";
import { describe, expect, it } from "vitest";
import {
  type AgentEvent,
  type AgentToolDefinition,
  createAgent,
  type Message,
  type RunOptions,
  run,
} from "../index.js";
import { createScriptedModel, type ScriptedStep } from "../testing/index.js";
import { readToolBody } from "./read-tool-body.js";

interface ToolSetup {
  expose?: "native" | "ptc_lisp" | "both";
  cache?: boolean;
  maxCachedBytes?: number;
  result?: (args: Record<string, unknown>) => unknown;
}

function searchTool(setup: ToolSetup = {}) {
  const executions: Record<string, unknown>[] = [];
  const definition = {
    signature: "(query :string) -> [:any]",
    description: "Search log events.",
    ...(setup.expose === undefined ? { expose: "both" as const } : { expose: setup.expose }),
    cache: setup.cache ?? true,
    ...(setup.maxCachedBytes === undefined ? {} : { maxCachedBytes: setup.maxCachedBytes }),
    execute: (args: Record<string, unknown>) => {
      executions.push(args);
      return setup.result === undefined ? [{ id: 1, query: args.query }] : setup.result(args);
    },
  };
  return { definition: definition as AgentToolDefinition, executions };
}

function agentWith(tools: Record<string, AgentToolDefinition>, maxTurns = 6) {
  return createAgent({ prompt: "Investigate.", output: "text", ptcTransport: "tool_call", maxTurns, tools });
}

async function runScript(
  agent: ReturnType<typeof agentWith>,
  steps: ScriptedStep[],
  options: Omit<RunOptions, "llm"> = {},
) {
  const model = createScriptedModel(steps);
  const events: AgentEvent[] = [];
  const result = await run(agent, { ...options, llm: model.llm, onEvent: (event) => events.push(event) });
  model.assertConsumed();
  const toolEnds = events.flatMap((event) => (event.type === "tool-call-end" ? [event] : []));
  return { model, result, toolEnds };
}

function native(id: string, name: string, args: Record<string, unknown> | string) {
  return { toolCalls: [{ id, name, args }] };
}

function lispEval(id: string, program: string) {
  return { toolCalls: [{ id, name: "lisp_eval", args: { program } }] };
}

function lastToolBody(messages: readonly Message[] | undefined): Record<string, unknown> {
  const last = (messages ?? []).filter((message) => message.role === "tool").at(-1);
  return readToolBody(last?.content);
}

describe("native call first", () => {
  it("returns a preview, then a program reads the cached result without calling the tool", async () => {
    const { definition, executions } = searchTool();
    const { model, result, toolEnds } = await runScript(agentWith({ search_logs: definition }), [
      native("c1", "search_logs", { query: "timeout" }),
      lispEval("c2", '(count (tool/search_logs {:query "timeout"}))'),
      "One.",
    ]);
    expect(executions).toEqual([{ query: "timeout" }]);
    const preview = lastToolBody(model.calls[1]?.messages);
    expect(preview).toMatchObject({ status: "ok", result_count: 1, full_result_cached: true });
    expect(preview).not.toHaveProperty("rows");
    expect(lastToolBody(model.calls[2]?.messages).result).toBe("user=> 1");

    const programRead = toolEnds.find(
      (event) => event.toolName === "search_logs" && event.exposureLayer === "ptc_lisp",
    );
    expect(programRead).toMatchObject({ cached: true, error: false });
    const programRecord = result.step.toolCalls.find((call) => call.exposureLayer === "ptc_lisp");
    expect(programRecord).toMatchObject({
      name: "search_logs",
      cached: true,
      result: [{ id: 1, query: "timeout" }],
    });
  });

  it("answers a repeated native call from the cache with the same preview", async () => {
    const { definition, executions } = searchTool();
    const { model, toolEnds } = await runScript(agentWith({ search_logs: definition }), [
      native("c1", "search_logs", { query: "timeout" }),
      native("c2", "search_logs", { query: "timeout" }),
      "done",
    ]);
    expect(executions).toHaveLength(1);
    expect(lastToolBody(model.calls[2]?.messages)).toEqual(lastToolBody(model.calls[1]?.messages));
    expect(toolEnds.map((event) => [event.exposureLayer, event.cached])).toEqual([
      ["native", false],
      ["native", true],
    ]);
  });
});

describe("program call first", () => {
  it("seeds the cache so that a later native call returns the preview without running the tool", async () => {
    const { definition, executions } = searchTool();
    const { model, toolEnds } = await runScript(agentWith({ search_logs: definition }), [
      lispEval("c1", '(count (tool/search_logs {:query "disk"}))'),
      native("c2", "search_logs", { query: "disk" }),
      "done",
    ]);
    expect(executions).toEqual([{ query: "disk" }]);
    expect(lastToolBody(model.calls[2]?.messages)).toMatchObject({
      status: "ok",
      result_count: 1,
      full_result_cached: true,
      cache_hint:
        'Call lisp_eval and then call (tool/search_logs {:query "disk"}) to process the full cached result.',
    });
    expect(
      toolEnds
        .filter((event) => event.toolName === "search_logs")
        .map((event) => [event.exposureLayer, event.cached]),
    ).toEqual([
      ["ptc_lisp", false],
      ["native", true],
    ]);
  });

  it("lets a later program reuse an earlier program's result", async () => {
    const { definition, executions } = searchTool();
    await runScript(agentWith({ search_logs: definition }), [
      lispEval("c1", '(count (tool/search_logs {:query "disk"}))'),
      lispEval("c2", '(first (tool/search_logs {:query "disk"}))'),
      "done",
    ]);
    expect(executions).toHaveLength(1);
  });
});

describe("canonical keys across layers", () => {
  it("meets on one entry whatever the key order, 1 vs 1.0 and hyphen vs underscore", async () => {
    const { definition, executions } = searchTool({ result: () => ["row"] });
    const agent = agentWith({
      search_logs: { ...(definition as object), signature: undefined } as AgentToolDefinition,
    });
    const { result } = await runScript(agent, [
      native("c1", "search_logs", '{"page-size": 10, "filter": {"min": 1.0, "level": "error"}}'),
      lispEval("c2", '(tool/search_logs {:filter {:level "error" :min 1} :page_size 10.0})'),
      lispEval("c3", '(tool/search_logs {:page-size 10 :filter {:min 1.0 :level "error"}})'),
      native("c4", "search_logs", { filter: { level: "error", min: 1 }, page_size: 10 }),
      "done",
    ]);
    expect(executions).toHaveLength(1);
    expect([...result.step.toolCache.keys()]).toEqual([
      canonicalCacheKey("search_logs", { page_size: 10, filter: { level: "error", min: 1 } }),
    ]);
    expect(
      result.step.toolCalls.filter((call) => call.name === "search_logs").map((call) => call.cached),
    ).toEqual([false, true, true, true]);
  });

  it("keeps different arguments apart", async () => {
    const { definition, executions } = searchTool();
    const { result } = await runScript(agentWith({ search_logs: definition }), [
      native("c1", "search_logs", { query: "a" }),
      native("c2", "search_logs", { query: "b" }),
      "done",
    ]);
    expect(executions).toHaveLength(2);
    expect(result.step.toolCache.size).toBe(2);
  });
});

describe("tools outside the bridge", () => {
  it("expose both with cache false: raw native result, no cache, programs re-run the tool", async () => {
    const { definition, executions } = searchTool({ cache: false });
    const { model, result } = await runScript(agentWith({ search_logs: definition }), [
      native("c1", "search_logs", { query: "x" }),
      lispEval("c2", '(count (tool/search_logs {:query "x"}))'),
      lispEval("c3", '(count (tool/search_logs {:query "x"}))'),
      "done",
    ]);
    expect(executions).toHaveLength(3);
    expect(lastToolBody(model.calls[1]?.messages)).toEqual([{ id: 1, query: "x" }] as never);
    expect(result.step.toolCache.size).toBe(0);
  });

  it("expose native with cache true: no preview and no cache, the tool runs every time", async () => {
    const { definition, executions } = searchTool({ expose: "native", cache: true });
    const { model, result } = await runScript(agentWith({ search_logs: definition }), [
      native("c1", "search_logs", { query: "x" }),
      native("c2", "search_logs", { query: "x" }),
      "done",
    ]);
    expect(executions).toHaveLength(2);
    expect(lastToolBody(model.calls[2]?.messages)).toEqual([{ id: 1, query: "x" }] as never);
    expect(result.step.toolCache.size).toBe(0);
  });

  it("writes nothing when the tool throws, natively or from a program, and loses no entry", async () => {
    let failing = true;
    const { definition, executions } = searchTool({
      result: (args) => {
        if (failing && args.query === "x") throw new Error("backend down");
        return [String(args.query)];
      },
    });
    const steps: ScriptedStep[] = [
      native("c0", "search_logs", { query: "kept" }),
      native("c1", "search_logs", { query: "x" }),
      lispEval("c2", '(tool/search_logs {:query "x"})'),
      () => {
        failing = false;
        return native("c3", "search_logs", { query: "x" });
      },
      lispEval("c4", '(tool/search_logs {:query "kept"})'),
      "done",
    ];
    const { model, result, toolEnds } = await runScript(agentWith({ search_logs: definition }, 8), steps);
    expect(executions.map((args) => args.query)).toEqual(["kept", "x", "x", "x"]);
    expect(lastToolBody(model.calls[2]?.messages)).toEqual({
      error: "backend down",
      tool: "search_logs",
      args_received: { query: "x" },
      hint: null,
    });
    expect(lastToolBody(model.calls[3]?.messages)).toMatchObject({
      status: "error",
      reason: "runtime_error",
    });
    expect(String(lastToolBody(model.calls[3]?.messages).message)).toContain("backend down");
    expect(lastToolBody(model.calls[4]?.messages)).toMatchObject({ status: "ok", full_result_cached: true });
    expect(lastToolBody(model.calls[5]?.messages).result).toBe('user=> ["kept"]');
    expect([...result.step.toolCache.keys()].sort()).toEqual(
      [
        canonicalCacheKey("search_logs", { query: "kept" }),
        canonicalCacheKey("search_logs", { query: "x" }),
      ].sort(),
    );
    expect(
      toolEnds
        .filter((event) => event.toolName === "search_logs")
        .map((event) => [event.error, event.cached]),
    ).toEqual([
      [false, false],
      [true, false],
      [true, false],
      [false, false],
      [false, true],
    ]);
  });
});

describe("the step's tool cache and the toolCache run option", () => {
  it("is a Map keyed by canonicalCacheKey(name, args) holding { result }", async () => {
    const { definition } = searchTool({ result: (args) => ({ echoed: args.query }) });
    const { result } = await runScript(agentWith({ search_logs: definition }), [
      native("c1", "search_logs", { query: "q" }),
      "done",
    ]);
    expect(result.step.toolCache).toBeInstanceOf(Map);
    expect([...result.step.toolCache.entries()]).toEqual([
      [canonicalCacheKey("search_logs", { query: "q" }), { result: { echoed: "q" } }],
    ]);
  });

  it("seeds the run's cache from a Map", async () => {
    const { definition, executions } = searchTool();
    const seeded = new Map([[canonicalCacheKey("search_logs", { query: "seeded" }), { result: [1, 2, 3] }]]);
    const { model, result } = await runScript(
      agentWith({ search_logs: definition }),
      [native("c1", "search_logs", { query: "seeded" }), "done"],
      { toolCache: seeded },
    );
    expect(executions).toEqual([]);
    expect(lastToolBody(model.calls[1]?.messages)).toMatchObject({
      result_count: 3,
      full_result_cached: true,
    });
    expect(result.step.toolCache.get(canonicalCacheKey("search_logs", { query: "seeded" }))).toEqual({
      result: [1, 2, 3],
    });
  });

  it("seeds the run's cache from a plain record, as a serialized step cache", async () => {
    const { definition: first } = searchTool({ result: () => [10, 20] });
    const { result: earlier } = await runScript(agentWith({ search_logs: first }), [
      native("c1", "search_logs", { query: "q" }),
      "done",
    ]);
    const record = JSON.parse(JSON.stringify(Object.fromEntries(earlier.step.toolCache)));

    const { definition, executions } = searchTool();
    const { model } = await runScript(
      agentWith({ search_logs: definition }),
      [lispEval("c1", '(reduce + (tool/search_logs {:query "q"}))'), "30"],
      { toolCache: record },
    );
    expect(executions).toEqual([]);
    expect(lastToolBody(model.calls[1]?.messages).result).toBe("user=> 30");
  });
});

describe("cache limits", () => {
  const hundredBytes = (args: Record<string, unknown>) => `${String(args.query)}`.padEnd(98, ".");

  it("evicts the least recently used entry past toolCacheLimitBytes; an evicted entry is fetched again", async () => {
    const { definition, executions } = searchTool({ result: hundredBytes });
    const { result } = await runScript(
      agentWith({ search_logs: definition }, 8),
      [
        native("c1", "search_logs", { query: "a" }),
        native("c2", "search_logs", { query: "b" }),
        lispEval("c3", '(tool/search_logs {:query "a"})'),
        native("c4", "search_logs", { query: "c" }),
        lispEval("c5", '[(tool/search_logs {:query "a"}) (tool/search_logs {:query "b"})]'),
        "done",
      ],
      { toolCacheLimitBytes: 250 },
    );
    // a, b, a (hit: a becomes most recent), c (evicts b), then a hits and b is fetched again.
    expect(executions.map((args) => args.query)).toEqual(["a", "b", "c", "b"]);
    const key = (query: string) => canonicalCacheKey("search_logs", { query });
    expect([...result.step.toolCache.keys()]).toEqual([key("a"), key("b")]);
  });

  it("does not keep a result larger than the tool's maxCachedBytes, and says so in the preview", async () => {
    const { definition, executions } = searchTool({
      maxCachedBytes: 50,
      result: () => Array.from({ length: 20 }, (_, index) => ({ id: index })),
    });
    const { model, result } = await runScript(agentWith({ search_logs: definition }), [
      native("c1", "search_logs", { query: "big" }),
      lispEval("c2", '(count (tool/search_logs {:query "big"}))'),
      "done",
    ]);
    const preview = lastToolBody(model.calls[1]?.messages);
    expect(preview.status).toBe("ok");
    expect(preview.result_count).toBe(20);
    expect(preview.full_result_cached).toBe(false);
    expect(String(preview.cache_hint)).toContain("too large");
    expect(String(preview.cache_hint)).toContain('(tool/search_logs {:query "big"})');
    expect(executions).toHaveLength(2);
    expect(result.step.toolCache.size).toBe(0);
  });

  it("keeps results within maxCachedBytes", async () => {
    const { definition, executions } = searchTool({ maxCachedBytes: 10_000 });
    const { model } = await runScript(agentWith({ search_logs: definition }), [
      native("c1", "search_logs", { query: "small" }),
      lispEval("c2", '(count (tool/search_logs {:query "small"}))'),
      "done",
    ]);
    expect(lastToolBody(model.calls[1]?.messages).full_result_cached).toBe(true);
    expect(executions).toHaveLength(1);
  });

  it("does not keep a single result larger than toolCacheLimitBytes", async () => {
    const { definition, executions } = searchTool({ result: () => "x".repeat(500) });
    const { model } = await runScript(
      agentWith({ search_logs: definition }),
      [native("c1", "search_logs", { query: "q" }), native("c2", "search_logs", { query: "q" }), "done"],
      { toolCacheLimitBytes: 100 },
    );
    expect(lastToolBody(model.calls[1]?.messages).full_result_cached).toBe(false);
    expect(executions).toHaveLength(2);
  });
});
