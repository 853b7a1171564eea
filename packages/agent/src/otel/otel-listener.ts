/**
 * The OpenTelemetry bridge: an event listener that turns a run's events into spans (run → turn →
 * model call / tool call, a child agent's run under the tool call that started it) and its
 * compactions and preview fallbacks into span events. It only observes: it never throws into the
 * run, never records an input or output the caller did not opt into, and forgets every span once
 * its run has ended.
 */
import {
  type Attributes,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { AgentEvent, EventListener } from "@ptc/agent";
import {
  approvalRequestedAttributes,
  compactionAttributes,
  INCOMPLETE_ATTRIBUTE,
  llmCallEndAttributes,
  llmCallStartAttributes,
  nativePreviewFallbackAttributes,
  type PayloadOptions,
  recordedFailMessage,
  runEndAttributes,
  runResumedAttributes,
  runStartAttributes,
  SPAN_EVENT_NAMES,
  SPAN_NAMES,
  toolCallEndAttributes,
  toolCallStartAttributes,
  turnEndAttributes,
  turnStartAttributes,
} from "./event-attributes.js";

export interface OtelListenerOptions {
  /** The tracer to create spans with. Default: `trace.getTracer(tracerName)` from the global provider. */
  readonly tracer?: Tracer;
  /** The name of the default tracer. Default `"@ptc/agent"`; ignored when `tracer` is given. */
  readonly tracerName?: string;
  /**
   * Record tool arguments, system prompts and request messages as attributes. Default false.
   * Events carry them only when the run sets `eventPayloads: true`.
   */
  readonly recordInputs?: boolean;
  /**
   * Record tool results, model responses and the programs of turns as attributes. Default false.
   * Events carry results and responses only when the run sets `eventPayloads: true`.
   */
  readonly recordOutputs?: boolean;
}

/** Pass it as a run's `onEvent` (or combine it with your own listener with `combineListeners`). */
export type OtelListener = EventListener & {
  /**
   * Ends every span still open, marked `ptc.incomplete`, and forgets it; returns how many there
   * were. A run ends its own spans when it ends: this is for shutting down while runs are in flight.
   */
  readonly endOpenSpans: (timestamp?: number) => number;
};

type SpanKindName = "run" | "turn" | "llm_call" | "tool_call";

interface OpenSpan {
  readonly span: Span;
  readonly kind: SpanKindName;
  readonly agentId: string;
  /** Turn spans: the turn's number. */
  readonly turn: number | undefined;
  /** The runs this span lies in, innermost first; a run lists itself first. */
  readonly runs: readonly string[];
  /** Run spans: the turn in progress, where span events go. */
  currentTurn: string | undefined;
}

export function createOtelListener(options: OtelListenerOptions = {}): OtelListener {
  const tracer = options.tracer ?? trace.getTracer(options.tracerName ?? "@ptc/agent");
  const payloads: PayloadOptions = {
    recordInputs: options.recordInputs === true,
    recordOutputs: options.recordOutputs === true,
  };
  // Our span ids → their OpenTelemetry spans, in start order (parents before children).
  const open = new Map<string, OpenSpan>();
  // Parent ids no event announced, mapped to the span that stands in for them.
  const aliases = new Map<string, string>();

  function lookup(spanId: string): OpenSpan | undefined {
    return open.get(spanId) ?? open.get(aliases.get(spanId) ?? "");
  }

  /**
   * The span an event nests under. Should an event name a parent that no event announced (a
   * program's tool calls once named the program's own, unannounced span), it falls back to the
   * newest open turn of the same agent and turn number, else that agent's newest open run, and
   * every later event naming that parent follows it there. Only the caller's active context is
   * left when nothing matches.
   */
  function parentOf(event: AgentEvent): OpenSpan | undefined {
    const parentId = event.parentSpanId;
    if (parentId === null) return undefined;
    const known = lookup(parentId);
    if (known !== undefined) return known;
    const turn = "turn" in event ? event.turn : undefined;
    let runFallback: string | undefined;
    for (const [id, record] of [...open].reverse()) {
      if (record.agentId !== event.agentId) continue;
      if (record.kind === "turn" && (turn === undefined || record.turn === turn)) {
        aliases.set(parentId, id);
        return record;
      }
      if (record.kind === "run") runFallback ??= id;
    }
    if (runFallback === undefined) return undefined;
    aliases.set(parentId, runFallback);
    return open.get(runFallback);
  }

  /**
   * Calls into the tracer's span. An SDK, processor or exporter that throws must not leave the
   * bookkeeping half done (a span never forgotten, a run's children never ended), nor reach the
   * caller: a listener that is not wrapped by the run (called by the caller's own onEvent) would
   * otherwise throw into it.
   */
  function quietly(call: () => void): void {
    try {
      call();
    } catch {
      // The tracer's failure is not the run's; the span is as good as the tracer made it.
    }
  }

  function start(
    event: AgentEvent,
    kind: SpanKindName,
    name: string,
    spanKind: SpanKind,
    attributes: Attributes,
  ): void {
    if (open.has(event.spanId)) return;
    const parent = parentOf(event);
    const parentContext =
      parent === undefined ? context.active() : trace.setSpan(context.active(), parent.span);
    let span: Span;
    try {
      span = tracer.startSpan(
        name,
        { kind: spanKind, startTime: event.timestamp, attributes },
        parentContext,
      );
    } catch {
      // No span: the events under it nest under the nearest open one (parentOf).
      return;
    }
    const runs = kind === "run" ? [event.spanId, ...(parent?.runs ?? [])] : (parent?.runs ?? []);
    open.set(event.spanId, {
      span,
      kind,
      agentId: event.agentId,
      turn: kind === "turn" && "turn" in event ? event.turn : undefined,
      runs,
      currentTurn: undefined,
    });
    if (kind === "turn" && parent?.kind === "run") parent.currentTurn = event.spanId;
  }

  function finish(spanId: string, timestamp: number, error?: string): OpenSpan | undefined {
    const record = open.get(spanId);
    if (record === undefined) return undefined;
    open.delete(spanId);
    if (error !== undefined)
      quietly(() => record.span.setStatus({ code: SpanStatusCode.ERROR, message: error }));
    quietly(() => record.span.end(timestamp));
    return record;
  }

  /** Ends the spans a run leaves open (innermost first) and forgets every alias into the run. */
  function closeRun(runId: string, timestamp: number): void {
    for (const [id, record] of [...open].reverse()) {
      if (id === runId || !record.runs.includes(runId)) continue;
      quietly(() => record.span.setAttribute(INCOMPLETE_ATTRIBUTE, true));
      finish(id, timestamp);
    }
    for (const [alias, target] of aliases) if (!open.has(target) || target === runId) aliases.delete(alias);
  }

  function addSpanEvent(event: AgentEvent, name: string, attributes: Attributes): void {
    const parent = parentOf(event);
    if (parent === undefined) return;
    const turnId = parent.currentTurn;
    const target = (turnId === undefined ? undefined : open.get(turnId)) ?? parent;
    quietly(() => target.span.addEvent(name, attributes, event.timestamp));
  }

  function setEndAttributes(spanId: string, attributes: Attributes): void {
    const record = open.get(spanId);
    if (record !== undefined) quietly(() => record.span.setAttributes(attributes));
  }

  function handle(event: AgentEvent): void {
    switch (event.type) {
      case "run-start":
        start(event, "run", SPAN_NAMES.run, SpanKind.INTERNAL, runStartAttributes(event));
        return;
      case "run-end": {
        const record = open.get(event.spanId);
        if (record === undefined) return;
        quietly(() => record.span.setAttributes(runEndAttributes(event, payloads)));
        closeRun(event.spanId, event.timestamp);
        finish(
          event.spanId,
          event.timestamp,
          event.ok || event.fail?.reason === "paused"
            ? undefined
            : (recordedFailMessage(event, payloads) ??
                `run failed: ${event.fail?.reason ?? "unknown reason"}`),
        );
        return;
      }
      case "turn-start":
        start(event, "turn", SPAN_NAMES.turn, SpanKind.INTERNAL, turnStartAttributes(event));
        return;
      case "turn-end": {
        setEndAttributes(event.spanId, turnEndAttributes(event, payloads));
        const turn = finish(event.spanId, event.timestamp);
        const run = turn === undefined ? undefined : open.get(turn.runs[0] ?? "");
        if (run?.currentTurn === event.spanId) run.currentTurn = undefined;
        return;
      }
      case "llm-call-start":
        start(
          event,
          "llm_call",
          SPAN_NAMES.llmCall,
          SpanKind.CLIENT,
          llmCallStartAttributes(event, payloads),
        );
        return;
      case "llm-call-end":
        setEndAttributes(event.spanId, llmCallEndAttributes(event, payloads));
        finish(event.spanId, event.timestamp, event.ok ? undefined : (event.error ?? "model call failed"));
        return;
      case "tool-call-start":
        start(
          event,
          "tool_call",
          SPAN_NAMES.toolCall,
          SpanKind.INTERNAL,
          toolCallStartAttributes(event, payloads),
        );
        return;
      case "tool-call-end":
        setEndAttributes(event.spanId, toolCallEndAttributes(event, payloads));
        finish(
          event.spanId,
          event.timestamp,
          event.error ? (event.errorMessage ?? `tool "${event.toolName}" failed`) : undefined,
        );
        return;
      case "compaction":
        addSpanEvent(event, SPAN_EVENT_NAMES.compaction, compactionAttributes(event));
        return;
      case "native-preview-fallback":
        addSpanEvent(event, SPAN_EVENT_NAMES.nativePreviewFallback, nativePreviewFallbackAttributes(event));
        return;
      case "approval-requested":
        addSpanEvent(event, SPAN_EVENT_NAMES.approvalRequested, approvalRequestedAttributes(event, payloads));
        return;
      case "run-resumed":
        addSpanEvent(event, SPAN_EVENT_NAMES.runResumed, runResumedAttributes(event));
        return;
    }
  }

  function endOpenSpans(timestamp: number = Date.now()): number {
    const count = open.size;
    for (const [id, record] of [...open].reverse()) {
      quietly(() => record.span.setAttribute(INCOMPLETE_ATTRIBUTE, true));
      finish(id, timestamp);
    }
    aliases.clear();
    return count;
  }

  return Object.assign((event: AgentEvent) => handle(event), { endOpenSpans });
}
