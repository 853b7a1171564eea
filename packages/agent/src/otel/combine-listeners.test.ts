import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../index.js";
import { combineListeners } from "./index.js";

const event: AgentEvent = {
  type: "run-start",
  agentName: "a",
  agentId: "0000000a",
  spanId: "r1",
  parentSpanId: null,
  timestamp: 1_700_000_000_000,
  depth: 0,
  mode: "text",
};

describe("combineListeners", () => {
  it("gives every event to every listener, in the order given", () => {
    const seen: string[] = [];
    const combined = combineListeners(
      (received) => seen.push(`first ${received.spanId}`),
      (received) => seen.push(`second ${received.spanId}`),
    );

    combined(event);

    expect(seen).toEqual(["first r1", "second r1"]);
  });

  it("skips undefined listeners, so an optional listener can be passed as is", () => {
    const seen: AgentEvent[] = [];
    const optional: ((received: AgentEvent) => void) | undefined = undefined;

    combineListeners(optional, (received) => seen.push(received))(event);

    expect(seen).toEqual([event]);
  });

  it("keeps calling the other listeners when one throws", () => {
    const seen: AgentEvent[] = [];
    const combined = combineListeners(
      () => {
        throw new Error("broken observer");
      },
      (received) => seen.push(received),
    );

    expect(() => combined(event)).not.toThrow();
    expect(seen).toEqual([event]);
  });
});
