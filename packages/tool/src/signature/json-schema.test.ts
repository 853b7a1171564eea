import { describe, expect, it } from "vitest";
import {
  fromJsonSchema,
  parametersJsonSchema,
  parseSignature,
  returnsList,
  type Signature,
  signatureToJsonSchema,
  typeToJsonSchema,
} from "../index.js";

function signature(text: string): Signature {
  const result = parseSignature(text);
  if (!result.ok) throw new Error(result.error);
  return result.signature;
}

describe("typeToJsonSchema", () => {
  it("maps every type to the strict-mode subset", () => {
    const types = [
      ":string",
      ":keyword",
      ":datetime",
      ":int",
      ":float",
      ":bool",
      ":any",
      ":map",
      "[:int?]",
      "{a :int, b :string?}",
    ];
    expect(
      Object.fromEntries(types.map((text) => [text, typeToJsonSchema(signature(text).returns)])),
    ).toMatchSnapshot();
  });
});

describe("signatureToJsonSchema", () => {
  it("wraps a list return in an object with `items`", () => {
    expect(signatureToJsonSchema(signature("[:int]"))).toMatchSnapshot();
    expect(returnsList(signature("[:int]"))).toBe(true);
    expect(returnsList(signature(":int"))).toBe(false);
  });

  it("returns a map return's object schema as is", () => {
    expect(signatureToJsonSchema(signature("() -> {sentiment :string, score :float}"))).toMatchSnapshot();
  });
});

describe("parametersJsonSchema", () => {
  it("lists parameters, requiring the non-optional ones in order", () => {
    expect(
      parametersJsonSchema(signature("(query :string, limit :int?, tags [:string]) -> :any")),
    ).toMatchSnapshot();
  });

  it("is an empty object schema without `required` when there are no parameters", () => {
    expect(parametersJsonSchema(signature(":any"))).toEqual({ type: "object", properties: {} });
    expect(parametersJsonSchema(undefined)).toEqual({ type: "object", properties: {} });
  });
});

describe("fromJsonSchema", () => {
  it("converts scalars, arrays and objects, making unrequired properties optional", () => {
    expect(fromJsonSchema({ type: "integer" })).toEqual({ ok: true, type: "int" });
    expect(fromJsonSchema({ type: "array", items: { type: "string" } })).toEqual({
      ok: true,
      type: { kind: "list", type: "string" },
    });
    expect(
      fromJsonSchema({
        type: "object",
        properties: { name: { type: "string" }, count: { type: "integer" } },
        required: ["count"],
      }),
    ).toEqual({
      ok: true,
      type: {
        kind: "map",
        closed: false,
        fields: [
          { name: "count", type: "int" },
          { name: "name", type: { kind: "optional", type: "string" } },
        ],
      },
    });
  });

  it("closes a map on additionalProperties: false, and reads a bare object as :map", () => {
    expect(
      fromJsonSchema({
        type: "object",
        properties: { x: { type: "integer" } },
        required: ["x"],
        additionalProperties: false,
      }),
    ).toEqual({
      ok: true,
      type: { kind: "map", fields: [{ name: "x", type: "int" }], closed: true },
    });
    expect(fromJsonSchema({ type: "object" })).toEqual({ ok: true, type: "map" });
    expect(fromJsonSchema({ type: "object", additionalProperties: false })).toEqual({
      ok: true,
      type: { kind: "map", fields: [], closed: true },
    });
  });

  it("round-trips generated schemas of maps", () => {
    const type = signature("{a :int, b [:string]}").returns;
    expect(fromJsonSchema(typeToJsonSchema(type))).toEqual({
      ok: true,
      type: { ...(type as object), closed: true },
    });
  });

  it.each([
    [{ type: "string", format: "date-time" }, "unsupported JSON Schema key(s): format"],
    [{ type: "null" }, 'unsupported type: "null"'],
    [{ properties: {} }, 'schema must have a "type" key'],
    [[1], "schema must be a JSON object, got [1]"],
    [{ type: "array" }, 'array type requires an "items" key'],
    [{ type: "array", items: true }, 'array "items" must be a JSON object'],
    [
      { type: "object", properties: {}, required: ["missing"] },
      '"required" entry "missing" is not a declared property',
    ],
    [{ type: "object", required: "x" }, '"required" must be an array of strings'],
    [{ type: "object", additionalProperties: {} }, '"additionalProperties" must be true or false, got {}'],
    [{ type: "object", properties: { a: { type: "date" } } }, 'property "a": unsupported type: "date"'],
  ])("rejects %j", (schema, error) => {
    expect(fromJsonSchema(schema)).toEqual({ ok: false, error });
  });

  it("ignores unsupported keywords when lenient", () => {
    expect(fromJsonSchema({ $schema: "x", type: "integer", minimum: 0 }, { lenient: true })).toEqual({
      ok: true,
      type: "int",
    });
  });
});
