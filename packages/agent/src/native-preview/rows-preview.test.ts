import { describe, expect, it } from "vitest";
import { buildNativePreview } from "./index.js";

function rowsTool(limit = 20) {
  return { name: "rows_tool", nativeResult: { preview: "rows" as const, limit } };
}

describe("rows preview", () => {
  it("shows the first limit rows, the full count and the schema of the rows", () => {
    const result = Array.from({ length: 8 }, (_, index) => ({ id: index, name: `n${index}` }));
    const { preview } = buildNativePreview(rowsTool(3), result, {});
    expect(preview).toEqual({
      status: "ok",
      rows: [
        { id: 0, name: "n0" },
        { id: 1, name: "n1" },
        { id: 2, name: "n2" },
      ],
      result_count: 8,
      schema: { type: "array", items: { type: "object", properties: { id: "integer", name: "string" } } },
      sample_keys: ["id", "name"],
      full_result_cached: true,
      cache_hint: "Call lisp_eval and then call (tool/rows_tool {}) to process the full cached result.",
    });
  });

  it("shows every row when the list is shorter than the limit", () => {
    const { preview } = buildNativePreview(rowsTool(5), [1, 2], {});
    expect(preview).toMatchObject({
      rows: [1, 2],
      result_count: 2,
      schema: { type: "array", items: { type: "integer" } },
    });
    expect(preview).not.toHaveProperty("sample_keys");
  });

  it("uses 20 rows when the limit is missing or unusable", () => {
    const result = Array.from({ length: 30 }, (_, index) => index);
    for (const limit of [undefined, -1, 2.5, Number.NaN]) {
      const tool = { name: "t", nativeResult: { preview: "rows" as const, limit } } as never;
      expect((buildNativePreview(tool, result, {}).preview.rows as unknown[]).length).toBe(20);
    }
  });

  it("shows no rows with a limit of zero but still counts them", () => {
    const { preview } = buildNativePreview(rowsTool(0), [{ a: 1 }], {});
    expect(preview).toMatchObject({ rows: [], result_count: 1, schema: { type: "array", items: {} } });
  });

  it("converts dates to ISO-8601 strings at any depth and types them as string", () => {
    const at = new Date("2026-05-06T12:00:00Z");
    const result = [{ at, nested: { list: [at], deeper: { at } } }];
    const { preview } = buildNativePreview(rowsTool(), result, {});
    expect(preview.rows).toEqual([
      {
        at: "2026-05-06T12:00:00.000Z",
        nested: { list: ["2026-05-06T12:00:00.000Z"], deeper: { at: "2026-05-06T12:00:00.000Z" } },
      },
    ]);
    expect(preview.schema).toEqual({
      type: "array",
      items: { type: "object", properties: { at: "string", nested: "object" } },
    });
    expect(result[0]?.at).toBe(at);
  });

  it("reports inconsistent sampled rows without sample keys", () => {
    const { preview } = buildNativePreview(rowsTool(), [{ a: 1 }, { b: 2 }], {});
    expect(preview).toMatchObject({ result_count: 2, schema: { type: "array", items: { type: "object" } } });
    expect(preview).not.toHaveProperty("sample_keys");
  });

  it("makes values JSON cannot hold visible instead of throwing", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const result = [
      {
        big: 2n ** 64n,
        nan: Number.NaN,
        missing: undefined,
        fn: () => 1,
        invalid: new Date(Number.NaN),
        set: new Set([1, 2]),
        map: new Map([["k", 1]]),
        cyclic,
      },
    ];
    const { preview } = buildNativePreview(rowsTool(), result, {});
    expect(preview.rows).toEqual([
      {
        big: "18446744073709551616",
        nan: null,
        missing: null,
        fn: null,
        invalid: null,
        set: [1, 2],
        map: { k: 1 },
        cyclic: { name: "loop", self: null },
      },
    ]);
    expect(JSON.parse(JSON.stringify(preview))).toEqual(preview);
  });

  it("falls back to the metadata preview for a result that is not a list", () => {
    const { preview } = buildNativePreview(rowsTool(), { total: 3 }, {});
    expect(preview).toMatchObject({
      schema: { type: "object", properties: { total: "integer" } },
      sample_keys: ["total"],
    });
    expect(preview).not.toHaveProperty("rows");
  });
});
