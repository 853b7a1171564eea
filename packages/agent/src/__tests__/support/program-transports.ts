/**
 * The two ways a PTC-Lisp agent receives programs, each as a scripted conversation that runs one
 * program and then returns 1: for tests that check what a program sees on either transport.
 */
import type { AgentOptions } from "../../index.js";
import { fencedProgram, lispEvalCall, type ScriptedStep } from "../../testing/index.js";

export interface ProgramTransport {
  readonly options: Partial<AgentOptions>;
  readonly steps: ScriptedStep[];
}

/** By name ("content mode", "tool_call transport"): `program` first, then `(return 1)`. */
export function programTransports(program = "(tool/t {})"): Record<string, ProgramTransport> {
  return {
    "content mode": { options: {}, steps: [fencedProgram(program), fencedProgram("(return 1)")] },
    "tool_call transport": {
      options: { ptcTransport: "tool_call" },
      steps: [lispEvalCall(program, { id: "a" }), lispEvalCall("(return 1)", { id: "b" })],
    },
  };
}
