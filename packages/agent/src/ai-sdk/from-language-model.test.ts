import {
  APICallError,
  type LanguageModelV3Content,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3StreamPart,
  type LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ModelCallError } from "../model/model-error.js";
import type { ModelRequest, ModelResponse, StreamChunk } from "../model/model-types.js";
import { fromLanguageModel } from "./index.js";

function usage(
  input: number | undefined,
  output: number | undefined,
  cache: { read?: number; write?: number } = {},
): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: undefined, cacheRead: cache.read, cacheWrite: cache.write },
    outputTokens: { total: output, text: undefined, reasoning: undefined },
  };
}

function generated(content: LanguageModelV3Content[], tokens = usage(10, 5)): LanguageModelV3GenerateResult {
  return { content, finishReason: { unified: "stop", raw: "stop" }, usage: tokens, warnings: [] };
}

function streamed(chunks: LanguageModelV3StreamPart[]) {
  return { stream: convertArrayToReadableStream(chunks) };
}

const finish: LanguageModelV3StreamPart = {
  type: "finish",
  usage: usage(12, 3),
  finishReason: { unified: "stop", raw: "stop" },
};

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { system: "You are terse.", messages: [{ role: "user", content: "Hi" }], ...overrides };
}

/** A request that streams, with the chunks it received. */
function streamingRequest(overrides: Partial<ModelRequest> = {}) {
  const chunks: string[] = [];
  const stream = (chunk: string | StreamChunk) => {
    chunks.push(typeof chunk === "string" ? chunk : chunk.delta);
  };
  return { chunks, request: request({ stream, ...overrides }) };
}

async function failure(response: ModelResponse | Promise<ModelResponse>): Promise<ModelCallError> {
  const error = await Promise.resolve(response).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

function rateLimited(headers: Record<string, string>) {
  return new APICallError({
    message: "Rate limit reached for requests",
    url: "https://api.example.com/v1/chat/completions",
    requestBodyValues: {},
    statusCode: 429,
    responseHeaders: headers,
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("fromLanguageModel without streaming", () => {
  it("returns the concatenated text and the usage of doGenerate", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated(
        [
          { type: "reasoning", text: "thinking" },
          { type: "text", text: "Hello, " },
          { type: "text", text: "world." },
        ],
        usage(120, 30, { read: 100, write: 7 }),
      ),
    });
    const response = await fromLanguageModel(model)(request());
    expect(response).toEqual({
      content: "Hello, world.",
      tokens: { input: 120, output: 30, cacheRead: 100, cacheCreation: 7 },
    });
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it("leaves out token counts the provider did not report", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([{ type: "text", text: "ok" }], usage(undefined, 4)),
    });
    expect(await fromLanguageModel(model)(request())).toEqual({ content: "ok", tokens: { output: 4 } });
  });

  it("returns null content and parsed tool calls when the model only calls tools", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([
        { type: "tool-call", toolCallId: "call_1", toolName: "search", input: '{"query":"cats","limit":3}' },
        { type: "tool-call", toolCallId: "call_2", toolName: "now", input: "" },
      ]),
    });
    const response = await fromLanguageModel(model)(request());
    expect(response).toEqual({
      content: null,
      toolCalls: [
        { id: "call_1", name: "search", args: { query: "cats", limit: 3 } },
        { id: "call_2", name: "now", args: {} },
      ],
      tokens: { input: 10, output: 5 },
    });
  });

  it("reports malformed tool input as argsError with empty args", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([
        { type: "tool-call", toolCallId: "call_1", toolName: "search", input: '{"query":' },
        { type: "tool-call", toolCallId: "call_2", toolName: "search", input: '["cats"]' },
      ]),
    });
    const response = await fromLanguageModel(model)(request());
    expect(typeof response === "object" && response.toolCalls).toEqual([
      { id: "call_1", name: "search", args: {}, argsError: 'Invalid JSON arguments: {"query":' },
      {
        id: "call_2",
        name: "search",
        args: {},
        argsError: 'Tool arguments must be a JSON object, got: ["cats"]',
      },
    ]);
  });

  it("drops tool calls the provider executed itself", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([
        {
          type: "tool-call",
          toolCallId: "ws_1",
          toolName: "web_search",
          input: "{}",
          providerExecuted: true,
        },
        { type: "text", text: "Found it." },
      ]),
    });
    const response = await fromLanguageModel(model)(request());
    expect(response).toEqual({ content: "Found it.", tokens: { input: 10, output: 5 } });
  });

  it("passes tools, the answer schema, the signal and the fixed settings to the model", async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: "text", text: "{}" }]) });
    const controller = new AbortController();
    const parameters = { type: "object", properties: { query: { type: "string" } }, required: ["query"] };
    const schema = { type: "object", properties: { answer: { type: "string" } } };
    await fromLanguageModel(model, {
      temperature: 0,
      maxOutputTokens: 256,
      headers: { "x-trace": "abc" },
      providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } },
    })(
      request({
        tools: [
          { type: "function", function: { name: "search", description: "Search the web", parameters } },
          { type: "function", function: { name: "now", parameters: { type: "object" } } },
        ],
        schema,
        signal: controller.signal,
      }),
    );
    const [call] = model.doGenerateCalls;
    expect(call?.tools).toEqual([
      { type: "function", name: "search", description: "Search the web", inputSchema: parameters },
      { type: "function", name: "now", inputSchema: { type: "object" } },
    ]);
    expect(call?.responseFormat).toEqual({ type: "json", schema });
    expect(call?.abortSignal).toBe(controller.signal);
    expect(call?.temperature).toBe(0);
    expect(call?.maxOutputTokens).toBe(256);
    expect(call?.headers).toEqual({ "x-trace": "abc" });
    expect(call?.providerOptions).toEqual({ anthropic: { cacheControl: { type: "ephemeral" } } });
  });

  it("sends neither tools nor a response format when the request has none", async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: "text", text: "ok" }]) });
    await fromLanguageModel(model)(request({ tools: [] }));
    const [call] = model.doGenerateCalls;
    expect(call).not.toHaveProperty("tools");
    expect(call).not.toHaveProperty("responseFormat");
    expect(call).not.toHaveProperty("abortSignal");
  });
});

