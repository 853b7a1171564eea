import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createTool, createTools, isTool, type ToolDefinition, ToolError } from "./index.js";

const noop = () => null;

function rejection(
  definition: unknown,
  name = "search",
): { code: string; message: string; details: unknown } {
  try {
    createTool(name, definition as ToolDefinition);
  } catch (error) {
    if (error instanceof ToolError)
      return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error("expected createTool to throw");
}

describe("createTool", () => {
  it("normalizes a bare function with every setting unset", () => {
    const tool = createTool("now", noop);
    expect(tool).toEqual({
      name: "now",
      execute: noop,
      validate: expect.any(Function),
      signature: undefined,
      parsedSignature: undefined,
      description: undefined,
      parameters: undefined,
      parametersJsonSchema: { type: "object", properties: {} },
      expose: undefined,
      cache: false,
      nativeResult: undefined,
    });
  });

  it("keeps the object form's settings and parses its signature", () => {
    const tool = createTool("search_logs", {
      execute: noop,
      signature: "(query :string, limit :int?) -> [:any]",
      description: "Search log events.",
      expose: "both",
      cache: true,
      nativeResult: { preview: "rows", limit: 5 },
    });
    expect(tool.signature).toBe("(query :string, limit :int?) -> [:any]");
    expect(tool.parsedSignature?.params.map((param) => param.name)).toEqual(["query", "limit"]);
    expect(tool.parametersJsonSchema).toEqual({
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "integer" } },
      required: ["query"],
    });
    expect(tool.nativeResult).toEqual({ preview: "rows", limit: 5 });
    expect(tool.expose).toBe("both");
    expect(tool.cache).toBe(true);
  });

  it("defaults nativeResult to the metadata preview with a limit of 20", () => {
    const tool = createTool("t", { execute: noop, expose: "both", cache: true, nativeResult: {} });
    expect(tool.nativeResult).toEqual({ preview: "metadata", limit: 20 });
    const custom = (rows: unknown) => ({ count: Array.isArray(rows) ? rows.length : 0 });
    expect(
      createTool("t", { execute: noop, expose: "both", cache: true, nativeResult: { preview: custom } })
        .nativeResult,
    ).toEqual({
      preview: custom,
      limit: 20,
    });
  });

  it("allows expose both without cache when there is no nativeResult", () => {
    expect(createTool("t", { execute: noop, expose: "both" }).cache).toBe(false);
  });

  it("takes parameters from a Standard Schema (zod) and derives a prompt signature from them", async () => {
    const tool = createTool("search", {
      execute: async ({ query }) => [query],
      parameters: z.object({ query: z.string(), limit: z.number().int().optional() }),
      description: "Search.",
    });
    expect(tool.parametersJsonSchema).toMatchObject({
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "integer" } },
      required: ["query"],
    });
    expect(tool.parametersJsonSchema).not.toHaveProperty("$schema");
    expect(tool.signature).toBe("(limit :int?, query :string) -> :any");
    expect(await tool.execute({ query: "x" }, {})).toEqual(["x"]);
  });

  it("prefers an explicit signature over the derived one", () => {
    const tool = createTool("search", {
      execute: noop,
      parameters: z.object({ query: z.string() }),
      signature: "(query :string) -> [{id :int}]",
    });
    expect(tool.signature).toBe("(query :string) -> [{id :int}]");
    expect(tool.parametersJsonSchema).toMatchObject({ properties: { query: { type: "string" } } });
  });

  it.each([
    [
      { execute: noop, expose: "public" },
      'tool "search": invalid expose: "public" — accepted values are "native", "ptc_lisp", "both"',
    ],
    [
      { execute: noop, expose: "both", cache: true, nativeResult: 5 },
      'tool "search": nativeResult: must be an object or undefined, got 5',
    ],
    [
      { execute: noop, expose: "native", cache: true, nativeResult: {} },
      'tool "search": nativeResult: requires expose: "both" AND cache: true (got expose: "native", cache: true)',
    ],
    [
      { execute: noop, expose: "both", nativeResult: { preview: "rows" } },
      'tool "search": nativeResult: requires expose: "both" AND cache: true (got expose: "both", cache: false)',
    ],
    [
      { execute: noop, nativeResult: {} },
      'tool "search": nativeResult: requires expose: "both" AND cache: true (got expose: undefined, cache: false)',
    ],
    [
      { execute: noop, expose: "both", cache: true, nativeResult: { preview: "table" } },
      'tool "search": nativeResult.preview: must be "metadata", "rows", or a one-argument function, got "table"',
    ],
    [
      {
        execute: noop,
        expose: "both",
        cache: true,
        nativeResult: { preview: (a: unknown, b: unknown) => [a, b] },
      },
      'tool "search": nativeResult.preview: must be "metadata", "rows", or a one-argument function, got function preview',
    ],
    [
      { execute: noop, expose: "both", cache: true, nativeResult: { preview: "rows", limit: 0 } },
      'tool "search": nativeResult.limit: must be a positive integer, got 0',
    ],
    [
      { execute: noop, expose: "both", cache: true, nativeResult: { limit: 2.5 } },
      'tool "search": nativeResult.limit: must be a positive integer, got 2.5',
    ],
    [{ signature: ":int" }, 'tool "search": execute must be a function, got undefined'],
    [{ execute: noop, cache: "yes" }, 'tool "search": cache must be a boolean, got "yes"'],
    [{ execute: noop, description: 3 }, 'tool "search": description must be a string, got 3'],
    ["fn", 'tool "search": must be a function or an object with "execute", got "fn"'],
    [
      { execute: noop, parameters: { type: "object" } },
      'tool "search": parameters must be a Standard Schema (zod, valibot, arktype...), got {"type":"object"}',
    ],
  ])("rejects %j", (definition, message) => {
    const error = rejection(definition);
    expect(error.code).toBe("PTC_TOOL_INVALID_DEFINITION");
    expect(error.message).toBe(message);
    expect(JSON.parse(JSON.stringify(error.details))).toEqual(error.details);
  });

  it("checks expose before nativeResult", () => {
    expect(rejection({ execute: noop, expose: "all", nativeResult: 1 }).message).toContain("invalid expose");
  });

  it("rejects a signature that does not parse, with the parser's message", () => {
    const error = rejection({ execute: noop, signature: "(q :strin) -> :int" });
    expect(error.code).toBe("PTC_TOOL_INVALID_SIGNATURE");
    expect(error.message).toMatch(/^tool "search": invalid signature: parse error at line 1, column 5: /);
  });

  it("rejects parameters that do not describe named arguments", () => {
    const error = rejection({ execute: noop, parameters: z.string() });
    expect(error.code).toBe("PTC_TOOL_INVALID_SCHEMA");
    expect(error.message).toBe(
      'tool "search": parameters must describe an object (named arguments), got JSON Schema type "string"',
    );
  });

  it("rejects a Standard Schema that cannot produce a JSON Schema", () => {
    const opaque = { "~standard": { version: 1, vendor: "acme", validate: (value: unknown) => ({ value }) } };
    expect(rejection({ execute: noop, parameters: opaque })).toMatchObject({
      code: "PTC_TOOL_INVALID_SCHEMA",
      message:
        'tool "search": parameters: the "acme" schema offers no JSON Schema conversion (Standard JSON Schema); use a library that does, or a "signature"',
    });
  });

  it("rejects an empty name", () => {
    expect(rejection(noop, "")).toMatchObject({
      code: "PTC_TOOL_INVALID_DEFINITION",
      message: 'tool name must be a non-empty string, got ""',
    });
  });
});

describe("createTools", () => {
  it("names each tool by its key and keeps already-normalized tools", () => {
    const existing = createTool("b", noop);
    const tools = createTools({ a: noop, b: existing, c: { execute: noop, signature: ":int" } });
    expect(Object.keys(tools)).toEqual(["a", "b", "c"]);
    expect(tools.a?.name).toBe("a");
    expect(tools.b).toBe(existing);
    expect(tools.c?.signature).toBe(":int");
    expect(isTool(tools.a)).toBe(true);
    expect(isTool(noop)).toBe(false);
  });
});

describe("createTool: names in whole characters", () => {
  it.each([
    ["a high half at the end", "lookup\ud83d", 6],
    ["a low half at the start", "\ude00lookup", 0],
  ])("refuses a name with %s, saying where", (_label, name, index) => {
    expect(() => createTool(name, () => 1)).toThrow(ToolError);
    expect(() => createTool(name, { execute: () => 1 })).toThrow(
      `holds half of a character (a lone UTF-16 surrogate at index ${index})`,
    );
  });

  it("accepts names with whole characters outside ASCII", () => {
    expect(createTool("recherche_😀_é", () => 1).name).toBe("recherche_😀_é");
  });
});
