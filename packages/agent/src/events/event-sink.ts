/**
 * Delivers a run's events to its listener (and its transcript), stamped with the agent's name and
 * id and the span they belong to. A listener that throws must not break the run it observes, so
 * its errors are dropped. Payloads (arguments, results, prompts) reach the listener only when it
 * opted in; a transcript always records them. Tool arguments and results are JSON-safe data
 * (json/to-json-safe.ts), as in the step: a listener can serialize any event.
 */
import { toJsonSafe } from "../json/to-json-safe.js";
import type { TranscriptWriter } from "../transcript/transcript-types.js";
import type { AgentEvent, EventBase, EventListener } from "./event-types.js";

type Body<E> = E extends AgentEvent ? Omit<E, keyof EventBase> : never;

let spanCounter = 0;

/** 8 hex characters, unique within the process. */
export function newSpanId(): string {
  spanCounter = (spanCounter + 1) % 0x1_0000_0000;
  const random = Math.floor(Math.random() * 0x1_0000) ^ (spanCounter * 2654435761);
  return (random >>> 0).toString(16).padStart(8, "0");
}

const PAYLOAD_KEYS = ["args", "result", "system", "messages", "response"] as const;

export class EventSink {
  constructor(
    private readonly listener: EventListener | undefined,
    readonly agentName: string | undefined,
    readonly agentId: string,
    private readonly listenerPayloads: boolean,
    readonly transcript: TranscriptWriter | undefined = undefined,
  ) {}

  /** Whether events should carry payloads (someone will read them). */
  get payloads(): boolean {
    return this.transcript !== undefined || (this.listenerPayloads && this.listener !== undefined);
  }

  emit(spanId: string, parentSpanId: string | null, body: Body<AgentEvent>): void {
    if (this.listener === undefined && this.transcript === undefined) return;
    const event = {
      ...body,
      ...("args" in body ? { args: toJsonSafe(body.args) } : {}),
      ...("result" in body ? { result: toJsonSafe(body.result) } : {}),
      agentName: this.agentName,
      agentId: this.agentId,
      spanId,
      parentSpanId,
      timestamp: Date.now(),
    } as AgentEvent;
    this.record({ type: "event", event });
    if (this.listener === undefined) return;
    let delivered = event;
    if (!this.listenerPayloads && PAYLOAD_KEYS.some((key) => key in event)) {
      const stripped: Record<string, unknown> = { ...event };
      for (const key of PAYLOAD_KEYS) delete stripped[key];
      delivered = stripped as unknown as AgentEvent;
    }
    try {
      // An async listener's rejection is dropped too, never an unhandled rejection.
      const returned: unknown = this.listener(delivered);
      if (typeof (returned as PromiseLike<unknown> | undefined)?.then === "function") {
        (returned as PromiseLike<unknown>).then(undefined, () => undefined);
      }
    } catch {
      // An observer's failure is not the run's failure.
    }
  }

  /** Writes a transcript record, if the run keeps one. A failing writer does not fail the run. */
  record(record: Parameters<TranscriptWriter>[0]): void {
    if (this.transcript === undefined) return;
    try {
      this.transcript(record);
    } catch {
      // The transcript is an observer too.
    }
  }

  /** The same listener and transcript for a child agent. */
  child(agentName: string | undefined, agentId: string): EventSink {
    return new EventSink(this.listener, agentName, agentId, this.listenerPayloads, this.transcript);
  }
}
