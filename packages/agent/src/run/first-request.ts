/**
 * The first request a run of an agent sends, built by the run's own code (its mode, loop state
 * and turn handling) without calling the model. `previewPrompt` shows this, so a preview and a
 * run cannot drift apart: there is no second copy of how a mode's first turn is put together.
 */
import type { Tool } from "@ptc/tool";
import type { Agent } from "../agent/agent-types.js";
import type { Mode } from "../loop/modes.js";
import { watchAbort } from "../model/abort-watch.js";
import type { ModelRequest } from "../model/model-types.js";
import { buildRun, initialState, turnModeOf } from "./run-agent.js";
import type { RunOptions } from "./run-options.js";

export interface FirstRequest {
  readonly mode: Mode;
  /** The run's effective tools (the agent's own and the builtin ones). */
  readonly tools: readonly Tool[];
  readonly request: Omit<ModelRequest, "signal" | "stream" | "cache">;
}

export function firstRequest(agent: Agent, options: RunOptions): FirstRequest {
  // No signal: nothing here waits, so the watch has nothing to listen to and nothing to dispose.
  const { run } = buildRun(agent, options, undefined, watchAbort(undefined));
  const state = initialState(run, options, undefined);
  const turnMode = turnModeOf(run);
  const request = turnMode.request(state, turnMode.turnType(state));
  const messages = turnMode.messagesFor?.(state) ?? state.messages;
  return { mode: run.mode, tools: [...run.tools.values()], request: { ...request, messages: [...messages] } };
}
