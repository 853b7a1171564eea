/**
 * The refund scenario's scripted model. Its moves are fixed, its figures are not: the refunds it
 * asks for are read from the program's value, and its answer from what each refund call returned
 * (a refund, or the rejection the person gave), so the answer is right only if the approvals
 * really worked.
 */
import type { Message, ModelRequest } from "@ptc/agent";
import type { ScriptedStep } from "@ptc/agent/testing";
import { lispResult } from "../conversation/tool-results.js";
import { LATE_DAYS } from "./refund-orders.js";

export const FIND_PROGRAM = [
  "(->> (tool/list_orders {})",
  `     (filter #(and (= (:status %) "delivered") (> (:days_late %) ${LATE_DAYS})))`,
  "     (mapv #(select-keys % [:id :total])))",
].join("\n");

interface Candidate {
  readonly id: string;
  readonly total: number;
}

function candidates(request: ModelRequest): Candidate[] {
  const value = lispResult(request);
  if (!Array.isArray(value)) throw new Error(`the program's value is not a list: ${JSON.stringify(value)}`);
  return value as unknown as Candidate[];
}

export function refundSteps(): ScriptedStep[] {
  return [
    // Turn 1: find the late orders with a program.
    { content: "", toolCalls: [{ id: "call_find", name: "lisp_eval", args: { program: FIND_PROGRAM } }] },
    // Turn 2: refund each, natively; each call waits for approval.
    (request: ModelRequest) => ({
      content: "",
      toolCalls: candidates(request).map((order) => ({
        id: `call_refund_${order.id}`,
        name: "refund",
        args: { order_id: order.id, amount: order.total },
      })),
    }),
    // Turn 3: the answer, from what each refund call returned.
    (request: ModelRequest) => refundAnswer(request),
  ];
}

function refundAnswer(request: ModelRequest): string {
  const late = candidates(request);
  const answers = new Map<string, Message>();
  for (const message of request.messages)
    if (message.role === "tool") answers.set(message.toolCallId ?? "", message);
  const refunded: string[] = [];
  const refused: string[] = [];
  let total = 0;
  for (const order of late) {
    const reply = JSON.parse(answers.get(`call_refund_${order.id}`)?.content ?? "{}") as {
      refund_id?: string;
      amount?: number;
      error?: string;
    };
    if (reply.refund_id !== undefined) {
      refunded.push(`${order.id} ($${order.total.toFixed(2)}, ${reply.refund_id})`);
      total += reply.amount ?? 0;
    } else {
      refused.push(`${order.id}: ${reply.error ?? "no answer"}`);
    }
  }
  const lines = [
    `${late.length} orders were delivered more than ${LATE_DAYS} days late.`,
    refunded.length === 0
      ? "None was refunded."
      : `Refunded ${refunded.length}, $${total.toFixed(2)} in all: ${refunded.join(", ")}.`,
  ];
  if (refused.length > 0) lines.push(`Not refunded: ${refused.join("; ")}.`);
  return lines.join(" ");
}
