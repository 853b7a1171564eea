/**
 * One agent definition for the test that resumes a paused run in another process: both
 * processes build it from here, and every tool call is appended to a log file, so the calls of
 * both processes can be counted together.
 */
import { appendFileSync } from "node:fs";
import { createAgent } from "../../index.js";
import { refundDesk } from "./refund-tools.js";

export function refundAgent(logFile: string) {
  const desk = refundDesk({
    onCall: (tool, args) => appendFileSync(logFile, `${JSON.stringify({ tool, args, pid: process.pid })}\n`),
  });
  return createAgent({ prompt: "Refund orders 7 and 9", tools: desk.tools });
}

/** The model's one program: look both orders up, then refund both (pmap: the refunds pause together). */
export const REFUND_PROGRAM =
  "(return (pmap (fn [id] (let [o (tool/get_order {:id id})] (tool/refund {:id id :amount (:amount o)}))) [7 9]))";