describe("fromLanguageModel prompt conversion", () => {
  it("converts a tool-result round trip into V3 messages", async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: "text", text: "Done." }]) });
    await fromLanguageModel(model)(
      request({
        messages: [
          { role: "user", content: "Weather in Paris and Rome?" },
          {
            role: "assistant",
            content: "Checking both.",
            toolCalls: [
              { id: "call_1", name: "weather", args: { city: "Paris" } },
              { id: "call_2", name: "forecast", args: '{"city":"Rome"}' },
            ],
          },
          { role: "tool", content: "18°C, sunny", toolCallId: "call_1" },
          { role: "tool", content: "22°C", toolCallId: "call_2" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "call_3", name: "weather", args: '{"city":' }],
          },
          { role: "tool", content: "Invalid JSON arguments", toolCallId: "call_3" },
        ],
      }),
    );
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      { role: "system", content: "You are terse." },
      { role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking both." },
          { type: "tool-call", toolCallId: "call_1", toolName: "weather", input: { city: "Paris" } },
          { type: "tool-call", toolCallId: "call_2", toolName: "forecast", input: { city: "Rome" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_1",
            toolName: "weather",
            output: { type: "text", value: "18°C, sunny" },
          },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_2",
            toolName: "forecast",
            output: { type: "text", value: "22°C" },
          },
        ],
      },
      {
        role: "assistant",
        // Garbled arguments go out as {}: providers such as Anthropic reject a non-object input.
        content: [{ type: "tool-call", toolCallId: "call_3", toolName: "weather", input: {} }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_3",
            toolName: "weather",
            output: { type: "text", value: "Invalid JSON arguments" },
          },
        ],
      },
    ]);
  });

  it("omits an empty system prompt and keeps system messages of the conversation", async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: "text", text: "ok" }]) });
    await fromLanguageModel(model)(
      request({
        system: "",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Hi" },
          { role: "assistant", content: "" },
        ],
      }),
    );
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Hi" }] },
      { role: "assistant", content: [{ type: "text", text: "" }] },
    ]);
  });

  it("sends a tool message that answers no known call as a user message", async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: "text", text: "ok" }]) });
    await fromLanguageModel(model)(
      request({
        messages: [
          { role: "tool", content: "orphan result", toolCallId: "call_9" },
          { role: "tool", content: "no id at all" },
        ],
      }),
    );
    expect(model.doGenerateCalls[0]?.prompt.slice(1)).toEqual([
      { role: "user", content: [{ type: "text", text: "orphan result" }] },
      { role: "user", content: [{ type: "text", text: "no id at all" }] },
    ]);
  });
});

