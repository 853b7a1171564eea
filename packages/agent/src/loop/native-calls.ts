/**
 * Native app-tool calls of the text modes: the run-wide tool-call budget, unknown names, argument
 * errors (text that is not a JSON object, then arguments the tool's schema or signature rejects),
 * the tool itself, and in combined mode the cache bridge (a `both` + `cache` tool stores its full
 * result and the model reads a preview; a cached entry answers without calling the tool). A call
 * is checked before the cache is read, so arguments that do not fit are never answered from it
 * nor stored in it. Each call gets exactly one result string, in call order.
 */
import { renderProtocolError, unknownNativeToolMessage } from "@ptc/protocol";
import { canonicalCacheKey, effectiveExpose, resolveToolName, type Tool } from "@ptc/tool";
import { callNeedsApproval, hasApprovalPolicy, unpausableMessage } from "../approvals/approval-policy.js";
import {
  type AnsweredCall,
  type HeldCall,
  rejectionText,
  type TurnPause,
  type WaitingCall,
} from "../approvals/paused-turn.js";
import { errorMessage } from "../error-message.js";
import { newSpanId } from "../events/event-sink.js";
import { argsReceived, quotedName } from "../json/quoted-back.js";
import { buildNativePreview } from "../native-preview/index.js";
import type { ToolCallRecord } from "../step/step-types.js";
import { invokeTool, reportCacheHit } from "../tools/invoke-tool.js";
import { checkToolArguments, invalidArgumentsJson } from "../tools/tool-arguments.js";
import { interruptible, interruption } from "./call-model.js";
import { toJsonText } from "./json-text.js";
import type { LoopState, Run } from "./run-types.js";
import type { IdentifiedCall } from "./tool-call-messages.js";

export interface NativeCallResults {
  /** One result per call, in call order. */
  readonly contents: readonly string[];
  readonly records: readonly ToolCallRecord[];
  /**
   * Set when calls need approval: the turn cannot be answered yet. The calls that could run ran
   * (their answers are kept here); the held ones wait for a decision.
   */
  readonly pause?: TurnPause & { readonly layer: "native" };
}

function resolveTool(run: Run, name: string): Tool | undefined {
  return run.tools.get(name) ?? resolveToolName(name, run.tools.values());
}

