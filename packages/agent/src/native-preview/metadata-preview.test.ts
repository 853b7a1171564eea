import { describe, expect, it } from "vitest";
import { buildNativePreview } from "./index.js";

const metadataTool = { name: "lookup", nativeResult: undefined };

/** The preview without the universal fields, which other tests cover. */
function fieldsOf(result: unknown): Record<string, unknown> {
  const { status, full_result_cached, cache_hint, ...fields } = buildNativePreview(metadataTool, result, {})
    .preview as Record<string, unknown>;
  expect(status).toBe("ok");
  expect(full_result_cached).toBe(true);
  expect(typeof cache_hint).toBe("string");
  return fields;
}

function wideObject(size: number): Record<string, number> {
  const object: Record<string, number> = {};
  for (let index = 0; index < size; index++) object[`k${String(index).padStart(2, "0")}`] = index;
  return object;
}

describe("metadata preview", () => {
  it("reports an empty list with empty items and no sample keys", () => {
    expect(fieldsOf([])).toEqual({ result_count: 0, schema: { type: "array", items: {} } });
  });

  it("describes a consistent list of objects from its first element", () => {
    const rows = [
      { b: "x", a: 1, c: 2.5, d: true, e: null, f: [1], g: { h: 1 } },
      { a: 2, b: "y", c: 1, d: false, e: 1, f: [], g: {} },
    ];
    expect(fieldsOf(rows)).toEqual({
      result_count: 2,
      schema: {
        type: "array",
        items: {
          type: "object",
          properties: {
            a: "integer",
            b: "string",
            c: "number",
            d: "boolean",
            e: "null",
            f: "array",
            g: "object",
          },
        },
      },
      sample_keys: ["a", "b", "c", "d", "e", "f", "g"],
    });
  });

  it("treats a single-object list as consistent", () => {
    expect(fieldsOf([{ id: 1 }])).toMatchObject({ sample_keys: ["id"] });
  });

  it("reports a list of objects with differing keys as bare objects without sample keys", () => {
    expect(fieldsOf([{ id: 1 }, { id: 2, extra: true }])).toEqual({
      result_count: 2,
      schema: { type: "array", items: { type: "object" } },
    });
  });

  it("calls a list inconsistent when a later element in the window is not an object", () => {
    expect(fieldsOf([{ id: 1 }, { id: 2 }, "three"])).toEqual({
      result_count: 3,
      schema: { type: "array", items: { type: "object" } },
    });
  });

  it("checks key consistency over the first element and the next four only", () => {
    const rows = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }, { other: 6 }];
    expect(fieldsOf(rows)).toMatchObject({ result_count: 6, sample_keys: ["id"] });
    const earlyMismatch = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { other: 5 }];
    expect(fieldsOf(earlyMismatch)).not.toHaveProperty("sample_keys");
  });

  it("types a list of scalars by the type all elements share", () => {
    expect(fieldsOf([1, 2, 3])).toEqual({
      result_count: 3,
      schema: { type: "array", items: { type: "integer" } },
    });
    expect(fieldsOf(["a", "b"])).toEqual({
      result_count: 2,
      schema: { type: "array", items: { type: "string" } },
    });
    expect(fieldsOf([[1], [2]])).toEqual({
      result_count: 2,
      schema: { type: "array", items: { type: "array" } },
    });
    expect(fieldsOf([true, false])).toEqual({
      result_count: 2,
      schema: { type: "array", items: { type: "boolean" } },
    });
  });

  it("types a mixed list of scalars as any, looking past the first few elements", () => {
    expect(fieldsOf([1, 2, 3, 4, 5, 6, 7, "eight"])).toEqual({
      result_count: 8,
      schema: { type: "array", items: { type: "any" } },
    });
    expect(fieldsOf([1, 2.5])).toEqual({
      result_count: 2,
      schema: { type: "array", items: { type: "any" } },
    });
    expect(fieldsOf(["a", { b: 1 }])).toEqual({
      result_count: 2,
      schema: { type: "array", items: { type: "any" } },
    });
  });

  it("describes a non-empty object with its properties and sorted sample keys, without a count", () => {
    expect(fieldsOf({ total: 3, name: "x", ratio: 0.5 })).toEqual({
      schema: { type: "object", properties: { name: "string", ratio: "number", total: "integer" } },
      sample_keys: ["name", "ratio", "total"],
    });
  });

  it("describes an empty object with no properties and empty sample keys", () => {
    expect(fieldsOf({})).toEqual({ schema: { type: "object" }, sample_keys: [] });
  });

  it("describes a scalar by its type alone", () => {
    expect(fieldsOf(42)).toEqual({ schema: { type: "integer" } });
    expect(fieldsOf(4.2)).toEqual({ schema: { type: "number" } });
    expect(fieldsOf("text")).toEqual({ schema: { type: "string" } });
    expect(fieldsOf(true)).toEqual({ schema: { type: "boolean" } });
    expect(fieldsOf(null)).toEqual({ schema: { type: "null" } });
    expect(fieldsOf(undefined)).toEqual({ schema: { type: "null" } });
  });

  it("types false as boolean, not null as the reference did", () => {
    expect(fieldsOf(false)).toEqual({ schema: { type: "boolean" } });
    expect(fieldsOf({ done: false })).toMatchObject({
      schema: { type: "object", properties: { done: "boolean" } },
    });
    expect(fieldsOf([{ done: false }])).toMatchObject({
      schema: { items: { properties: { done: "boolean" } } },
    });
  });

  it("types dates, bigints, class instances and other host values as string", () => {
    class Point {
      x = 1;
    }
    const value = { at: new Date(0), big: 10n, point: new Point(), set: new Set([1]), map: new Map() };
    expect(fieldsOf(value)).toMatchObject({
      schema: { properties: { at: "string", big: "string", map: "string", point: "string", set: "string" } },
    });
    expect(fieldsOf(new Date(0))).toEqual({ schema: { type: "string" } });
  });

  it("types whole numbers as integer, since JS cannot tell 1.0 from 1", () => {
    expect(fieldsOf({ whole: 1.0, fraction: 1.5, huge: Number.MAX_SAFE_INTEGER })).toMatchObject({
      schema: { properties: { fraction: "number", huge: "integer", whole: "integer" } },
    });
  });

  it("caps list item properties at 20 and marks the items schema truncated", () => {
    const fields = fieldsOf([wideObject(25)]);
    const items = (fields.schema as { items: { properties: object; truncated?: boolean } }).items;
    expect(Object.keys(items.properties)).toHaveLength(20);
    expect(items.truncated).toBe(true);
    expect(fields.sample_keys).toHaveLength(20);
    expect(fields.sample_keys).toEqual(Object.keys(wideObject(20)));
    expect(fields).not.toHaveProperty("truncated");
  });

  it("caps object properties at 20 and marks the object schema truncated", () => {
    const fields = fieldsOf(wideObject(21));
    const schema = fields.schema as { type: string; properties: object; truncated?: boolean };
    expect(schema.type).toBe("object");
    expect(Object.keys(schema.properties)).toHaveLength(20);
    expect(schema.truncated).toBe(true);
    expect(fields.sample_keys).toHaveLength(20);
    expect(fields).not.toHaveProperty("truncated");
  });

  it("does not mark exactly 20 properties as truncated", () => {
    const fields = fieldsOf(wideObject(20));
    expect(fields.schema).not.toHaveProperty("truncated");
    expect(fields.sample_keys).toHaveLength(20);
  });

  it("keeps a data key named __proto__ as an ordinary property", () => {
    const value = JSON.parse('{"__proto__": 1, "a": "x"}');
    const fields = fieldsOf(value);
    expect(fields.sample_keys).toEqual(["__proto__", "a"]);
    expect(JSON.parse(JSON.stringify(fields.schema))).toEqual({
      type: "object",
      properties: JSON.parse('{"__proto__": "integer", "a": "string"}'),
    });
  });

  it("never copies a value out of the result", () => {
    const text = JSON.stringify(fieldsOf([{ secret: "hunter2" }, { secret: "swordfish" }]));
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("swordfish");
  });

  it("treats an unknown preview setting as metadata", () => {
    const tool = { name: "lookup", nativeResult: { preview: "table", limit: 3 } } as never;
    expect(buildNativePreview(tool, [1, 2], {}).preview).toMatchObject({
      result_count: 2,
      schema: { type: "array", items: { type: "integer" } },
    });
  });
});
