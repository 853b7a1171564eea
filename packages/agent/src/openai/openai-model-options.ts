/**
 * The options of `createOpenAIModel`. Every field is optional except `model`, so the adapter can
 * point at OpenAI or at any server that speaks Chat Completions (Ollama, vLLM, LM Studio).
 */

/** The slice of the platform `fetch` the adapter uses; the global `fetch` fits. */
export type OpenAIFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface OpenAIModelOptions {
  /** The model id, sent as `model` (e.g. `"gpt-4.1-mini"`, `"llama3.1"`). */
  readonly model: string;
  /** Defaults to `OPENAI_API_KEY`. Only OpenAI's own endpoint requires one. */
  readonly apiKey?: string | undefined;
  /**
   * The API root including `/v1`; requests go to `${baseURL}/chat/completions`. Defaults to
   * `OPENAI_BASE_URL`, then `https://api.openai.com/v1`. A trailing slash is fine.
   */
  readonly baseURL?: string | undefined;
  /** Replaces the global `fetch` (proxies, instrumentation, tests). */
  readonly fetch?: OpenAIFetch | undefined;
  /** Extra request headers; they win over the adapter's own, compared case-insensitively. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Sent as the `OpenAI-Organization` header. */
  readonly organization?: string | undefined;
  readonly temperature?: number | undefined;
  /**
   * The completion token limit: `max_completion_tokens` on api.openai.com (reasoning models reject
   * `max_tokens` there), `max_tokens` elsewhere (what compatible servers understand).
   */
  readonly maxTokens?: number | undefined;
  /**
   * Fields merged into every request body last, so they can override the adapter's own (e.g.
   * `reasoning_effort`, `seed`, `parallel_tool_calls`). `stream` and `stream_options` are the
   * exception: they always follow `request.stream`, because the response parser depends on them.
   */
  readonly extraBody?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Send `request.schema` as `response_format: json_schema` (non-strict). Off by default: not
   * every model or server supports it, and the agent loop validates the answer anyway.
   */
  readonly structuredOutputs?: boolean | undefined;
  /**
   * Milliseconds the whole call (including a streamed body) may take; no limit by default, and
   * `Infinity` is none either.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Bytes of a response body read before the call fails with `invalid_response`, streamed or
   * not; default 64 MiB. A completion is far smaller: this bounds the memory a broken or hostile
   * server (or a proxy's endless page) can make the adapter hold. `Infinity` is no limit.
   */
  readonly maxResponseBytes?: number | undefined;
}
