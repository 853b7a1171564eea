/**
 * The `tools` field of an LLM request, per mode:
 * - PTC-Lisp over `tool_call`: exactly `lisp_eval`; app tools stay in the prompt's inventory and
 *   are reachable only as `(tool/name ...)` inside programs.
 * - PTC-Lisp over `content`: none (the request omits `tools`).
 * - combined (`text` + `tool_call`): tools exposed `"native"`/`"both"`, then `lisp_eval`.
 * - pure text: every tool, natively, whatever its `expose` (exposure is a combined-mode policy).
 */
import {
  type AgentOutput,
  filterByExpose,
  type NativeToolSchema,
  orderedTools,
  type PtcTransport,
  type Tool,
  toNativeToolSchema,
} from "@ptc/tool";
import { type LispEvalToolSchema, toolSchema } from "./lisp-eval-tool.js";

export type RequestTool = NativeToolSchema | LispEvalToolSchema;

export type ToolCollection = readonly Tool[] | Readonly<Record<string, Tool>> | ReadonlyMap<string, Tool>;

export interface RequestToolsDefinition {
  /** Default `"ptc_lisp"`. */
  readonly output?: AgentOutput | undefined;
  /** Default `"content"`. */
  readonly ptcTransport?: PtcTransport | undefined;
  readonly tools?: ToolCollection | undefined;
}

/** `undefined` means "send no `tools` field". */
export function requestTools(definition: RequestToolsDefinition): readonly RequestTool[] | undefined {
  const output = definition.output ?? "ptc_lisp";
  const transport = definition.ptcTransport ?? "content";
  const tools = definition.tools ?? [];
  if (output === "ptc_lisp")
    return transport === "tool_call" ? [toolSchema("in_process_with_app_tools")] : undefined;
  if (transport === "tool_call") {
    const native = filterByExpose(tools, { output, ptcTransport: transport }, ["native", "both"]);
    return [...native.map(toNativeToolSchema), toolSchema("in_process_text_mode")];
  }
  const all = orderedTools(tools);
  return all.length === 0 ? undefined : all.map(toNativeToolSchema);
}
