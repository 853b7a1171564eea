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
import { newSpanId } from "../events/event-sink.js";
import { buildNativePreview } from "../native-preview/index.js";
import type { ToolCallRecord } from "../step/step-types.js";
import { invokeTool, reportCacheHit } from "../tools/invoke-tool.js";
import { checkToolArguments, invalidArgumentsJson } from "../tools/tool-arguments.js";
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
    const checked = await checkToolArguments(tool, call.args);
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
    contents.push(await nativeCall(run, state, tool, call, checked.args, spanId, records, bridged));
  }
  state.nativeToolCalls += calls.length;
  return { contents, records };
}

/**
 * One native call, with `args` as its check returned them. A bridged call (combined mode,
 * `expose: "both"`, `cache: true`) is answered from the cache when it can be, stores a fresh
 * result, and shows the model a preview; any other call shows the result itself as JSON.
 */
async function nativeCall(
  run: Run,
  state: LoopState,
  tool: Tool,
  call: IdentifiedCall,
  args: Readonly<Record<string, unknown>>,
  spanId: string,
  records: ToolCallRecord[],
  bridged: boolean,
): Promise<string> {
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
  return JSON.stringify({ error: message, tool: name, args_received: args, hint: null });
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
