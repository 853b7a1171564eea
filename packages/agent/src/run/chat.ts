/**
 * `chat`: one exchange of a conversation. The history goes in as `messages` (system messages are
 * dropped: the agent writes its own), the user's message becomes the prompt, and the reply comes
 * back with the updated history. PTC-Lisp agents carry their memory across calls. Passing the
 * previous reply's `state` back (opt-in) also carries the tool cache, so a `cache_hint` from an
 * earlier answer still finds its result; `state` is plain JSON, to keep wherever the host likes.
 * An exchange that pauses for approval says so (`paused`, `pending`) and carries the paused run in
 * its `state`; `resumeChat` goes on with the decisions and answers like `chat`.
 */
import type { Agent } from "../agent/agent-types.js";
import { describe, isPlainObject } from "../agent/describe.js";
import { isAgent } from "../agent/is-agent.js";
import {
  CHAT_OPTION_KEYS,
  CHAT_RESUME_OPTION_KEYS,
  RUN_OPTION_ERROR,
  refuseUnknownKeys,
} from "../agent/option-keys.js";
import type { ResumeOptions } from "../approvals/approval-types.js";
import { resume } from "../approvals/resume.js";
import { AgentError } from "../errors.js";
import type { Message } from "../model/model-types.js";
import type {
  PausedRunState,
  PendingApproval,
  RunResult,
  StepFail,
  ToolCacheEntry,
} from "../step/step-types.js";
import { runAgent } from "./run-agent.js";
import type { RunOptions } from "./run-options.js";

/** What carries over between chat calls when passed back; JSON-safe. */
export interface ChatState {
  readonly toolCache: Readonly<Record<string, ToolCacheEntry>>;
  /** Set when the exchange paused for approval: what `resumeChat` goes on from. */
  readonly paused?: PausedRunState;
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
      readonly paused?: false;
      readonly reply: unknown;
      readonly messages: readonly Message[];
      readonly memory: Readonly<Record<string, unknown>>;
      readonly state: ChatState;
    }
  | {
      readonly ok: false;
      readonly paused?: false;
      readonly error: StepFail;
      readonly messages: readonly Message[];
      /**
       * PTC-Lisp agents: the memory as the failed exchange left it (what its programs defined
       * before the failure, as its turns in `messages` show), to pass on like a success's.
       */
      readonly memory: Readonly<Record<string, unknown>>;
      readonly state: ChatState;
    }
  | {
      /** The exchange waits for approval: pass `state` to `resumeChat` with the decisions. */
      readonly ok: false;
      readonly paused: true;
      readonly pending: readonly PendingApproval[];
      readonly error: StepFail;
      readonly messages: readonly Message[];
      readonly state: ChatState & { readonly paused: PausedRunState };
    };

/** Options of `resumeChat`: those of `resume` (decisions, model, secret...). */
export type ChatResumeOptions = Omit<ResumeOptions, "collectMessages">;

function misuse(option: string, message: string): AgentError {
  return new AgentError("PTC_AGENT_INVALID_RUN_OPTION", message, { details: { option } });
}

export async function chat(agent: Agent, userMessage: string, options: ChatOptions = {}): Promise<ChatReply> {
  if (!isAgent(agent)) {
    throw misuse("agent", `chat needs an agent made by createAgent, got ${describe(agent)}`);
  }
  if (!isPlainObject(options as unknown)) {
    throw misuse("options", `chat options must be an object, got ${describe(options)}`);
  }
  if (typeof userMessage !== "string") {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `chat needs the user's message as a string, got ${describe(userMessage)}`,
      {
        details: { option: "userMessage" },
      },
    );
  }
  refuseUnknownKeys(options, CHAT_OPTION_KEYS, RUN_OPTION_ERROR("chat"));
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
  const result = await runAgent(chatTurnAgent(agent, userMessage), {
    ...runOptions,
    // Only messages are dropped: anything else goes on to the check of initialMessages, which names it.
    initialMessages: messages.filter((message) => !(isPlainObject(message) && message.role === "system")),
    collectMessages: true,
    ...(text ? {} : { initialMemory: memory }),
    ...(state === undefined ? {} : { toolCache: state.toolCache }),
  });
  return chatReply(agent, result);
}

/**
 * Goes on with an exchange that paused for approval: `state` is its reply's state, `options` the
 * decisions (and the model, the stateSecret...) as for `resume`. Answers like `chat`.
 */
export async function resumeChat(
  agent: Agent,
  state: ChatState,
  options: ChatResumeOptions,
): Promise<ChatReply> {
  if (!isAgent(agent)) {
    throw misuse("agent", `resumeChat needs an agent made by createAgent, got ${describe(agent)}`);
  }
  if (isPlainObject(options)) {
    refuseUnknownKeys(options, CHAT_RESUME_OPTION_KEYS, RUN_OPTION_ERROR("resumeChat"));
  }
  const paused = isPlainObject(state) ? (state.paused as unknown) : undefined;
  if (!isPlainObject(paused) || typeof paused.run !== "object" || paused.run === null) {
    throw new AgentError(
      "PTC_AGENT_INVALID_RUN_OPTION",
      `resumeChat needs the state of a chat reply that paused (reply.paused is true), got ${describe(state)}`,
      { details: { option: "state" } },
    );
  }
  // The exchange ran as an agent whose prompt is the user's message: resume that one.
  const message = (paused.run as { prompt?: unknown }).prompt;
  const turnAgent = chatTurnAgent(agent, typeof message === "string" ? message : "");
  const result = await resume(turnAgent, paused as unknown as PausedRunState, {
    ...options,
    collectMessages: true,
  });
  return chatReply(agent, result);
}

/** The agent one exchange runs: the user's message is its prompt; a text agent answers in text. */
function chatTurnAgent(agent: Agent, userMessage: string): Agent {
  const text = agent.output === "text";
  return Object.freeze({
    ...agent,
    prompt: userMessage,
    ...(text ? { signature: undefined, parsedSignature: undefined } : {}),
  });
}

function chatReply(agent: Agent, result: RunResult): ChatReply {
  const text = agent.output === "text";
  const nextState: ChatState = { toolCache: Object.fromEntries(result.step.toolCache) };
  const history = result.step.messages ?? [];
  if (result.paused === true) {
    return {
      ok: false,
      paused: true,
      pending: result.pending,
      error: result.step.fail ?? { reason: "paused", message: "the run paused for approval" },
      messages: history,
      state: { ...nextState, paused: result.state },
    };
  }
  if (!result.ok) {
    return {
      ok: false,
      error: result.step.fail ?? { reason: "failed", message: "the run failed" },
      messages: history,
      memory: text ? {} : result.step.memory,
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
