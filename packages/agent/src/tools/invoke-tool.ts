/**
 * Calls one app tool for a run, whichever layer asked (a native call or a program): passes the
 * run's signal, enforces the tool's timeout, runs agent tools as child agents, and reports the
 * call as `tool-call-start`/`tool-call-end` events. Never throws: a tool's failure comes back as
 * a value, with a message the model can act on.
 *
 * The arguments must already be checked and parsed by `tool.validate` (a native call through
 * `checkToolArguments`, a program's call by @ptc/lisp before it reaches the agent's tool): this
 * module never sees a call the tool's schema or signature rejects. Each call subscribes to the
 * run's abort watch and the program's, and unsubscribes when it ends, so no call leaves a
 * listener behind on a signal it shares with other calls.
 */
import type { Tool } from "@ptc/tool";
import { type LongTimer, startTimer } from "../clock/long-timer.js";
import { errorMessage } from "../error-message.js";
import { newSpanId } from "../events/event-sink.js";
import { exceedsTree, MAX_TREE_CHARS, MAX_TREE_NODES } from "../json/tree-size.js";
import type { ChildCall, LoopState, Run } from "../loop/run-types.js";
import type { AbortWatch } from "../model/abort-watch.js";
import type { ExposureLayer } from "../step/step-types.js";
import { nestedToolOf } from "./nested-tools.js";

export type ToolOutcome =
  | { readonly ok: true; readonly value: unknown; readonly durationMs: number }
  | { readonly ok: false; readonly error: unknown; readonly message: string; readonly durationMs: number };

/** Raised when a tool overruns its time; its message is what the model sees. */
export class ToolTimeoutError extends Error {
  override readonly name = "ToolTimeoutError";
}

/** Reports a call answered from the run's cache: a start and an end with `cached: true`, no tool run. */
export function reportCacheHit(
  run: Run,
  parentSpanId: string,
  toolName: string,
  layer: ExposureLayer,
  turn: number | undefined,
): void {
  const spanId = newSpanId();
  run.events.emit(spanId, parentSpanId, { type: "tool-call-start", toolName, exposureLayer: layer, turn });
  run.events.emit(spanId, parentSpanId, {
    type: "tool-call-end",
    toolName,
    exposureLayer: layer,
    cached: true,
    error: false,
    durationMs: 0,
    turn,
  });
}

const now = (): number => (typeof performance !== "undefined" ? performance.now() : Date.now());

export interface InvokeOptions {
  readonly layer: ExposureLayer;
  readonly turn: number | undefined;
  /** Span of the turn (or program) this call belongs to. */
  readonly parentSpanId: string;
  /** Ends the call like the run's signal does (the program that made the call has ended). */
  readonly stop?: AbortWatch;
  /** The approval this call runs under, handed to the tool as an idempotency key. */
  readonly approvalId?: string;
}

export async function invokeTool(
  run: Run,
  state: LoopState,
  tool: Tool,
  args: Readonly<Record<string, unknown>>,
  options: InvokeOptions,
): Promise<ToolOutcome> {
  const spanId = newSpanId();
  const { events } = run;
  events.emit(spanId, options.parentSpanId, {
    type: "tool-call-start",
    toolName: tool.name,
    exposureLayer: options.layer,
    turn: options.turn,
    ...(events.payloads ? { args } : {}),
  });
  const started = now();
  const outcome = measured(
    tool,
    await execute(run, state, { tool, args, spanId, stop: options.stop }, options.approvalId),
  );
  const durationMs = now() - started;
  events.emit(spanId, options.parentSpanId, {
    type: "tool-call-end",
    toolName: tool.name,
    exposureLayer: options.layer,
    cached: false,
    error: !outcome.ok,
    durationMs,
    turn: options.turn,
    ...(outcome.ok ? {} : { errorMessage: outcome.message }),
    ...(events.payloads ? { args, ...(outcome.ok ? { result: outcome.value } : {}) } : {}),
  });
  return { ...outcome, durationMs };
}

type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown; readonly message: string };

