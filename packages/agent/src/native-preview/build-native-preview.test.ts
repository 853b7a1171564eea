import { describe, expect, it } from "vitest";
import { buildNativePreview } from "./index.js";

const searchLogs = { name: "search_logs", nativeResult: { preview: "metadata" as const, limit: 20 } };

const logRows = Array.from({ length: 1842 }, (_, index) => ({
  id: index + 1,
  timestamp: `2026-05-06T12:${String(index % 60).padStart(2, "0")}:00Z`,
  message: `error code 42 (event ${index + 1})`,
}));

describe("buildNativePreview", () => {
  it("builds the reference transcript's metadata preview exactly", () => {
    const outcome = buildNativePreview(searchLogs, logRows, { query: "error code 42" });
    expect(outcome).toEqual({
      preview: {
        status: "ok",
        result_count: 1842,
        schema: {
          type: "array",
          items: {
            type: "object",
            properties: { id: "integer", message: "string", timestamp: "string" },
          },
        },
        sample_keys: ["id", "message", "timestamp"],
        full_result_cached: true,
        cache_hint:
          'Call lisp_eval and then call (tool/search_logs {:query "error code 42"}) to process the full cached result.',
      },
    });
    expect(Object.keys(outcome.preview)[0]).toBe("status");
  });

  it("uses the metadata preview when the tool has no nativeResult", () => {
    const plain = buildNativePreview({ name: "search_logs", nativeResult: undefined }, logRows, {
      query: "error code 42",
    });
    expect(plain).toEqual(buildNativePreview(searchLogs, logRows, { query: "error code 42" }));
  });

  it("says when the result was too large to cache and that the tool will run again", () => {
    const { preview } = buildNativePreview(
      searchLogs,
      logRows,
      { query: "error code 42" },
      { cached: false, tooLargeBytes: 2_500_000, limitBytes: 1_000_000 },
    );
    expect(preview.full_result_cached).toBe(false);
    expect(preview.cache_hint).toBe(
      "The full result (2500000 bytes) was too large to keep in this run's cache (limit 1000000 bytes); " +
        'calling (tool/search_logs {:query "error code 42"}) inside lisp_eval runs the tool again.',
    );
    expect(preview.result_count).toBe(1842);
  });

  it("leaves out sizes it was not given from the too-large hint", () => {
    const { preview } = buildNativePreview(searchLogs, [], {}, { cached: false });
    expect(preview.cache_hint).toBe(
      "The full result was too large to keep in this run's cache; " +
        "calling (tool/search_logs {}) inside lisp_eval runs the tool again.",
    );
  });

  it("treats an explicit cached: true like the default", () => {
    expect(buildNativePreview(searchLogs, [1], { q: 1 }, { cached: true })).toEqual(
      buildNativePreview(searchLogs, [1], { q: 1 }),
    );
  });

  it("never calls the tool", () => {
    let calls = 0;
    const tool = {
      name: "search_logs",
      nativeResult: undefined,
      execute: () => {
        calls++;
      },
    };
    buildNativePreview(tool, logRows, {});
    expect(calls).toBe(0);
  });

  it("still returns the universal fields when the result cannot be inspected", () => {
    const hostile = new Proxy([], {
      get() {
        throw new Error("no");
      },
    });
    const { preview } = buildNativePreview(searchLogs, hostile, {});
    expect(preview).toEqual({
      status: "ok",
      full_result_cached: true,
      cache_hint: "Call lisp_eval and then call (tool/search_logs {}) to process the full cached result.",
    });
  });

  it.each([
    ["metadata", undefined],
    ["rows", { preview: "rows" as const, limit: 5 }],
    ["custom", { preview: (full: unknown) => ({ kind: typeof full }), limit: 20 }],
    ["custom fallback", { preview: () => ({ bad: 1n }), limit: 20 }],
  ])("produces a JSON round-trippable %s preview for any result", (_, nativeResult) => {
    const results: unknown[] = [
      logRows,
      [],
      {},
      { a: { b: [1, new Date(0)] } },
      [new Date(0), 1n, undefined, () => 1],
      [{ at: new Date(0), big: 1n, fn: () => 1 }],
      42,
      "text",
      null,
      undefined,
      new Map([[1, 2]]),
    ];
    for (const result of results) {
      const { preview } = buildNativePreview({ name: "t", nativeResult }, result, { "a-b": [1.0, "x"] });
      expect(JSON.parse(JSON.stringify(preview))).toEqual(preview);
    }
  });
});
