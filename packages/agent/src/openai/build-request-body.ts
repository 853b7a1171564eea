/**
 * The JSON body of one Chat Completions call: model, messages, tools, sampling options, the
 * optional structured-output format, then `extraBody`, then the stream flags.
 */
import type { ModelRequest } from "@ptc/agent";
import type { ChatCompletionBody } from "./chat-completion-types.js";
import type { OpenAIModelOptions } from "./openai-model-options.js";
import { toChatMessages } from "./to-chat-messages.js";

export interface RequestBodySettings {
  readonly options: OpenAIModelOptions;
  /** The name of the token limit field, which depends on the server (see `maxTokens`). */
  readonly maxTokensField: "max_tokens" | "max_completion_tokens";
}

export function buildRequestBody(request: ModelRequest, settings: RequestBodySettings): ChatCompletionBody {
  const { options } = settings;
  const body: ChatCompletionBody = {
    model: options.model,
    messages: toChatMessages(request.system, request.messages),
  };
  if (request.tools !== undefined && request.tools.length > 0) body.tools = request.tools;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.maxTokens !== undefined) body[settings.maxTokensField] = options.maxTokens;
  if (options.structuredOutputs === true && request.schema !== undefined) {
    // Non-strict: strict mode rejects common JSON Schema features (optional fields, formats).
    body.response_format = {
      type: "json_schema",
      json_schema: { name: "answer", schema: request.schema, strict: false },
    };
  }
  Object.assign(body, options.extraBody);
  delete body.stream;
  delete body.stream_options;
  if (typeof request.stream === "function") {
    body.stream = true;
    // Without it a streamed response carries no token counts at all.
    body.stream_options = { include_usage: true };
  }
  return body;
}
