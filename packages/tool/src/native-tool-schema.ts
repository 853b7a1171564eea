/**
 * Provider-native tool definitions (OpenAI function format) for tools the model calls directly.
 * Names lose their hyphens because providers accept only `[a-zA-Z0-9_]`; `resolveToolName` maps a
 * called name back to the tool.
 */
import type { JsonSchema } from "./signature/json-schema.js";
import type { Tool } from "./tool-types.js";

export interface NativeToolSchema {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters: JsonSchema;
  };
}

/** `grep-n` -> `grep_n`. */
export function sanitizeToolName(name: string): string {
  return name.replaceAll("-", "_");
}

export function toNativeToolSchema(
  tool: Pick<Tool, "name" | "description" | "parametersJsonSchema">,
): NativeToolSchema {
  return {
    type: "function",
    function: {
      name: sanitizeToolName(tool.name),
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.parametersJsonSchema,
    },
  };
}

/**
 * The tool a provider-native call names: an exact name first, else the tool whose sanitized name
 * matches (the model only ever saw sanitized names).
 */
export function resolveToolName<T extends { readonly name: string }>(
  calledName: string,
  tools: Iterable<T>,
): T | undefined {
  let sanitizedMatch: T | undefined;
  for (const tool of tools) {
    if (tool.name === calledName) return tool;
    if (sanitizedMatch === undefined && sanitizeToolName(tool.name) === calledName) sanitizedMatch = tool;
  }
  return sanitizedMatch;
}
