/**
 * The refund agent, in combined mode: a program finds the orders that qualify (the model never
 * reads the whole order list), then the model refunds each natively, and every refund waits for
 * a person's approval (`needsApproval: true`): the run pauses with the refunds pending, and goes
 * on once each is approved or rejected.
 */
import { type Agent, createAgent } from "@ptc/agent";
import { LATE_DAYS, type Order } from "./refund-orders.js";

export const REFUND_QUESTION = `Refund every order that was delivered more than ${LATE_DAYS} days late.`;

/** The refunds the desk made: the side effect a resume must never repeat. */
export interface RefundDesk {
  readonly orders: readonly Order[];
  readonly refunds: { readonly order_id: string; readonly amount: number; readonly refund_id: string }[];
}

export function createRefundDesk(orders: readonly Order[]): RefundDesk {
  return { orders, refunds: [] };
}

export function createRefundAgent(desk: RefundDesk): Agent {
  return createAgent({
    prompt: REFUND_QUESTION,
    output: "text",
    ptcTransport: "tool_call",
    maxTurns: 6,
    systemPrompt: {
      prefix:
        "You are the support assistant of an online shop. Find the orders with a program; refund each with the refund tool (a person approves every refund).",
    },
    tools: {
      list_orders: {
        signature: "() -> [{id :string, customer :string, status :string, total :float, days_late :int}]",
        description: "This week's orders: status (delivered, in_transit, cancelled), total, days late.",
        expose: "ptc_lisp",
        execute: () => desk.orders,
      },
      refund: {
        signature:
          "(order_id :string, amount :float) -> {refund_id :string, order_id :string, amount :float}",
        description: "Refunds an order. Every refund waits for a person's approval.",
        needsApproval: true,
        execute: ({ order_id, amount }: { order_id: string; amount: number }) => {
          const order = desk.orders.find((candidate) => candidate.id === order_id);
          if (order === undefined) throw new Error(`no order ${order_id}`);
          if (amount > order.total)
            throw new Error(`${amount} is more than the order's total of ${order.total}`);
          const made = { order_id, amount, refund_id: `R-${order_id.slice(2)}` };
          desk.refunds.push(made);
          return made;
        },
      },
    },
  });
}
