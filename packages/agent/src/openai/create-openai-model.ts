/**
 * `createOpenAIModel`: a `ModelFunction` that speaks OpenAI Chat Completions over the platform
 * `fetch`, so it works with OpenAI and with compatible servers (Ollama, vLLM, LM Studio) without
 * an SDK. It must never put the API key in an error: every provider text passes a redactor.
 */

import type { ModelRequest, ModelResponseObject } from "@ptc/agent";
import { AgentError, ModelCallError } from "@ptc/agent";
import { buildHeaders } from "./build-headers.js";
import { buildRequestBody } from "./build-request-body.js";
import { createCallGuard } from "./call-guard.js";
import type { OpenAIModelOptions } from "./openai-model-options.js";
import { parseCompletion } from "./parse-completion.js";
import { readBodyText } from "./read-body-text.js";
import { readCompletionStream } from "./read-completion-stream.js";
import { createRedactor } from "./redact-secret.js";
import { resolveEndpoint } from "./resolve-endpoint.js";
import { DEFAULT_MAX_RESPONSE_BYTES, ERROR_BODY_BYTES } from "./response-limit.js";
import { toHttpError } from "./to-http-error.js";

/**
 * Creates a model function for the agent loop. Failures reject with a `ModelCallError` whose
 * `code` is `rate_limit`, `server_error`, `client_error`, `timeout`, `network_error`,
 * `invalid_response` or `aborted` (the request's signal fired).
 */
export function createOpenAIModel(
  options: OpenAIModelOptions,
): (request: ModelRequest) => Promise<ModelResponseObject> {
  validateOptions(options);
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async (request) => {
    const endpoint = resolveEndpoint(options);
    const redact = createRedactor(endpoint.apiKey);
    const onDelta = request.stream;
    const streaming = typeof onDelta === "function";
    const body = buildRequestBody(request, {
      options,
      maxTokensField: endpoint.isOpenAI ? "max_completion_tokens" : "max_tokens",
    });
    const headers = buildHeaders({
      apiKey: endpoint.apiKey,
      organization: options.organization,
      headers: options.headers,
      streaming,
    });
    const call = createCallGuard({ signal: request.signal, timeoutMs: options.timeoutMs, redact });
    // Resolved per call so tests and proxies installed after creation are honoured.
    const fetchFunction = options.fetch ?? globalThis.fetch;
    try {
      const response = await call.guard(
        fetchFunction(endpoint.url, {
          method: "POST",
          headers,
          body: JSON.stringify(body),
          signal: call.signal ?? null,
        }),
      );
      if (!response.ok) {
        const text = await readBodyText(response, {
          maxBytes: ERROR_BODY_BYTES,
          past: "keep",
          guard: call.guard,
        });
        throw toHttpError(response, text, redact, endpoint.url);
      }
      // A server that ignores `stream: true` answers with plain JSON; the loop then gets the
      // whole text as one chunk, as the model contract allows. Anything else is read as events,
      // since some servers stream without a `text/event-stream` content type.
      const isJson = response.headers.get("content-type")?.includes("application/json") ?? false;
      if (streaming && !isJson) {
        if (response.body === null) {
          throw new ModelCallError("invalid_response", "OpenAI streamed response has no body");
        }
        return await readCompletionStream(response.body, { onDelta, guard: call.guard, redact, maxBytes });
      }
      return parseCompletion(
        await readBodyText(response, { maxBytes, past: "fail", guard: call.guard }),
        redact,
      );
    } finally {
      call.dispose();
    }
  };
}

/** A misconfigured model fails where it is created, not on the first turn of a run. */
function validateOptions(options: OpenAIModelOptions): void {
  if (typeof options?.model !== "string" || options.model.trim() === "") {
    throw new AgentError(
      "PTC_AGENT_INVALID_OPTION",
      'createOpenAIModel: `model` must be a non-empty string, e.g. { model: "gpt-4.1-mini" }',
      { details: { option: "model" } },
    );
  }
  const { timeoutMs, maxResponseBytes } = options;
  // Infinity is no limit, as for the agent's own timeouts.
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) {
    throw new AgentError(
      "PTC_AGENT_INVALID_OPTION",
      `createOpenAIModel: \`timeoutMs\` must be a positive number of milliseconds, got ${String(timeoutMs)}`,
      { details: { option: "timeoutMs" } },
    );
  }
  if (maxResponseBytes !== undefined && !(typeof maxResponseBytes === "number" && maxResponseBytes > 0)) {
    throw new AgentError(
      "PTC_AGENT_INVALID_OPTION",
      `createOpenAIModel: \`maxResponseBytes\` must be a positive number of bytes, got ${String(maxResponseBytes)}`,
      { details: { option: "maxResponseBytes" } },
    );
  }
}