export async function executeNativeCalls(
  run: Run,
  state: LoopState,
  calls: readonly IdentifiedCall[],
  spanId: string,
): Promise<NativeCallResults> {
  const combined = run.mode.name === "combined";
  const limit = run.agent.maxToolCalls;
  const allowed = limit === undefined ? calls.length : Math.max(0, limit - state.nativeToolCalls);
  // A resumed turn: the calls answered before the pause, and the decisions on the held ones (used once).
  const resumed = state.resumed?.layer === "native" ? state.resumed : undefined;
  state.resumed = undefined;
  const contents: string[] = [];
  const records: ToolCallRecord[] = [];
  const answered: (AnsweredCall | null)[] = [];
  const held: HeldCall[] = [];
  for (const [index, call] of calls.entries()) {
    const recordsBefore = records.length;
    const answer = (content: string) => {
      contents.push(content);
      answered.push({ content, records: records.slice(recordsBefore) });
    };
    const earlier = resumed?.answered[index];
    if (earlier !== undefined && earlier !== null) {
      records.push(...earlier.records);
      answer(earlier.content);
      continue;
    }
    const decided = resumed?.decisions.get(index);
    if (decided !== undefined) {
      answer(
        await decidedCall(run, state, {
          call,
          waiting: decided.call,
          decision: decided.decision,
          spanId,
          records,
          combined,
        }),
      );
      continue;
    }
    if (index >= allowed) {
      answer(JSON.stringify({ error: `Tool call limit reached (max: ${limit})` }));
      continue;
    }
    // A call that cannot run is still a call the model made: the step records it with its error.
    const rejected = (content: string, error: string) => {
      records.push({
        name: call.name,
        args: call.args,
        error,
        durationMs: 0,
        cached: false,
        exposureLayer: "native",
        id: call.id,
        turn: state.turn,
      });
      answer(content);
    };
    const tool = resolveTool(run, call.name);
    const hidden = tool !== undefined && combined && effectiveExpose(tool, run.agent) === "ptc_lisp";
    if (combined && (tool === undefined || hidden)) {
      const message = unknownNativeToolMessage(call.name, { combined: true });
      rejected(renderProtocolError("unknown_tool", message, { includeFeedback: false }), message);
      continue;
    }
    if (call.argsError !== undefined) {
      rejected(JSON.stringify({ error: call.argsError }), call.argsError);
      continue;
    }
    if (tool === undefined) {
      const message = `Tool '${quotedName(call.name)}' not found`;
      rejected(JSON.stringify({ error: message }), message);
      continue;
    }
    // The check and the approval policy are the host's code and may never settle: the run's
    // signal and mission deadline end these waits as they end the tool itself.
    const checked = await untilStopped(run, checkToolArguments(tool, call.args));
    if (checked === "aborted" || checked === "mission_timeout") {
      const message = stoppedMessage(checked);
      rejected(toolErrorJson(tool.name, call.args, message), message);
      continue;
    }
    if (!checked.ok) {
      if (checked.kind === "invalid") {
        rejected(
          invalidArgumentsJson(tool, call.args, checked.message),
          `invalid arguments: ${checked.message}`,
        );
      } else {
        rejected(toolErrorJson(tool.name, call.args, checked.message), checked.message);
      }
      continue;
    }
    const bridged = combined && tool.cache && effectiveExpose(tool, run.agent) === "both";
    const gated = await untilStopped(run, needsApproval(run, state, tool, checked.args, bridged));
    if (gated === "aborted" || gated === "mission_timeout") {
      const message = stoppedMessage(gated);
      rejected(toolErrorJson(tool.name, call.args, message), message);
      continue;
    }
    if (gated) {
      if (!run.pausable) {
        const message = unpausableMessage(tool.name);
        rejected(toolErrorJson(tool.name, call.args, message), message);
        continue;
      }
      held.push({ toolName: tool.name, args: checked.args, layer: "native", index });
      contents.push("");
      answered.push(null);
      continue;
    }
    answer(await nativeCall(run, state, { tool, call, args: checked.args, spanId, records, bridged }));
  }
  if (held.length > 0) return { contents, records, pause: { layer: "native", answered, held } };
  state.nativeToolCalls += calls.length;
  return { contents, records };
}

/**
 * A wait on host code before a call runs, cut short when the run is aborted or its mission
 * deadline passes (the waits themselves never reject: both checks catch what the host throws).
 */
async function untilStopped<T>(run: Run, wait: Promise<T>): Promise<T | "aborted" | "mission_timeout"> {
  try {
    return await interruptible(run, wait);
  } catch (error) {
    const stopped = interruption(error);
    if (stopped === undefined) throw error;
    return stopped.kind;
  }
}

function stoppedMessage(kind: "aborted" | "mission_timeout"): string {
  return kind === "aborted"
    ? "the run was aborted before the tool ran"
    : "the mission timeout was reached before the tool ran";
}

/** Whether a native call must wait for a person; a call the bridged cache answers runs no tool. */
async function needsApproval(
  run: Run,
  state: LoopState,
  tool: Tool,
  args: Readonly<Record<string, unknown>>,
  bridged: boolean,
): Promise<boolean> {
  if (!hasApprovalPolicy(tool)) return false;
  if (bridged && state.toolCache.has(canonicalCacheKey(tool.name, args))) return false;
  return callNeedsApproval(tool, args, {
    toolName: tool.name,
    layer: "native",
    turn: state.turn,
    context: run.context,
    agentName: run.agent.name,
  });
}

