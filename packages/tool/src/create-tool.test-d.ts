import { expectTypeOf } from "vitest";
import { z } from "zod";
import { createTool, createTools, type Tool, type ToolArgs } from "./index.js";

// The arguments of `execute` are inferred from a Standard Schema's output type.
createTool("search", {
  parameters: z.object({ query: z.string(), limit: z.number().optional() }),
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<{ query: string; limit?: number | undefined }>();
    return args.query.toUpperCase();
  },
});

// Without a schema they are a string-keyed record.
createTool("plain", {
  signature: "(q :string) -> :string",
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<ToolArgs>();
    return String(args.q);
  },
});

// A record may mix definitions with different argument types; each tool keeps its own.
const tools = createTools({
  a: (args: { x: number }) => args.x,
  b: {
    execute: (args: { y: string }) => args.y,
    expose: "both",
    cache: true,
    nativeResult: { preview: "rows" },
  },
  c: { execute: async (args: { q: string }) => [args.q] },
  d: {
    parameters: z.object({ limit: z.number() }),
    execute: (args) => args,
  },
  e: createTool("e", { execute: (args: { id: number }) => args.id }),
});
expectTypeOf(tools.a).toEqualTypeOf<Tool<{ x: number }, number>>();
expectTypeOf(tools.b).toEqualTypeOf<Tool<{ y: string }, string>>();
expectTypeOf(tools.c).toEqualTypeOf<Tool<{ q: string }, string[]>>();
expectTypeOf(tools.d.execute).parameter(0).toEqualTypeOf<{ limit: number }>();
expectTypeOf(tools.e).toEqualTypeOf<Tool<{ id: number }, number>>();
expectTypeOf(tools.c.execute).parameter(0).toEqualTypeOf<{ q: string }>();
// @ts-expect-error the argument type is kept: q is a string
tools.c.execute({ q: 1 }, {});
// @ts-expect-error only the tools defined are there
tools.missing;

// Tools with specific argument types are still plain `Tool`s where any tool is expected.
const record: Readonly<Record<string, Tool>> = tools;
expectTypeOf(record).toEqualTypeOf<Readonly<Record<string, Tool>>>();

// @ts-expect-error expose takes only "native" | "ptc_lisp" | "both"
createTool("bad", { execute: () => 1, expose: "public" });
