/**
 * `chat`: one exchange of a conversation. The history goes in as `messages` (system messages are
 * dropped: the agent writes its own), the user's message becomes the prompt, and the reply comes
 * back with the updated history. PTC-Lisp agents carry their memory across calls. Passing the
 * previous reply's `state` back (opt-in) also carries the tool cache, so a `cache_hint` from an
 * earlier answer still finds its result; `state` is plain JSON, to keep wherever the host likes.
 */
import type { Agent } from "../agent/agent-types.js";
import { describe, isPlainObject } from "../agent/describe.js";
import { AgentError } from "../errors.js";
import type { Message } from "../model/model-types.js";
import type { StepFail, ToolCacheEntry } from "../step/step-types.js";
import { runAgent } from "./run-agent.js";
import type { RunOptions } from "./run-options.js";

/** What carries over between chat calls when passed back; JSON-safe. */
export interface ChatState {
  readonly toolCache: Readonly<Record<string, ToolCacheEntry>>;
}

export interface ChatOptions
  extends Omit<RunOptions, "initialMessages" | "initialMemory" | "collectMessages" | "toolCache"> {
  /** The conversation so far (a previous reply's `messages`). */
  readonly messages?: readonly Message[];
  /** PTC-Lisp agents: the memory so far (a previous reply's `memory`). */
  readonly memory?: Readonly<Record<string, unknown>>;
  /** A previous reply's `state`: carries the tool cache into this call. */
  readonly state?: ChatState;
}

export type ChatReply =
  | {
      readonly ok: true;
      readonly reply: unknown;
      readonly messages: readonly Message[];
      readonly memory: Readonly<Record<string, unknown>>;
      readonly state: ChatState;
    }
  | {
      readonly ok: false;
      readonly error: StepFail;
      readonly messages: readonly Message[];
      readonly state: ChatState;
    };

export async function chat(agent: Agent, userMessage: string, options: ChatOptions = {}): Promise<ChatReply> {
  if (typeof userMessage !== "string") {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `chat needs the user's message as a string, got ${describe(userMessage)}`,
      {
        details: { option: "userMessage" },
      },
    );
  }
  const { messages = [], memory = {}, state, ...runOptions } = options;
  if (!Array.isArray(messages)) {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `chat: messages must be an array, got ${describe(messages)}`,
      {
        details: { option: "messages" },
      },
    );
  }
  if (state !== undefined && (!isPlainObject(state) || !isPlainObject(state.toolCache))) {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `chat: state must be a previous reply's state ({ toolCache }), got ${describe(state)}`,
      {
        details: { option: "state" },
      },
    );
  }
  const text = agent.output === "text";
  const turnAgent: Agent = Object.freeze({
    ...agent,
    prompt: userMessage,
    ...(text ? { signature: undefined, parsedSignature: undefined } : {}),
  });
  const result = await runAgent(turnAgent, {
    ...runOptions,
    initialMessages: messages.filter((message) => message.role !== "system"),
    collectMessages: true,
    ...(text ? {} : { initialMemory: memory }),
    ...(state === undefined ? {} : { toolCache: state.toolCache }),
  });
  const nextState: ChatState = { toolCache: Object.fromEntries(result.step.toolCache) };
  const history = result.step.messages ?? [];
  if (!result.ok) {
    return {
      ok: false,
      error: result.step.fail ?? { reason: "failed", message: "the run failed" },
      messages: history,
      state: nextState,
    };
  }
  return {
    ok: true,
    reply: result.step.return,
    messages: history,
    memory: text ? {} : result.step.memory,
    state: nextState,
  };
}
