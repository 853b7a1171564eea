/**
 * Delivers a run's events to its listener, stamped with the agent's name and id and the span they
 * belong to. A listener that throws must not break the run it observes, so its errors are dropped.
 */
import type { AgentEvent, EventBase, EventListener } from "./event-types.js";

type Body<E> = E extends AgentEvent ? Omit<E, keyof EventBase> : never;

let spanCounter = 0;

/** 8 hex characters, unique within the process. */
export function newSpanId(): string {
  spanCounter = (spanCounter + 1) % 0x1_0000_0000;
  const random = Math.floor(Math.random() * 0x1_0000) ^ (spanCounter * 2654435761);
  return (random >>> 0).toString(16).padStart(8, "0");
}

export class EventSink {
  constructor(
    private readonly listener: EventListener | undefined,
    readonly agentName: string | undefined,
    readonly agentId: string,
    readonly payloads: boolean,
  ) {}

  get enabled(): boolean {
    return this.listener !== undefined;
  }

  emit(spanId: string, parentSpanId: string | null, body: Body<AgentEvent>): void {
    if (this.listener === undefined) return;
    const event = {
      ...body,
      agentName: this.agentName,
      agentId: this.agentId,
      spanId,
      parentSpanId,
      timestamp: Date.now(),
    } as AgentEvent;
    try {
      this.listener(event);
    } catch {
      // An observer's failure is not the run's failure.
    }
  }

  /** The same listener for a child agent. */
  child(agentName: string | undefined, agentId: string): EventSink {
    return new EventSink(this.listener, agentName, agentId, this.payloads);
  }
}
