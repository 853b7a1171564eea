/**
 * The contract between the agent loop and a language model: the model is a plain function from a
 * request to a response. Adapters (`@ptc/agent/openai`, `@ptc/agent/ai-sdk`) turn real providers
 * into such functions; `@ptc/agent/testing` scripts one for tests.
 *
 * Nothing here may depend on a provider SDK: the root entry of the package stays dependency-free.
 */

/** One message of the conversation, in the order the model reads them. */
export interface Message {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly content: string;
  /** On assistant messages that called native tools: every call, in order, each with its id. */
  readonly toolCalls?: readonly MessageToolCall[];
  /** On tool messages: the id of the call this message answers. */
  readonly toolCallId?: string;
}

/** A native tool call as kept in the conversation. */
export interface MessageToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as the model sent them: an object, or the raw text when it was not valid JSON. */
  readonly args: Readonly<Record<string, unknown>> | string;
}

/** A native tool call in a model response. */
export interface ModelToolCall {
  /** Providers give one; a missing id is replaced by a synthetic one (`tc_<n>`). */
  readonly id?: string;
  readonly name: string;
  /** An object, or the raw JSON text of the arguments (parsed by the loop). */
  readonly args: Readonly<Record<string, unknown>> | string;
  /** Set by adapters when the arguments could not be parsed, e.g. `Invalid JSON arguments: {"a":`. */
  readonly argsError?: string;
}

/** Token counts a provider reported for one response; missing counts are zero. */
export interface TokenCounts {
  readonly input?: number;
  readonly output?: number;
  readonly cacheCreation?: number;
  readonly cacheRead?: number;
}

/** The object form of a response. */
export interface ModelResponseObject {
  readonly content?: string | null;
  readonly toolCalls?: readonly ModelToolCall[];
  readonly tokens?: TokenCounts;
}

/** A string is the response's text content. */
export type ModelResponse = string | ModelResponseObject;

/** A tool offered to the model natively, in the OpenAI function format. */
export interface RequestToolSchema {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters: Readonly<Record<string, unknown>>;
  };
}

/** A text delta of a streamed response, as the run's `onChunk` receives it. */
export interface StreamChunk {
  readonly delta: string;
}

export interface ModelRequest {
  /** The system prompt of this turn. */
  readonly system: string;
  /** The conversation so far (without the system prompt). */
  readonly messages: readonly Message[];
  /** The 1-based turn number; absent on the single-shot path. */
  readonly turn?: number;
  /** `"ptc_lisp"` for PTC-Lisp loops, `"text"` for text and combined modes. */
  readonly output?: "ptc_lisp" | "text";
  /** Native tools offered this turn (OpenAI function format). */
  readonly tools?: readonly RequestToolSchema[];
  /** PTC-Lisp loops: the names of the tools a program may call this turn. */
  readonly toolNames?: readonly string[];
  /** Text mode without tools: the JSON Schema the answer must follow. */
  readonly schema?: Readonly<Record<string, unknown>>;
  /** The run's prompt-caching hint, passed through untouched. */
  readonly cache?: boolean;
  /** Aborts when the run is cancelled: pass it on to the provider's HTTP call. */
  readonly signal?: AbortSignal;
  /**
   * Present when the run streams (it has `onChunk`): call it with each text delta as it arrives
   * (a string, or `{ delta }`). A model that never calls it still works: its whole text is then
   * delivered as one chunk.
   */
  readonly stream?: (chunk: string | StreamChunk) => void;
}

/** A language model: any function from request to response. Throwing or rejecting is an LLM error. */
export type ModelFunction = (request: ModelRequest) => ModelResponse | Promise<ModelResponse>;

/**
 * What a model function throws to say why it failed, so `llmRetry` can decide. Any error works:
 * a numeric `status` (HTTP) or a string `code` is read when present.
 */
export interface ModelErrorFields {
  /** HTTP status: 429 is `rate_limit`, 5xx `server_error`, other 4xx `client_error`. */
  readonly status?: number;
  /** `"rate_limit"`, `"timeout"`, `"server_error"`, `"client_error"`, or your own. */
  readonly code?: string;
  /** Milliseconds the provider asked to wait before retrying (from `Retry-After`). */
  readonly retryAfterMs?: number;
}
