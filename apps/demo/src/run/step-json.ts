/**
 * The Step as plain JSON: the tool cache (a Map) becomes an object keyed by its canonical cache
 * keys. Each turn's `messages` is replaced by the messages its model request really carried,
 * because @ptc/agent 0.1.0 records every turn with the same live array (so each turn showed the
 * whole final conversation).
 */
import type { Step } from "@ptc/agent";
import type { ModelExchange } from "./recording-model.js";

export function stepToJson(step: Step, exchanges: readonly ModelExchange[] = []): Record<string, unknown> {
  const sent = new Map<number, ModelExchange["request"]>();
  for (const exchange of exchanges) {
    if (exchange.request.turn !== undefined) sent.set(exchange.request.turn, exchange.request);
  }
  return {
    ...step,
    turns:
      step.turns?.map((turn) => {
        const request = sent.get(turn.number);
        return request === undefined ? turn : { ...turn, messages: request.messages };
      }) ?? null,
    toolCache: Object.fromEntries(step.toolCache),
  };
}