describe("fromLanguageModel with streaming", () => {
  it("delivers text deltas to request.stream in order and returns the whole text", async () => {
    const model = new MockLanguageModelV3({
      doStream: streamed([
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t1" },
        { type: "text-delta", id: "t1", delta: "(+ 1" },
        { type: "text-delta", id: "t1", delta: "" },
        { type: "text-delta", id: "t1", delta: " 2" },
        { type: "text-delta", id: "t1", delta: ")" },
        { type: "text-end", id: "t1" },
        finish,
      ]),
    });
    const { chunks, request: streaming } = streamingRequest();
    const response = await fromLanguageModel(model)(streaming);
    expect(chunks).toEqual(["(+ 1", " 2", ")"]);
    expect(response).toEqual({ content: "(+ 1 2)", tokens: { input: 12, output: 3 } });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(model.doStreamCalls[0]?.prompt).toEqual([
      { role: "system", content: "You are terse." },
      { role: "user", content: [{ type: "text", text: "Hi" }] },
    ]);
  });

  it("assembles tool calls from their input deltas", async () => {
    const model = new MockLanguageModelV3({
      doStream: streamed([
        { type: "tool-input-start", id: "call_1", toolName: "search" },
        { type: "tool-input-start", id: "call_2", toolName: "lookup" },
        { type: "tool-input-delta", id: "call_1", delta: '{"query":' },
        { type: "tool-input-delta", id: "call_2", delta: '{"id":' },
        { type: "tool-input-delta", id: "call_1", delta: '"cats"}' },
        { type: "tool-input-delta", id: "call_2", delta: "7}" },
        { type: "tool-input-end", id: "call_1" },
        { type: "tool-input-end", id: "call_2" },
        finish,
      ]),
    });
    const { chunks, request: streaming } = streamingRequest();
    const response = await fromLanguageModel(model)(streaming);
    expect(chunks).toEqual([]);
    expect(response).toEqual({
      content: null,
      toolCalls: [
        { id: "call_1", name: "search", args: { query: "cats" } },
        { id: "call_2", name: "lookup", args: { id: 7 } },
      ],
      tokens: { input: 12, output: 3 },
    });
  });

  it("takes the final tool-call part over the streamed input", async () => {
    const model = new MockLanguageModelV3({
      doStream: streamed([
        { type: "text-delta", id: "t1", delta: "Searching." },
        { type: "tool-input-start", id: "call_1", toolName: "search" },
        { type: "tool-input-delta", id: "call_1", delta: '{"query":"ca' },
        { type: "tool-input-end", id: "call_1" },
        { type: "tool-call", toolCallId: "call_1", toolName: "search", input: '{"query":"cats"}' },
        { type: "tool-call", toolCallId: "call_2", toolName: "now", input: "{}" },
        {
          type: "tool-call",
          toolCallId: "ws_1",
          toolName: "web_search",
          input: "{}",
          providerExecuted: true,
        },
        finish,
      ]),
    });
    const response = await fromLanguageModel(model)(streamingRequest().request);
    expect(response).toEqual({
      content: "Searching.",
      toolCalls: [
        { id: "call_1", name: "search", args: { query: "cats" } },
        { id: "call_2", name: "now", args: {} },
      ],
      tokens: { input: 12, output: 3 },
    });
  });

  it("reports malformed streamed tool input as argsError", async () => {
    const model = new MockLanguageModelV3({
      doStream: streamed([
        { type: "tool-input-start", id: "call_1", toolName: "search" },
        { type: "tool-input-delta", id: "call_1", delta: '{"query": "cats"' },
        { type: "tool-input-end", id: "call_1" },
        finish,
      ]),
    });
    const response = await fromLanguageModel(model)(streamingRequest().request);
    expect(typeof response === "object" && response.toolCalls).toEqual([
      { id: "call_1", name: "search", args: {}, argsError: 'Invalid JSON arguments: {"query": "cats"' },
    ]);
  });

  it("fails with server_error on an error part, after delivering the text before it", async () => {
    const providerError = { type: "overloaded_error", message: "Overloaded" };
    const model = new MockLanguageModelV3({
      doStream: streamed([
        { type: "text-delta", id: "t1", delta: "Par" },
        { type: "error", error: providerError },
        { type: "text-delta", id: "t1", delta: "is" },
      ]),
    });
    const { chunks, request: streaming } = streamingRequest();
    const error = await failure(fromLanguageModel(model)(streaming));
    expect(chunks).toEqual(["Par"]);
    expect(error.code).toBe("server_error");
    expect(error.providerMessage).toBe("Overloaded");
    expect(error.cause).toBe(providerError);
  });

  it("rethrows an error of the stream callback unchanged", async () => {
    const model = new MockLanguageModelV3({
      doStream: streamed([{ type: "text-delta", id: "t1", delta: "x" }, finish]),
    });
    const bug = new TypeError("onChunk exploded");
    const response = fromLanguageModel(model)(
      request({
        stream: () => {
          throw bug;
        },
      }),
    );
    await expect(response).rejects.toBe(bug);
  });
});