/** A held call after `resume`: run it (approved, with the arguments it was held with) or refuse it. */
async function decidedCall(
  run: Run,
  state: LoopState,
  decided: {
    readonly call: IdentifiedCall;
    readonly waiting: WaitingCall;
    readonly decision: { readonly approved: true } | { readonly approved: false; readonly message: string };
    readonly spanId: string;
    /** The turn's records, appended to. */
    readonly records: ToolCallRecord[];
    readonly combined: boolean;
  },
): Promise<string> {
  const { call, waiting, decision, spanId, records, combined } = decided;
  const tool = run.tools.get(waiting.toolName);
  if (!decision.approved || tool === undefined) {
    const message = rejectionText(decision.approved ? "the tool is gone" : decision.message);
    records.push({
      name: waiting.toolName,
      args: waiting.args,
      error: message,
      durationMs: 0,
      cached: false,
      exposureLayer: "native",
      id: call.id,
      turn: state.turn,
      approval: "rejected",
    });
    return toolErrorJson(waiting.toolName, call.args, message);
  }
  const bridged = combined && tool.cache && effectiveExpose(tool, run.agent) === "both";
  const before = records.length;
  const content = await nativeCall(run, state, {
    tool,
    call,
    args: waiting.args,
    spanId,
    records,
    bridged,
    approvalId: waiting.id,
  });
  for (let index = before; index < records.length; index++) {
    records[index] = { ...(records[index] as ToolCallRecord), approval: "approved" };
  }
  return content;
}

/**
 * One native call, with `args` as its check returned them. A bridged call (combined mode,
 * `expose: "both"`, `cache: true`) is answered from the cache when it can be, stores a fresh
 * result, and shows the model a preview; any other call shows the result itself as JSON.
 */
async function nativeCall(
  run: Run,
  state: LoopState,
  native: {
    readonly tool: Tool;
    readonly call: IdentifiedCall;
    readonly args: Readonly<Record<string, unknown>>;
    readonly spanId: string;
    /** The turn's records, appended to. */
    readonly records: ToolCallRecord[];
    readonly bridged: boolean;
    /** Set when a person approved this call: the tool receives it as an idempotency key. */
    readonly approvalId?: string;
  },
): Promise<string> {
  const { tool, call, args, spanId, records, bridged, approvalId } = native;
  const record = (fields: { result: unknown } | { error: string }, durationMs: number, cached = false) =>
    records.push({
      name: tool.name,
      args,
      ...fields,
      durationMs,
      cached,
      exposureLayer: "native",
      id: call.id,
      turn: state.turn,
    });
  // Keyed by the checked arguments: two calls that a schema reads the same way are the same call.
  const key = bridged ? canonicalCacheKey(tool.name, args) : undefined;
  const hit = key === undefined ? undefined : state.toolCache.get(key);
  if (hit !== undefined) {
    reportCacheHit(run, spanId, tool.name, "native", state.turn);
    record({ result: hit.result }, 0, true);
    return preview(run, tool, hit.result, call.args, { cached: true });
  }
  const outcome = await invokeTool(run, state, tool, args, {
    layer: "native",
    turn: state.turn,
    parentSpanId: spanId,
    ...(approvalId === undefined ? {} : { approvalId }),
  });
  if (!outcome.ok) {
    record({ error: outcome.message }, outcome.durationMs);
    return toolErrorJson(tool.name, call.args, outcome.message);
  }
  if (key !== undefined) {
    record({ result: outcome.value }, outcome.durationMs);
    const write = state.toolCache.set(key, outcome.value, tool.maxCachedBytes);
    return preview(
      run,
      tool,
      outcome.value,
      call.args,
      write.stored
        ? { cached: true }
        : { cached: false, tooLargeBytes: write.sizeBytes, limitBytes: write.limitBytes },
    );
  }
  const text = toJsonText(outcome.value);
  if (!text.ok) {
    record({ error: text.error }, outcome.durationMs);
    return toolErrorJson(tool.name, call.args, text.error);
  }
  record({ result: outcome.value }, outcome.durationMs);
  return text.text;
}

function toolErrorJson(name: string, args: unknown, message: string): string {
  return JSON.stringify({ error: message, tool: name, args_received: argsReceived(args), hint: null });
}

function preview(
  run: Run,
  tool: Tool,
  result: unknown,
  args: unknown,
  options: { cached: boolean; tooLargeBytes?: number; limitBytes?: number },
): string {
  const built = buildNativePreview(tool, result, args, options);
  if (built.fallback !== undefined) {
    const reason = built.error === undefined ? "" : `: ${errorMessage(built.error)}`;
    run.events.emit(newSpanId(), run.spanId, {
      type: "native-preview-fallback",
      toolName: tool.name,
      category: built.fallback,
      message: `custom nativeResult preview for tool "${tool.name}" fell back to metadata (${built.fallback})${reason}`,
    });
  }
  return JSON.stringify(built.preview);
}
