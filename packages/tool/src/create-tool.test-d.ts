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

// A record may mix definitions with different argument types; the result is normalized tools.
const tools = createTools({
  a: (args: { x: number }) => args.x,
  b: {
    execute: (args: { y: string }) => args.y,
    expose: "both",
    cache: true,
    nativeResult: { preview: "rows" },
  },
});
expectTypeOf(tools).toEqualTypeOf<Record<string, Tool>>();

// @ts-expect-error expose takes only "native" | "ptc_lisp" | "both"
createTool("bad", { execute: () => 1, expose: "public" });
