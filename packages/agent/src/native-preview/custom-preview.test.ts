import type { NativePreviewFunction } from "@ptc/tool";
import { describe, expect, it } from "vitest";
import { buildNativePreview } from "./index.js";

function customTool(preview: NativePreviewFunction) {
  return { name: "scores", nativeResult: { preview, limit: 20 } };
}

const result = [{ score: 9 }, { score: 7 }, { score: 5 }, { score: 3 }];

const metadataFallback = {
  status: "ok",
  result_count: 4,
  schema: { type: "array", items: { type: "object", properties: { score: "integer" } } },
  sample_keys: ["score"],
  full_result_cached: true,
  cache_hint: "Call lisp_eval and then call (tool/scores {:top 3}) to process the full cached result.",
};

describe("custom preview", () => {
  it("returns the function's object merged with the universal fields", () => {
    const outcome = buildNativePreview(
      customTool((full) => ({ top_scores: (full as typeof result).slice(0, 3).map((row) => row.score) })),
      result,
      { top: 3 },
    );
    expect(outcome).toEqual({
      preview: {
        status: "ok",
        top_scores: [9, 7, 5],
        full_result_cached: true,
        cache_hint: metadataFallback.cache_hint,
      },
    });
    expect(outcome).not.toHaveProperty("fallback");
  });

  it("passes the function only the full result", () => {
    const calls: unknown[][] = [];
    buildNativePreview(
      customTool((...received: unknown[]) => {
        calls.push(received);
        return {};
      }),
      result,
      { top: 3 },
    );
    expect(calls).toEqual([[result]]);
  });

  it("lets the universal fields override same-named custom fields", () => {
    const { preview } = buildNativePreview(
      customTool(() => ({ status: "error", full_result_cached: false, cache_hint: 42n, note: "kept" })),
      result,
      { top: 3 },
    );
    expect(preview).toEqual({
      status: "ok",
      note: "kept",
      full_result_cached: true,
      cache_hint: metadataFallback.cache_hint,
    });
  });

  it("encodes dates and accepts undefined as null", () => {
    const { preview } = buildNativePreview(
      customTool(() => ({ at: new Date("2026-05-06T12:00:00Z"), first: undefined })),
      [],
      {},
    );
    expect(preview).toMatchObject({ at: "2026-05-06T12:00:00.000Z", first: null });
  });

  it("accepts the same object twice side by side, which is not a cycle", () => {
    const shared = { n: 1 };
    const { preview, fallback } = buildNativePreview(
      customTool(() => ({ a: shared, b: [shared] })),
      [],
      {},
    );
    expect(fallback).toBeUndefined();
    expect(preview).toMatchObject({ a: { n: 1 }, b: [{ n: 1 }] });
  });

  it("falls back to metadata with the thrown error when the function throws", () => {
    const error = new Error("boom");
    const outcome = buildNativePreview(
      customTool(() => {
        throw error;
      }),
      result,
      { top: 3 },
    );
    expect(outcome).toEqual({ preview: metadataFallback, fallback: "raised", error });
  });

  it("reports even a thrown undefined as raised", () => {
    const outcome = buildNativePreview(
      customTool(() => {
        throw undefined;
      }),
      result,
      { top: 3 },
    );
    expect(outcome.fallback).toBe("raised");
    expect(outcome).toHaveProperty("error", undefined);
  });

  it.each([
    ["an array", () => [1, 2]],
    ["a string", () => "top: 9"],
    ["null", () => null],
    ["undefined", () => undefined],
    ["a Map", () => new Map([["top", 9]])],
    ["a promise", async () => ({ top: 9 })],
  ])("falls back to metadata as non_map when the function returns %s", (_, preview) => {
    const outcome = buildNativePreview(customTool(preview), result, { top: 3 });
    expect(outcome).toEqual({ preview: metadataFallback, fallback: "non_map" });
  });

  it.each([
    ["a bigint", () => ({ total: 10n })],
    ["a function", () => ({ next: () => 1 })],
    ["a symbol", () => ({ tag: Symbol("x") })],
    ["NaN", () => ({ mean: Number.NaN })],
    ["Infinity", () => ({ max: Number.POSITIVE_INFINITY })],
    ["an invalid Date", () => ({ at: new Date(Number.NaN) })],
    ["a Set", () => ({ ids: new Set([1]) })],
    ["a class instance", () => ({ value: new (class Box {})() })],
    [
      "a cycle",
      () => {
        const node: Record<string, unknown> = { id: 1 };
        node.parent = { child: node };
        return node;
      },
    ],
  ])("falls back to metadata as non_encodable when the object holds %s", (_, preview) => {
    const outcome = buildNativePreview(customTool(preview), result, { top: 3 });
    expect(outcome).toEqual({ preview: metadataFallback, fallback: "non_encodable" });
  });

  it("reports a throwing getter on the returned object as raised", () => {
    const error = new Error("getter");
    const outcome = buildNativePreview(
      customTool(() => ({
        get top(): number {
          throw error;
        },
      })),
      result,
      { top: 3 },
    );
    expect(outcome).toEqual({ preview: metadataFallback, fallback: "raised", error });
  });
});
