/**
 * Native result previews through a combined-mode run: the rows preview and its limit,
 * custom preview functions, each fallback of a failing custom preview (reported as a
 * `native-preview-fallback` event, never a crash), and the metadata preview's types (`false` is
 * a boolean, where the reference reported "null").
 */
import { describe, expect, it } from "vitest";
import {
  type AgentEvent,
  type AgentToolDefinition,
  buildNativePreview,
  createAgent,
  type NativePreviewFallbackEvent,
  run,
} from "../index.js";
import { createScriptedModel } from "../testing/index.js";
import { readToolBody } from "./read-tool-body.js";

const ROWS = Array.from({ length: 8 }, (_, index) => ({
  id: index + 1,
  score: index * 10,
  active: index % 2 === 1,
  when: new Date(Date.UTC(2026, 4, 6, 12, index)),
}));

async function previewOf(nativeResult: unknown, result: unknown = ROWS) {
  let executions = 0;
  const agent = createAgent({
    prompt: "Look.",
    output: "text",
    ptcTransport: "tool_call",
    tools: {
      fetch_rows: {
        signature: "(kind :string) -> :any",
        expose: "both",
        cache: true,
        nativeResult,
        execute: () => {
          executions += 1;
          return result;
        },
      } as AgentToolDefinition,
    },
  });
  const model = createScriptedModel([
    { toolCalls: [{ id: "c1", name: "fetch_rows", args: { kind: "all" } }] },
    {
      toolCalls: [
        { id: "c2", name: "lisp_eval", args: { program: '(count (tool/fetch_rows {:kind "all"}))' } },
      ],
    },
    "done",
  ]);
  const events: AgentEvent[] = [];
  const outcome = await run(agent, { llm: model.llm, onEvent: (event) => events.push(event) });
  model.assertConsumed();
  const toolMessage = model.calls[1]?.messages.at(-1);
  expect(toolMessage?.role).toBe("tool");
  const fallbacks = events.filter(
    (event): event is NativePreviewFallbackEvent => event.type === "native-preview-fallback",
  );
  const counted = model.calls[2]?.messages.at(-1)?.content ?? "";
  const preview = JSON.parse(toolMessage?.content ?? "null") as Record<string, unknown>;
  return {
    preview,
    /** What the public builder makes of the same result: the run must show the model exactly that. */
    built: () =>
      JSON.parse(
        JSON.stringify(buildNativePreview(agent.tools.fetch_rows as never, result, { kind: "all" }).preview),
      ),
    fallbacks,
    outcome,
    executions,
    counted: readToolBody(counted).result as string | undefined,
  };
}

const HINT =
  'Call lisp_eval and then call (tool/fetch_rows {:kind "all"}) to process the full cached result.';

describe("rows preview", () => {
  it("shows the first `limit` rows verbatim (dates as ISO strings) with the count and schema", async () => {
    const { preview, fallbacks, counted, executions, built } = await previewOf({ preview: "rows", limit: 3 });
    expect(preview).toEqual(built());
    expect(preview).toEqual({
      status: "ok",
      rows: [
        { id: 1, score: 0, active: false, when: "2026-05-06T12:00:00.000Z" },
        { id: 2, score: 10, active: true, when: "2026-05-06T12:01:00.000Z" },
        { id: 3, score: 20, active: false, when: "2026-05-06T12:02:00.000Z" },
      ],
      result_count: 8,
      schema: {
        type: "array",
        items: {
          type: "object",
          properties: { active: "boolean", id: "integer", score: "integer", when: "string" },
        },
      },
      sample_keys: ["active", "id", "score", "when"],
      full_result_cached: true,
      cache_hint: HINT,
    });
    expect(fallbacks).toEqual([]);
    // The program still reads all eight rows from the cache.
    expect(counted).toBe("user=> 8");
    expect(executions).toBe(1);
  });

  it("defaults to 20 rows", async () => {
    const many = Array.from({ length: 25 }, (_, index) => ({ n: index }));
    const { preview } = await previewOf({ preview: "rows" }, many);
    expect(preview.rows).toEqual(many.slice(0, 20));
    expect(preview.result_count).toBe(25);
  });
});

describe("metadata preview", () => {
  it("reports false values as boolean, never null", async () => {
    const { preview } = await previewOf({ preview: "metadata" }, [{ flag: false, note: null }]);
    expect(preview.schema).toEqual({
      type: "array",
      items: { type: "object", properties: { flag: "boolean", note: "null" } },
    });
  });

  it("describes an object result by its properties and keys", async () => {
    const { preview } = await previewOf(undefined, { total: 3, items: [1], meta: { a: 1 }, ratio: 0.5 });
    expect(preview).toEqual({
      status: "ok",
      schema: {
        type: "object",
        properties: { items: "array", meta: "object", ratio: "number", total: "integer" },
      },
      sample_keys: ["items", "meta", "ratio", "total"],
      full_result_cached: true,
      cache_hint: HINT,
    });
  });

  it("is the default for a both + cache tool without nativeResult", async () => {
    const { preview } = await previewOf(undefined, ["a", "b"]);
    expect(preview).toEqual({
      status: "ok",
      result_count: 2,
      schema: { type: "array", items: { type: "string" } },
      full_result_cached: true,
      cache_hint: HINT,
    });
  });
});

describe("custom preview", () => {
  it("merges the function's object with the universal fields; the function gets only the result", async () => {
    const received: unknown[][] = [];
    const { preview, fallbacks, built } = await previewOf({
      preview: (...args: unknown[]) => {
        received.push(args);
        const rows = args[0] as typeof ROWS;
        return {
          top_scores: rows.slice(-2).map((row) => row.score),
          status: "ignored",
          full_result_cached: 0,
        };
      },
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toHaveLength(1);
    expect(received[0]?.[0]).toBe(ROWS);
    expect(preview).toEqual(built());
    expect(preview).toEqual({
      status: "ok",
      top_scores: [60, 70],
      full_result_cached: true,
      cache_hint: HINT,
    });
    expect(fallbacks).toEqual([]);
  });

  const metadataFallback = {
    status: "ok",
    result_count: 8,
    schema: {
      type: "array",
      items: {
        type: "object",
        properties: { active: "boolean", id: "integer", score: "integer", when: "string" },
      },
    },
    sample_keys: ["active", "id", "score", "when"],
    full_result_cached: true,
    cache_hint: HINT,
  };

  const failing: [string, (rows: unknown) => unknown][] = [
    [
      "raised",
      () => {
        throw new Error("preview bug");
      },
    ],
    ["non_map", (rows) => (rows as unknown[]).length],
    ["non_map", () => ["not", "a", "map"]],
    ["non_encodable", () => ({ big: 10n })],
    ["non_encodable", () => ({ fn: () => 1 })],
  ];

  for (const [category, preview] of failing) {
    it(`falls back to the metadata preview and reports ${category} (${String(preview).slice(0, 40)})`, async () => {
      const { preview: shown, fallbacks, outcome, executions, counted, built } = await previewOf({ preview });
      expect(shown).toEqual(metadataFallback);
      expect(shown).toEqual(built());
      expect(fallbacks).toHaveLength(1);
      expect(fallbacks[0]).toMatchObject({ toolName: "fetch_rows", category });
      expect(fallbacks[0]?.message).toContain("fetch_rows");
      expect(outcome.ok).toBe(true);
      expect(executions).toBe(1);
      // The tool's result is unaffected: the cache holds it whole.
      expect(counted).toBe("user=> 8");
    });
  }
});
