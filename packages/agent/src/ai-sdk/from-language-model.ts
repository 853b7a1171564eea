/**
 * `fromLanguageModel`: wraps any AI SDK V3 language model (`@ai-sdk/openai`, `@ai-sdk/anthropic`,
 * a gateway model...) as the agent's `ModelFunction`. Requests that stream use `doStream`, the
 * others `doGenerate`. Every failure is thrown as a `ModelCallError` (see `to-model-call-error.ts`
 * for the mapping) except errors thrown by the run's own `stream` callback, which are the caller's.
 *
 * It talks to the model only through the V3 interface and imports `@ai-sdk/provider` for types
 * alone, so the optional peer is never loaded at run time.
 */
import type {
  LanguageModelV3,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import type { ModelFunction, ModelRequest, ModelResponseObject, ModelToolCall } from "@ptc/agent";
import { ModelCallError } from "@ptc/agent";
import { readStream } from "./read-stream.js";
import { type FromLanguageModelOptions, toCallOptions } from "./to-call-options.js";
import { toModelCallError } from "./to-model-call-error.js";
import { toTokenCounts } from "./to-token-counts.js";
import { toToolCall } from "./to-tool-call.js";
import { untilAborted } from "./until-aborted.js";

export function fromLanguageModel(
  model: LanguageModelV3,
  options: FromLanguageModelOptions = {},
): ModelFunction {
  return (request) =>
    request.stream === undefined ? generate(model, request, options) : stream(model, request, options);
}

async function generate(
  model: LanguageModelV3,
  request: ModelRequest,
  options: FromLanguageModelOptions,
): Promise<ModelResponseObject> {
  let result: LanguageModelV3GenerateResult;
  try {
    result = await untilAborted(model.doGenerate(toCallOptions(request, options)), request.signal);
  } catch (error) {
    throw toModelCallError(error, request.signal);
  }
  // A hand-written model may return anything; what is not V3's shape is the model's error.
  const content: unknown = result?.content;
  if (!Array.isArray(content)) {
    throw new ModelCallError("invalid_response", "The model's doGenerate result has no content array");
  }
  let text: string | null = null;
  const toolCalls: ModelToolCall[] = [];
  for (const part of content as LanguageModelV3GenerateResult["content"]) {
    if (typeof part !== "object" || part === null) continue;
    if (part.type === "text") text = (text ?? "") + part.text;
    // Calls the provider ran itself (web search and the like) are not the loop's to run.
    else if (part.type === "tool-call" && part.providerExecuted !== true) {
      toolCalls.push(toToolCall(part.toolCallId, part.toolName, part.input));
    }
  }
  const tokens = toTokenCounts(result?.usage);
  return {
    content: text,
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(tokens === undefined ? {} : { tokens }),
  };
}

async function stream(
  model: LanguageModelV3,
  request: ModelRequest,
  options: FromLanguageModelOptions,
): Promise<ModelResponseObject> {
  const onChunk = request.stream;
  let result: { readonly stream?: unknown } | null | undefined;
  try {
    result = await untilAborted(model.doStream(toCallOptions(request, options)), request.signal);
  } catch (error) {
    throw toModelCallError(error, request.signal);
  }
  const parts = result?.stream;
  // Not `instanceof`: a stream of another realm or a polyfill is a stream too.
  if (typeof (parts as { getReader?: unknown } | undefined)?.getReader !== "function") {
    throw new ModelCallError(
      "invalid_response",
      "The model's doStream result has no ReadableStream `stream`",
    );
  }
  return readStream(parts as ReadableStream<LanguageModelV3StreamPart>, {
    signal: request.signal,
    onText: (delta) => onChunk?.(delta),
  });
}
