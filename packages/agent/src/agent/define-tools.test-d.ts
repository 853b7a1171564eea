import { expectTypeOf } from "vitest";
import { z } from "zod";
import { type AgentTools, createAgent, defineTool, defineTools } from "../index.js";

// In a module of their own, tools keep their literal types: the agent takes them as they are.
const tools = defineTools({
  search_logs: {
    execute: async (args: { query: string }) => [args.query],
    signature: "(query :string) -> [:string]",
    expose: "both",
    cache: true,
    nativeResult: { preview: "rows" },
  },
  refund: { execute: async (args: { id: number }) => args.id, needsApproval: true },
  now: () => "2026-01-01",
});
expectTypeOf(tools.search_logs.expose).toEqualTypeOf<"both">();
createAgent({ prompt: "p", tools });

// One tool at a time, with a schema.
const getCustomer = defineTool({
  parameters: z.object({ id: z.number() }),
  execute: async (args: { id: number }) => ({ id: args.id }),
});
createAgent({ prompt: "p", tools: { get_customer: getCustomer } });

// `satisfies` does the same without a helper.
const satisfying = {
  list: { execute: () => [], expose: "ptc_lisp" },
} satisfies AgentTools;
createAgent({ prompt: "p", tools: satisfying });

// The mistake is reported where it is written: expose takes "native", "ptc_lisp" or "both".
defineTools({
  // @ts-expect-error "public" is no layer
  search: { execute: () => [], expose: "public" },
});

// Without either, `expose` widens to string and the agent refuses the object as a whole.
const widened = { search: { execute: () => [], expose: "both" } };
// @ts-expect-error string is not "native" | "ptc_lisp" | "both"
createAgent({ prompt: "p", tools: widened });