/**
 * A result too large as a tree (shared structure: json/tree-size.ts) becomes the call's error
 * here, before anything walks it: the conversion for a program, the JSON for the model, the
 * cache's byte count, an event listener's `JSON.stringify`.
 */
function measured(tool: Tool, outcome: Outcome): Outcome {
  if (!outcome.ok || !exceedsTree(outcome.value)) return outcome;
  const message =
    `tool "${tool.name}" returned a value too large to hand on: more than ${MAX_TREE_NODES} nodes ` +
    `or ${MAX_TREE_CHARS} characters of text written out in full (a value shared by several ` +
    "fields counts once per path, so an object whose two fields are the same object, nested n " +
    "times, has 2^n leaves); call it for less data, or make the tool return only the parts needed";
  return { ok: false, error: new Error(message), message };
}

async function execute(
  run: Run,
  state: LoopState,
  { tool, args, spanId, stop }: Omit<ChildCall, "nested" | "state">,
  approvalId: string | undefined,
): Promise<Outcome> {
  if (run.abort.aborted) {
    return { ok: false, error: run.abort.reason, message: "the run was aborted before the tool ran" };
  }
  if (stop?.aborted === true) {
    return { ok: false, error: stop.reason, message: "the program ended before the tool ran" };
  }
  const nested = nestedToolOf(tool);
  if (nested !== undefined) {
    const child = await run.runChild({ nested, tool, args, state, spanId, stop });
    return child.ok
      ? { ok: true, value: child.value }
      : { ok: false, error: child.message, message: child.message };
  }
  const timeoutMs = tool.timeoutMs ?? run.toolTimeoutMs;
  const controller = new AbortController();
  const abortCall = (reason: unknown) => controller.abort(reason);
  const unsubscribes = [
    run.abort.onAbort(abortCall),
    ...(stop === undefined ? [] : [stop.onAbort(abortCall)]),
  ];
  let onCallAbort: (() => void) | undefined;
  let timer: LongTimer | undefined;
  let deadlineTimer: LongTimer | undefined;
  try {
    const executeOptions =
      approvalId === undefined ? { signal: controller.signal } : { signal: controller.signal, approvalId };
    const call = Promise.resolve().then(() => tool.execute({ ...args }, executeOptions));
    // When a timeout or an abort wins the race, the tool's own late failure must not go unhandled.
    call.catch(() => undefined);
    const racers: Promise<unknown>[] = [call];
    if (timeoutMs !== undefined) {
      racers.push(
        new Promise((_, reject) => {
          timer = startTimer(() => {
            const error = new ToolTimeoutError(
              `tool "${tool.name}" timed out after ${timeoutMs} ms; try narrower arguments or a different approach`,
            );
            controller.abort(error);
            reject(error);
          }, timeoutMs);
        }),
      );
    }
    // The mission deadline bounds a tool without a timeout of its own too (else a hung tool hangs the run).
    const deadline = run.deadline;
    if (deadline !== undefined) {
      racers.push(
        new Promise((_, reject) => {
          deadlineTimer = startTimer(
            () => {
              const error = new ToolTimeoutError(
                `tool "${tool.name}" was stopped: the mission timeout was reached`,
              );
              controller.abort(error);
              reject(error);
            },
            Math.max(0, deadline - Date.now()),
          );
        }),
      );
    }
    if (run.signal !== undefined || stop !== undefined) {
      racers.push(
        new Promise((_, reject) => {
          onCallAbort = () => reject(controller.signal.reason);
          controller.signal.addEventListener("abort", onCallAbort, { once: true });
        }),
      );
    }
    const value = await (racers.length === 1 ? call : Promise.race(racers));
    return { ok: true, value: value === undefined ? null : value };
  } catch (error) {
    return { ok: false, error, message: errorMessage(error) };
  } finally {
    timer?.clear();
    deadlineTimer?.clear();
    for (const unsubscribe of unsubscribes) unsubscribe();
    if (onCallAbort !== undefined) controller.signal.removeEventListener("abort", onCallAbort);
  }
}
