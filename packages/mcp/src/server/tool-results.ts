/**
 * MCP results for what is not a program's outcome: errors of the server itself (an unknown tool,
 * bad arguments to a native tool) in the same `{status: "error", reason, message, feedback}`
 * shape as `lisp_eval`'s, so a model reads every error the same way.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export function errorPayload(reason: string, message: string, feedback = message): string {
  return JSON.stringify({ status: "error", reason, message, feedback });
}

export function errorResult(reason: string, message: string, feedback = message): CallToolResult {
  return { content: [{ type: "text", text: errorPayload(reason, message, feedback) }], isError: true };
}

export function unknownToolResult(name: string, known: readonly string[]): CallToolResult {
  return errorResult(
    "unknown_tool",
    name === "" ? "unknown tool: the tool name is missing" : `unknown tool: ${name}`,
    `This server's tools are: ${known.join(", ")}. Call one of them; to call a tool that programs use, write (tool/name {...}) inside a lisp_eval program.`,
  );
}

/** A tool's value as MCP text content: strings as they are, anything else as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "null";
  } catch (error) {
    return `the tool's result cannot be written as JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
}