describe("fromLanguageModel errors", () => {
  it("maps a 429 APICallError with Retry-After seconds to rate_limit with retryAfterMs", async () => {
    const apiError = rateLimited({ "retry-after": "7" });
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw apiError;
      },
    });
    const error = await failure(fromLanguageModel(model)(request()));
    expect(error.code).toBe("rate_limit");
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.providerMessage).toBe("Rate limit reached for requests");
    expect(error.message).toContain("HTTP 429");
    expect(error.cause).toBe(apiError);
  });

  it("maps a 429 from doStream the same way, preferring retry-after-ms", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => {
        throw rateLimited({ "Retry-After": "7", "retry-after-ms": "1500" });
      },
    });
    const error = await failure(fromLanguageModel(model)(streamingRequest().request));
    expect(error.code).toBe("rate_limit");
    expect(error.retryAfterMs).toBe(1500);
  });

  it("reads a Retry-After HTTP date relative to now", async () => {
    vi.useFakeTimers({ now: new Date("2025-01-01T00:00:00Z"), toFake: ["Date"] });
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw rateLimited({ "retry-after": "Wed, 01 Jan 2025 00:00:30 GMT" });
      },
    });
    const error = await failure(fromLanguageModel(model)(request()));
    expect(error.retryAfterMs).toBe(30_000);
  });

  it("classifies 5xx, 408 and 4xx statuses and a call without a status", async () => {
    const codes: string[] = [];
    for (const statusCode of [503, 408, 400, undefined]) {
      const model = new MockLanguageModelV3({
        doGenerate: async () => {
          throw new APICallError({
            message: "failed",
            url: "https://api.example.com",
            requestBodyValues: {},
            ...(statusCode === undefined ? {} : { statusCode }),
          });
        },
      });
      const error = await failure(fromLanguageModel(model)(request()));
      codes.push(error.code);
      expect(error.retryAfterMs).toBeUndefined();
    }
    expect(codes).toEqual(["server_error", "timeout", "client_error", "network_error"]);
  });

  it("wraps any other error as client_error, keeping it as the cause", async () => {
    const cause = new Error("OpenAI API key is missing.");
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw cause;
      },
    });
    const error = await failure(fromLanguageModel(model)(request()));
    expect(error.code).toBe("client_error");
    expect(error.providerMessage).toBe("OpenAI API key is missing.");
    expect(error.cause).toBe(cause);
  });

  it("passes a ModelCallError through unchanged", async () => {
    const original = new ModelCallError("timeout", "took too long");
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw original;
      },
    });
    await expect(fromLanguageModel(model)(request())).rejects.toBe(original);
  });
});

describe("fromLanguageModel abort", () => {
  it("fails with aborted when the signal is already aborted", async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: "text", text: "late" }]) });
    const controller = new AbortController();
    controller.abort();
    const error = await failure(fromLanguageModel(model)(request({ signal: controller.signal })));
    expect(error.code).toBe("aborted");
  });

  it("fails with aborted when the provider rejects with an AbortError", async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doGenerate: (options) =>
        new Promise((_, reject) => {
          options.abortSignal?.addEventListener("abort", () => {
            reject(new DOMException("This operation was aborted", "AbortError"));
          });
          controller.abort();
        }),
    });
    const error = await failure(fromLanguageModel(model)(request({ signal: controller.signal })));
    expect(error.code).toBe("aborted");
  });

  it("does not wait for a provider that ignores the signal", async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doGenerate: () => {
        controller.abort();
        return new Promise<never>(() => {});
      },
    });
    const error = await failure(fromLanguageModel(model)(request({ signal: controller.signal })));
    expect(error.code).toBe("aborted");
  });

  it("stops reading a stream that never ends once the signal aborts", async () => {
    const controller = new AbortController();
    let cancelled = false;
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(stream) {
            stream.enqueue({ type: "text-delta", id: "t1", delta: "partial" });
          },
          pull() {
            // The provider has nothing more to say: only the abort can end this read.
            controller.abort();
          },
          cancel() {
            cancelled = true;
          },
        }),
      }),
    });
    const { chunks, request: streaming } = streamingRequest({ signal: controller.signal });
    const error = await failure(fromLanguageModel(model)(streaming));
    expect(chunks).toEqual(["partial"]);
    expect(error.code).toBe("aborted");
    expect(cancelled).toBe(true);
  });
});
