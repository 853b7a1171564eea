/**
 * Compaction of long PTC-Lisp runs: once past the trigger (a turn count or an estimate of tokens),
 * requests carry only the mission and the most recent turns. The stored history is never cut, so
 * `step.messages` and the transcript stay complete.
 */
import { newSpanId } from "../events/event-sink.js";
import type { Message } from "../model/model-types.js";
import type { LoopState, Run } from "./run-types.js";

function estimate(run: Run, messages: readonly Message[]): number {
  const counter = run.agent.compaction === false ? undefined : run.agent.compaction.tokenCounter;
  let total = 0;
  for (const message of messages) {
    total += counter === undefined ? Math.max(1, Math.floor(message.content.length / 4)) : counter(message);
  }
  return total;
}

export function compactMessages(run: Run, state: LoopState): readonly Message[] {
  const options = run.agent.compaction;
  const messages = state.messages;
  if (options === false || run.agent.maxTurns <= 1) return messages;
  const { turns, tokens } = options.trigger;
  const byTurns = turns !== undefined && state.turn > turns;
  const tokensBefore = tokens === undefined && !byTurns ? 0 : estimate(run, messages);
  const byTokens = tokens !== undefined && tokensBefore >= tokens;
  if (!byTurns && !byTokens) return messages;

  const keepFirst = options.keepInitialUser && messages[0]?.role === "user";
  const recentCount = options.keepRecentTurns * 2;
  if (messages.length <= recentCount + (keepFirst ? 1 : 0)) return messages;
  let recent = messages.slice(messages.length - recentCount);
  // Resume on a user message, or on an assistant turn that carries tool calls (its tool results
  // follow it, as in the tool_call transport, which has no user messages between turns); never
  // on a plain assistant reply or an orphaned tool result.
  while (recent.length > 0 && recent[0]?.role !== "user" && recent[0]?.toolCalls === undefined) {
    recent = recent.slice(1);
  }
  const compacted = keepFirst ? [messages[0] as Message, ...recent] : recent;

  const stats = state.compaction ?? { count: 0, messagesBefore: 0, messagesAfter: 0 };
  state.compaction = {
    count: stats.count + 1,
    messagesBefore: messages.length,
    messagesAfter: compacted.length,
  };
  run.events.emit(newSpanId(), run.spanId, {
    type: "compaction",
    turn: state.turn,
    strategy: "trim",
    reason: byTurns ? "turns" : "tokens",
    messagesBefore: messages.length,
    messagesAfter: compacted.length,
    estimatedTokensBefore: tokensBefore === 0 ? estimate(run, messages) : tokensBefore,
    estimatedTokensAfter: estimate(run, compacted),
  });
  return compacted;
}
