/**
 * Native app-tool calls of the text modes: the run-wide tool-call budget, unknown names, argument
 * errors, the tool itself, and in combined mode the cache bridge (a `both` + `cache` tool stores
 * its full result and the model reads a preview; a cached entry answers without calling the tool).
 * Each call gets exactly one result string, in call order.
 */
import { renderProtocolError, unknownNativeToolMessage } from "@ptc/protocol";
import { canonicalCacheKey, effectiveExpose, resolveToolName, type Tool } from "@ptc/tool";
import { newSpanId } from "../events/event-sink.js";
import { buildNativePreview } from "../native-preview/index.js";
import type { ToolCallRecord } from "../step/step-types.js";
import { invokeTool } from "../tools/invoke-tool.js";
import { toJsonText } from "./json-text.js";
import type { LoopState, Run } from "./run-types.js";
import type { IdentifiedCall } from "./tool-call-messages.js";

export interface NativeCallResults {
  /** One result per call, in call order. */
  readonly contents: readonly string[];
  readonly records: readonly ToolCallRecord[];
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
  const combined = run.mode === "combined";
  const limit = run.agent.maxToolCalls;
  const allowed = limit === undefined ? calls.length : Math.max(0, limit - state.nativeToolCalls);
  const contents: string[] = [];
  const records: ToolCallRecord[] = [];
  for (const [index, call] of calls.entries()) {
    if (index >= allowed) {
      contents.push(JSON.stringify({ error: `Tool call limit reached (max: ${limit})` }));
      continue;
    }
    // A call that cannot run is still a call the model made: the step records it with its error.
    const rejected = (content: string, error: string) => {
      contents.push(content);
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
      const message = `Tool '${call.name}' not found`;
      rejected(JSON.stringify({ error: message }), message);
      continue;
    }
    const bridged = combined && tool.cache && effectiveExpose(tool, run.agent) === "both";
    contents.push(
      bridged
        ? await bridgedCall(run, state, tool, call, spanId, records)
        : await plainCall(run, state, tool, call, spanId, records),
    );
  }
  state.nativeToolCalls += calls.length;
  return { contents, records };
}

async function plainCall(
  run: Run,
  state: LoopState,
  tool: Tool,
  call: IdentifiedCall,
  spanId: string,
  records: ToolCallRecord[],
): Promise<string> {
  const outcome = await invokeTool(run, state, tool, call.args, {
    layer: "native",
    turn: state.turn,
    parentSpanId: spanId,
  });
  const base = {
    name: tool.name,
    args: call.args,
    durationMs: outcome.durationMs,
    cached: false,
    exposureLayer: "native" as const,
    id: call.id,
    turn: state.turn,
  };
  if (!outcome.ok) {
    records.push({ ...base, error: outcome.message });
    return toolErrorJson(tool.name, call.args, outcome.message);
  }
  const text = toJsonText(outcome.value);
  if (!text.ok) {
    records.push({ ...base, error: text.error });
    return toolErrorJson(tool.name, call.args, text.error);
  }
  records.push({ ...base, result: outcome.value });
  return text.text;
}

function toolErrorJson(name: string, args: unknown, message: string): string {
  return JSON.stringify({ error: message, tool: name, args_received: args, hint: null });
}

async function bridgedCall(
  run: Run,
  state: LoopState,
  tool: Tool,
  call: IdentifiedCall,
  spanId: string,
  records: ToolCallRecord[],
): Promise<string> {
  const key = canonicalCacheKey(tool.name, call.args);
  const hit = state.toolCache.get(key);
  if (hit !== undefined) {
    const toolSpan = newSpanId();
    run.events.emit(toolSpan, spanId, {
      type: "tool-call-start",
      toolName: tool.name,
      exposureLayer: "native",
      turn: state.turn,
    });
    run.events.emit(toolSpan, spanId, {
      type: "tool-call-end",
      toolName: tool.name,
      exposureLayer: "native",
      cached: true,
      error: false,
      durationMs: 0,
      turn: state.turn,
    });
    records.push({
      name: tool.name,
      args: call.args,
      result: hit.result,
      durationMs: 0,
      cached: true,
      exposureLayer: "native",
      id: call.id,
      turn: state.turn,
    });
    return preview(run, tool, hit.result, call.args, { cached: true });
  }
  const outcome = await invokeTool(run, state, tool, call.args, {
    layer: "native",
    turn: state.turn,
    parentSpanId: spanId,
  });
  const base = {
    name: tool.name,
    args: call.args,
    durationMs: outcome.durationMs,
    cached: false,
    exposureLayer: "native" as const,
    id: call.id,
    turn: state.turn,
  };
  if (!outcome.ok) {
    records.push({ ...base, error: outcome.message });
    return toolErrorJson(tool.name, call.args, outcome.message);
  }
  records.push({ ...base, result: outcome.value });
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

function preview(
  run: Run,
  tool: Tool,
  result: unknown,
  args: unknown,
  options: { cached: boolean; tooLargeBytes?: number; limitBytes?: number },
): string {
  const built = buildNativePreview(tool, result, args, options);
  if (built.fallback !== undefined) {
    const reason = built.error instanceof Error ? `: ${built.error.message}` : "";
    run.events.emit(newSpanId(), run.spanId, {
      type: "native-preview-fallback",
      toolName: tool.name,
      category: built.fallback,
      message: `custom nativeResult preview for tool "${tool.name}" fell back to metadata (${built.fallback})${reason}`,
    });
  }
  return JSON.stringify(built.preview);
}
