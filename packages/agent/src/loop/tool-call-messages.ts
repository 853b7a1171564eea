/**
 * Native tool calls in the conversation: ids for calls that came without one, the assistant
 * message that carries the calls, and a readable summary of them for the turn record.
 */
import type { Message } from "../model/model-types.js";
import type { NormalizedToolCall } from "../model/normalize-response.js";
import type { LoopState } from "./run-types.js";

export type IdentifiedCall = NormalizedToolCall & { readonly id: string };

/**
 * Gives every call an id. A missing one becomes `tc_<n>`, numbered across the whole run, so two
 * id-less calls on different turns never share an id (the reference could repeat `tc_1`: docs/differences.md). A
 * duplicate id within one turn is renamed the same way, so each tool message answers one call.
 */
export function identify(state: LoopState, calls: readonly NormalizedToolCall[]): IdentifiedCall[] {
  const seen = new Set<string>();
  return calls.map((call) => {
    let id = call.id;
    if (id === undefined || seen.has(id)) {
      state.syntheticIds += 1;
      id = `tc_${state.syntheticIds}`;
    }
    seen.add(id);
    return { ...call, id };
  });
}

export function assistantWithCalls(content: string | null, calls: readonly IdentifiedCall[]): Message {
  return {
    role: "assistant",
    content: content ?? "",
    // Parsed arguments stay objects; text that did not parse is kept verbatim so nothing is lost.
    toolCalls: calls.map((call) => ({
      id: call.id,
      name: call.name,
      args: call.argsError !== undefined && call.rawArgs !== undefined ? call.rawArgs : call.args,
    })),
  };
}

export function describeCalls(calls: readonly IdentifiedCall[]): string {
  return calls
    .map((call) => `${call.name}(${call.rawArgs ?? JSON.stringify(call.args)}) [${call.id}]`)
    .join("\n");
}
