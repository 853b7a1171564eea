/**
 * The closing figures of a run: the context tokens the model actually read, against what the same
 * conversation would have cost had every native tool result been inlined in full (the previews
 * replaced by `JSON.stringify` of the results they stand for), and the tool calls the run's cache
 * saved.
 */
import type { Message, Step, ToolCallRecord } from "@ptc/agent";
import type { ModelExchange } from "../run/recording-model.js";
import { requestTokens } from "./count-tokens.js";

export interface RequestTokens {
  readonly turn: number | undefined;
  /** What the model read. */
  readonly read: number;
  /** The same request with every native tool result inlined in full. */
  readonly inlined: number;
}

export interface TokenSummary {
  readonly requests: readonly RequestTokens[];
  readonly tokensRead: number;
  readonly tokensInlined: number;
  /** tokensRead / tokensInlined. */
  readonly ratio: number;
  /** 1 - ratio, in percent. */
  readonly percentSaved: number;
  /** Tool calls answered from the run's cache instead of running the tool. */
  readonly cacheHits: number;
  readonly cachedCalls: readonly {
    readonly name: string;
    readonly layer: string;
    readonly turn: number | undefined;
  }[];
  /** Native calls the model made, `lisp_eval` included. */
  readonly nativeCalls: number;
  /** Calls programs made with `(tool/name ...)`. */
  readonly programCalls: number;
  /** Tokens the provider reported, when it did. */
  readonly providerInputTokens: number | undefined;
}

export function summarizeTokens(exchanges: readonly ModelExchange[], step: Step): TokenSummary {
  const fullResults = new Map<string, unknown>();
  for (const call of step.toolCalls) {
    if (
      call.exposureLayer === "native" &&
      call.name !== "lisp_eval" &&
      call.id !== undefined &&
      "result" in call
    ) {
      fullResults.set(call.id, call.result);
    }
  }
  const inline = (message: Message): Message => {
    const id = message.role === "tool" ? message.toolCallId : undefined;
    if (id === undefined || !fullResults.has(id)) return message;
    return { ...message, content: JSON.stringify(fullResults.get(id)) ?? "null" };
  };
  const requests = exchanges.map(({ request }) => ({
    turn: request.turn,
    read: requestTokens(request),
    inlined: requestTokens({ ...request, messages: request.messages.map(inline) }),
  }));
  const tokensRead = sum(requests.map((request) => request.read));
  const tokensInlined = sum(requests.map((request) => request.inlined));
  const ratio = tokensInlined === 0 ? 1 : tokensRead / tokensInlined;
  const cached = step.toolCalls.filter((call) => call.cached === true);
  return {
    requests,
    tokensRead,
    tokensInlined,
    ratio,
    percentSaved: (1 - ratio) * 100,
    cacheHits: cached.length,
    cachedCalls: cached.map((call: ToolCallRecord) => ({
      name: call.name,
      layer: call.exposureLayer ?? "native",
      turn: call.turn,
    })),
    nativeCalls: step.toolCalls.filter((call) => call.exposureLayer === "native").length,
    programCalls: step.toolCalls.filter((call) => call.exposureLayer === "ptc_lisp").length,
    providerInputTokens: step.usage.inputTokens,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
