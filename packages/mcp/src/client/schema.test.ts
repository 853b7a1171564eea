import { createTool } from "@ptc/tool";
import { describe, expect, it } from "vitest";
import { schemaParameters } from "./schema-parameters.js";
import { schemaSignature } from "./schema-signature.js";

const search = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    query: { type: "string" },
    "max-results": { type: "integer", default: 10 },
    filters: { type: "object", properties: { "created-after": { type: "string" } } },
    mode: { type: "string", enum: ["fast", "exact"] },
  },
  required: ["query"],
  additionalProperties: false,
};

function check(schema: unknown, value: unknown) {
  return schemaParameters(schema)["~standard"].validate(value);
}

describe("arguments checked with the input schema", () => {
  it("accepts fitting arguments, fills declared defaults in a copy, and leaves the caller's object alone", () => {
    const args = { query: "x" };
    expect(check(search, args)).toEqual({ value: { query: "x", "max-results": 10 } });
    expect(args).toEqual({ query: "x" });
  });

  it("puts back hyphenated keys the schema declares (programs send max_results for :max-results)", () => {
    expect(check(search, { query: "x", max_results: 3, filters: { created_after: "2024" } })).toEqual({
      value: { query: "x", "max-results": 3, filters: { "created-after": "2024" } },
    });
  });

  it("says which argument is wrong, in PTC's words", () => {
    const result = check(search, { query: 1, mode: "slow", extra: true }) as {
      issues: { path: unknown[]; message: string }[];
    };
    expect(result.issues).toEqual(
      expect.arrayContaining([
        { path: ["query"], message: "expected string, got int" },
        { path: ["mode"], message: 'expected one of "fast", "exact", got "slow"' },
        {
          path: ["extra"],
          message: "not an argument of this tool (its arguments: query, max-results, filters, mode)",
        },
      ]),
    );
    expect(check(search, {})).toEqual({
      issues: [{ path: ["query"], message: "missing (a required argument)" }],
    });
    expect(check(search, [1])).toEqual({
      issues: [{ message: "expected a map of named arguments, got list" }],
    });
  });

  it("publishes the server's schema (without $schema) as the tool's native parameters", () => {
    const tool = createTool("t", { execute: () => null, parameters: schemaParameters(search) });
    expect(tool.parametersJsonSchema).toEqual({ ...search, $schema: undefined, type: "object" });
    expect("$schema" in tool.parametersJsonSchema).toBe(false);
  });

  it("checks nothing but the shape for a schema that does not compile, rather than failing the server", () => {
    expect(check({ type: "object", properties: { a: { $ref: "#/nowhere" } } }, { a: 1 })).toEqual({
      value: { a: 1 },
    });
  });
});

describe("the signature a model reads", () => {
  it("summarizes parameters and the output schema", () => {
    expect(
      schemaSignature(search, {
        type: "object",
        properties: {
          rows: { type: "array", items: { type: "object", properties: { id: { type: "integer" } } } },
        },
        required: ["rows"],
      }),
    ).toBe("(query :string, max-results :int?, filters :map?, mode :string?) -> {rows [{id :int?}]}");
  });

  it("says :any for what the signature language cannot say", () => {
    expect(
      schemaSignature(
        {
          type: "object",
          properties: {
            either: { anyOf: [{ type: "string" }, { type: "number" }] },
            nullable: { type: ["string", "null"] },
            list: { type: "array" },
          },
          required: ["either"],
        },
        undefined,
      ),
    ).toBe("(either :any, nullable :string?, list :any?) -> :any");
  });

  it("gives no signature when a parameter's name is not a plain word", () => {
    expect(
      schemaSignature({ type: "object", properties: { "a.b": { type: "string" } } }, undefined),
    ).toBeUndefined();
  });
});
