/**
 * The modes of a run, decided once per run from the agent (and the tools it ends up with): which
 * loop drives the turns, which transport carries programs, what the first user message is and
 * what `run-start` calls the mode. The run reads its row; `previewPrompt` builds the first
 * request through the same run, so the two cannot drift. Nothing else asks what mode a run is in.
 */
import type { Agent } from "../agent/agent-types.js";
import type { RunStartEvent } from "../events/event-types.js";
import { returnsText } from "../prompt/text-prompts.js";

export type ModeName =
  /** Programs fenced in the reply, several turns. */
  | "ptc_lisp"
  /** One turn, no tools, implicit completion: one program whose value is the answer. */
  | "ptc_lisp_single_shot"
  /** Programs over the native `lisp_eval` tool. */
  | "ptc_lisp_tool_call"
  /** No tools, a text answer: one call. */
  | "text"
  /** No tools, a typed answer: JSON, retried while turns remain. */
  | "text_json"
  /** Native tools, answered until the model replies in text. */
  | "text_tools"
  /** Native tools plus `lisp_eval`, with previews of cached results. */
  | "combined";

export interface Mode {
  readonly name: ModeName;
  /** PTC-Lisp modes run programs every turn, keep memory and spend work and retry turns. */
  readonly ptc: boolean;
  /** `lisp_eval` carries programs (as native tool calls) rather than fences in the reply. */
  readonly lispEval: boolean;
  /** The mode as `run-start` and OpenTelemetry name it. */
  readonly event: RunStartEvent["mode"];
  /** The first user message: the PTC-Lisp context block and mission, or a text variant's. */
  readonly firstMessage: "ptc_lisp" | "mission" | "json" | "tools";
  /**
   * Whether the run option `initialMessages` goes before the first message. Not on the single-shot
   * path: its system prompt holds everything, the mission included, and its one turn reads no history.
   */
  readonly history: boolean;
}

export const MODES: Readonly<Record<ModeName, Mode>> = {
  ptc_lisp: {
    name: "ptc_lisp",
    ptc: true,
    lispEval: false,
    event: "ptc_lisp",
    firstMessage: "ptc_lisp",
    history: true,
  },
  ptc_lisp_single_shot: {
    name: "ptc_lisp_single_shot",
    ptc: true,
    lispEval: false,
    event: "ptc_lisp",
    firstMessage: "mission",
    history: false,
  },
  ptc_lisp_tool_call: {
    name: "ptc_lisp_tool_call",
    ptc: true,
    lispEval: true,
    event: "ptc_lisp_tool_call",
    firstMessage: "ptc_lisp",
    history: true,
  },
  text: { name: "text", ptc: false, lispEval: false, event: "text", firstMessage: "mission", history: true },
  text_json: {
    name: "text_json",
    ptc: false,
    lispEval: false,
    event: "text",
    firstMessage: "json",
    history: true,
  },
  text_tools: {
    name: "text_tools",
    ptc: false,
    lispEval: false,
    event: "text",
    firstMessage: "tools",
    history: true,
  },
  combined: {
    name: "combined",
    ptc: false,
    lispEval: true,
    event: "combined",
    firstMessage: "tools",
    history: true,
  },
};

/** The mode of a run of `agent` with `toolCount` effective tools (its own plus builtin ones). */
export function modeOf(agent: Agent, toolCount: number): Mode {
  if (agent.output === "text") {
    if (agent.ptcTransportGiven && agent.ptcTransport === "tool_call") return MODES.combined;
    if (toolCount > 0) return MODES.text_tools;
    return returnsText(agent.parsedSignature) ? MODES.text : MODES.text_json;
  }
  if (agent.ptcTransport === "tool_call") return MODES.ptc_lisp_tool_call;
  const singleShot =
    agent.completionMode === "implicit" &&
    agent.maxTurns === 1 &&
    agent.retryTurns === 0 &&
    Object.keys(agent.tools).length === 0;
  return singleShot ? MODES.ptc_lisp_single_shot : MODES.ptc_lisp;
}
