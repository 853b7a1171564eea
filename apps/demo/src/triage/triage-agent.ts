/**
 * The log-triage agent in combined mode: it answers in text, calls its tools natively, and may
 * escalate to `lisp_eval` programs that call the same tools (answered from the run's cache).
 */
import { type Agent, createAgent } from "@ptc/agent";
import type { LogStore } from "../logs/log-data.js";
import { createLogTools } from "../logs/log-tools.js";

export const DEMO_QUESTION =
  "How many errors with code 42 in the last hour, and which services had the most?";

export function createTriageAgent(store: LogStore, question: string = DEMO_QUESTION): Agent {
  return createAgent({
    prompt: question,
    output: "text",
    ptcTransport: "tool_call",
    maxTurns: 8,
    systemPrompt: {
      prefix: `You are the on-call assistant of an online shop's engineering team. It is now ${new Date(store.now).toISOString()}; log timestamps are UTC. Give exact figures: count with a program, never by reading rows.`,
    },
    tools: createLogTools(store),
  });
}
