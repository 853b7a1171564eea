/**
 * A small refund desk for the approval tests: orders to look up, and a refund tool that needs a
 * person's approval. Every call is counted (a side effect a resume must never repeat), and
 * `onCall` lets a test (or another process) record calls wherever it likes.
 */
import type { AgentToolDefinition } from "../../index.js";

export interface RefundDesk {
  readonly tools: Record<string, AgentToolDefinition>;
  /** Calls per tool so far. */
  readonly calls: Record<string, number>;
  /** Every refund made, in order. */
  readonly refunds: unknown[];
}

export const ORDERS: Readonly<Record<number, { readonly id: number; readonly amount: number }>> = {
  7: { id: 7, amount: 70 },
  8: { id: 8, amount: 250 },
  9: { id: 9, amount: 15 },
};

export function refundDesk(
  options: {
    readonly needsApproval?: NonNullable<Extract<AgentToolDefinition, { execute: unknown }>["needsApproval"]>;
    readonly expose?: "native" | "ptc_lisp" | "both";
    readonly onCall?: (tool: string, args: Record<string, unknown>) => void;
  } = {},
): RefundDesk {
  const calls: Record<string, number> = {};
  const refunds: unknown[] = [];
  const count = (tool: string, args: Record<string, unknown>) => {
    calls[tool] = (calls[tool] ?? 0) + 1;
    options.onCall?.(tool, args);
  };
  const expose = options.expose === undefined ? {} : { expose: options.expose };
  return {
    calls,
    refunds,
    tools: {
      get_order: {
        signature: "(id :int) -> {id :int, amount :int}",
        description: "One order by id.",
        ...expose,
        execute: (args: { id: number }) => {
          count("get_order", args);
          return ORDERS[args.id] ?? null;
        },
      },
      refund: {
        signature: "(id :int, amount :int) -> {refunded :int}",
        description: "Refunds an order. A person approves every refund.",
        ...expose,
        needsApproval: options.needsApproval ?? true,
        execute: async (args: { id: number; amount: number }) => {
          count("refund", args);
          refunds.push(args);
          return { refunded: args.id };
        },
      },
    },
  };
}

/** A fenced program, as a PTC-Lisp model replies. */
export const fence = (program: string): string => `\`\`\`clojure\n${program}\n\`\`\``;
