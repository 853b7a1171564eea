/**
 * A native call of a tool listed beside `lisp_eval` (combined mode over MCP): arguments checked
 * first, then the client's shared cache, then the tool. A cached `expose: "both"` tool answers
 * with its native preview (count and shape, or the first rows), its full result waiting in the
 * cache for a program to read; any other tool answers with its full result.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { buildNativePreview } from "@ptc/agent";
import { canonicalCacheKey, type Tool } from "@ptc/tool";
import { jsonBytes, type SharedToolCache } from "./shared-cache.js";
import { errorResult, valueText } from "./tool-results.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export async function callNativeTool(
  tool: Tool,
  args: Record<string, unknown>,
  cache: SharedToolCache,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const checked = await tool.validate(args);
  if (!checked.ok) {
    return errorResult(
      "args_error",
      `${tool.name} was called with arguments that do not fit: ${checked.message}`,
      `Fix the arguments and call ${tool.name} again${tool.signature === undefined ? "" : `; its signature: ${tool.signature}`}.`,
    );
  }
  const callArgs = isRecord(checked.value) ? checked.value : args;
  try {
    if (!tool.cache) {
      return { content: [{ type: "text", text: valueText(await tool.execute(callArgs, { signal })) }] };
    }
    const key = canonicalCacheKey(tool.name, callArgs);
    let result: unknown;
    let stored = true;
    const hit = cache.get(key);
    if (hit !== undefined) result = hit.result;
    else {
      result = await tool.execute(callArgs, { signal });
      stored = cache.set(key, result);
    }
    if (tool.expose !== "both") return { content: [{ type: "text", text: valueText(result) }] };
    const { preview } = buildNativePreview(tool, result, callArgs, {
      cached: stored,
      ...(stored ? {} : { tooLargeBytes: jsonBytes(result) }),
    });
    return { content: [{ type: "text", text: JSON.stringify(preview) }] };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return errorResult("tool_error", `${tool.name} failed: ${message}`);
  }
}
