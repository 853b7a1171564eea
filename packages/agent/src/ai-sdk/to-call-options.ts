/**
 * Builds the AI SDK V3 call options for one agent request: prompt, native tools, the JSON answer
 * format and the abort signal, plus the fixed settings given to `fromLanguageModel`.
 */
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  SharedV3ProviderOptions,
} from "@ai-sdk/provider";
import type { ModelRequest, RequestToolSchema } from "@ptc/agent";
import { toPrompt } from "./to-prompt.js";

/** Settings sent with every call of the model. */
export interface FromLanguageModelOptions {
  /** Provider-specific options, e.g. `{ anthropic: { cacheControl: { type: "ephemeral" } } }`. */
  readonly providerOptions?: SharedV3ProviderOptions;
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  /** Extra HTTP headers for HTTP-based providers. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
}

export function toCallOptions(
  request: ModelRequest,
  options: FromLanguageModelOptions,
): LanguageModelV3CallOptions {
  const callOptions: LanguageModelV3CallOptions = { prompt: toPrompt(request.system, request.messages) };
  if (request.tools !== undefined && request.tools.length > 0) {
    callOptions.tools = request.tools.map(toFunctionTool);
  }
  if (request.schema !== undefined) {
    callOptions.responseFormat = { type: "json", schema: toJsonSchema(request.schema) };
  }
  if (request.signal !== undefined) callOptions.abortSignal = request.signal;
  if (options.temperature !== undefined) callOptions.temperature = options.temperature;
  if (options.maxOutputTokens !== undefined) callOptions.maxOutputTokens = options.maxOutputTokens;
  if (options.headers !== undefined) callOptions.headers = { ...options.headers };
  if (options.providerOptions !== undefined) callOptions.providerOptions = options.providerOptions;
  return callOptions;
}

function toFunctionTool(tool: RequestToolSchema): LanguageModelV3FunctionTool {
  const { name, description, parameters } = tool.function;
  const functionTool: LanguageModelV3FunctionTool = {
    type: "function",
    name,
    inputSchema: toJsonSchema(parameters),
  };
  if (description !== undefined) functionTool.description = description;
  return functionTool;
}

type JsonSchema = LanguageModelV3FunctionTool["inputSchema"];

/** Our schemas are plain JSON Schema objects already; V3 only types them as `JSONSchema7`. */
function toJsonSchema(schema: Readonly<Record<string, unknown>>): JsonSchema {
  return schema as JsonSchema;
}
