import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AgentError } from "../errors.js";
import { ModelCallError } from "../model/model-error.js";
import type { ModelRequest } from "../model/model-types.js";
import { createOpenAIModel, type OpenAIModelOptions } from "./index.js";

// A real HTTP server on loopback: the adapter is exercised through Node's own fetch, sockets and
// chunked transfer, never through a mock of them, and nothing leaves the machine.

interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary fields of the JSON body.
  readonly body: any;
}

type Reply = (response: ServerResponse, request: RecordedRequest) => void | Promise<void>;

const KEY = "sk-test-0123456789abcdef";

let server: Server;
let baseURL: string;
let requests: RecordedRequest[] = [];
let reply: Reply;

beforeAll(async () => {
  server = createServer((incoming, response) => {
    const parts: Buffer[] = [];
    incoming.on("data", (part: Buffer) => parts.push(part));
    incoming.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      const request: RecordedRequest = {
        method: incoming.method ?? "",
        path: incoming.url ?? "",
        headers: incoming.headers,
        body: text === "" ? undefined : JSON.parse(text),
      };
      requests.push(request);
      Promise.resolve(reply(response, request)).catch((error: unknown) => response.destroy(error as Error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const ENV_NAMES = ["OPENAI_API_KEY", "OPENAI_BASE_URL"] as const;
const savedEnv = new Map<string, string | undefined>();

beforeEach(() => {
  requests = [];
  reply = json(200, completion({ content: "ok" }));
  for (const name of ENV_NAMES) {
    savedEnv.set(name, process.env[name]);
    delete process.env[name];
  }
});

afterEach(() => {
  for (const name of ENV_NAMES) {
    const value = savedEnv.get(name);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

// --- Replies -------------------------------------------------------------------------------------

function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return (response) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  };
}

function text(status: number, body: string, contentType = "text/plain"): Reply {
  return (response) => {
    response.writeHead(status, { "content-type": contentType });
    response.end(body);
  };
}

/** Writes each piece separately, yielding between them so the client sees partial deliveries. */
function sse(pieces: readonly string[]): Reply {
  return async (response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const piece of pieces) {
      response.write(piece);
      await tick();
    }
    response.end();
  };
}

/** Never answers: the client has to give up on its own. */
function hang(onArrival: () => void = () => {}): Reply {
  return () => onArrival();
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

function event(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

function completion(message: Record<string, unknown>, usage?: Record<string, unknown>) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop" }],
    ...(usage === undefined ? {} : { usage }),
  };
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function usageChunk(usage: Record<string, unknown>) {
  return { id: "chatcmpl-1", object: "chat.completion.chunk", choices: [], usage };
}

// --- Calls ---------------------------------------------------------------------------------------

function model(options: Partial<OpenAIModelOptions> = {}) {
  return createOpenAIModel({ model: "gpt-test", baseURL, apiKey: KEY, ...options });
}

function ask(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { system: "", messages: [{ role: "user", content: "Hi" }], ...overrides };
}

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

function lastRequest(): RecordedRequest {
  const request = requests.at(-1);
  if (request === undefined) throw new Error("the server received no request");
  return request;
}

// --- Tests ---------------------------------------------------------------------------------------

describe("createOpenAIModel: requests", () => {
  it("posts the model and the system prompt plus messages to /chat/completions and returns the text", async () => {
    reply = json(200, completion({ content: "Hello there" }));
    const response = await model()(ask({ system: "Be brief." }));

    expect(response).toEqual({ content: "Hello there" });
    const request = lastRequest();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toEqual({
      model: "gpt-test",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
    });
  });

  it("omits the system message when the system prompt is empty and never sends stream unasked", async () => {
    await model()(ask());
    expect(lastRequest().body.messages).toEqual([{ role: "user", content: "Hi" }]);
    expect(lastRequest().body).not.toHaveProperty("stream");
    expect(lastRequest().body).not.toHaveProperty("stream_options");
  });

  it("converts assistant tool calls and tool results, and passes tools through", async () => {
    const tools = [
      {
        type: "function" as const,
        function: { name: "search", description: "Search.", parameters: { type: "object" } },
      },
    ];
    await model()(
      ask({
        system: "S",
        tools,
        messages: [
          { role: "user", content: "Find x" },
          {
            role: "assistant",
            content: "",
            toolCalls: [
              { id: "c1", name: "search", args: { query: "x" } },
              { id: "c2", name: "search", args: '{"query":' },
            ],
          },
          { role: "tool", toolCallId: "c1", content: '{"hits":1}' },
          { role: "tool", toolCallId: "c2", content: "error: bad arguments" },
          { role: "assistant", content: "Found it." },
          { role: "system", content: "Note." },
        ],
      }),
    );

    expect(lastRequest().body.tools).toEqual(tools);
    expect(lastRequest().body.messages).toEqual([
      { role: "system", content: "S" },
      { role: "user", content: "Find x" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "search", arguments: '{"query":"x"}' } },
          { id: "c2", type: "function", function: { name: "search", arguments: '{"query":' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: '{"hits":1}' },
      { role: "tool", tool_call_id: "c2", content: "error: bad arguments" },
      { role: "assistant", content: "Found it." },
      { role: "system", content: "Note." },
    ]);
  });

  it("keeps assistant text beside its tool calls and omits an empty tools list", async () => {
    await model()(
      ask({
        tools: [],
        messages: [
          { role: "assistant", content: "Let me look.", toolCalls: [{ id: "c1", name: "now", args: {} }] },
          { role: "tool", toolCallId: "c1", content: "noon" },
        ],
      }),
    );
    expect(lastRequest().body).not.toHaveProperty("tools");
    expect(lastRequest().body.messages[0]).toEqual({
      role: "assistant",
      content: "Let me look.",
      tool_calls: [{ id: "c1", type: "function", function: { name: "now", arguments: "{}" } }],
    });
  });

  it("rejects a tool message without toolCallId before sending anything", async () => {
    const error = await failure(model()(ask({ messages: [{ role: "tool", content: "x" }] })));
    expect(error.code).toBe("client_error");
    expect(error.message).toContain("Message 0");
    expect(requests).toHaveLength(0);
  });

  it("sends temperature and maxTokens as max_tokens to a compatible server", async () => {
    await model({ temperature: 0.2, maxTokens: 300 })(ask());
    expect(lastRequest().body).toMatchObject({ temperature: 0.2, max_tokens: 300 });
    expect(lastRequest().body).not.toHaveProperty("max_completion_tokens");
  });

  it("sends maxTokens as max_completion_tokens to api.openai.com", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fakeFetch = async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(completion({ content: "ok" })), {
        headers: { "content-type": "application/json" },
      });
    };
    await createOpenAIModel({ model: "gpt-test", apiKey: KEY, maxTokens: 50, fetch: fakeFetch })(ask());

    expect(calls[0]?.url).toBe("https://api.openai.com/v1/chat/completions");
    const body = JSON.parse(String(calls[0]?.init.body));
    expect(body.max_completion_tokens).toBe(50);
    expect(body).not.toHaveProperty("max_tokens");
  });

  it("merges extraBody over its own fields but never lets it turn streaming on", async () => {
    await model({ temperature: 1, extraBody: { temperature: 0, seed: 7, stream: true } })(ask());
    expect(lastRequest().body).toMatchObject({ temperature: 0, seed: 7 });
    expect(lastRequest().body).not.toHaveProperty("stream");
  });

  it("sends the schema as a json_schema response_format only with structuredOutputs", async () => {
    const schema = { type: "object", properties: { answer: { type: "string" } } };
    await model()(ask({ schema }));
    expect(lastRequest().body).not.toHaveProperty("response_format");

    await model({ structuredOutputs: true })(ask({ schema }));
    expect(lastRequest().body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema, strict: false },
    });
  });

  it("tolerates a trailing slash on baseURL", async () => {
    await model({ baseURL: `${baseURL}/` })(ask());
    expect(lastRequest().path).toBe("/v1/chat/completions");
  });
});

describe("createOpenAIModel: headers and keys", () => {
  it("sends the bearer key, the organization and custom headers", async () => {
    await model({ organization: "org-42", headers: { "X-Title": "demo" } })(ask());
    const { headers } = lastRequest();
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(headers["openai-organization"]).toBe("org-42");
    expect(headers["x-title"]).toBe("demo");
  });

  it("lets a custom header replace its own whatever the letter case", async () => {
    await model({ headers: { authorization: "Token gateway" } })(ask());
    expect(lastRequest().headers.authorization).toBe("Token gateway");
  });

  it("reads the key from OPENAI_API_KEY when apiKey is not given", async () => {
    process.env.OPENAI_API_KEY = "sk-from-env";
    await createOpenAIModel({ model: "gpt-test", baseURL })(ask());
    expect(lastRequest().headers.authorization).toBe("Bearer sk-from-env");
  });

  it("reads the base URL from OPENAI_BASE_URL when baseURL is not given", async () => {
    process.env.OPENAI_BASE_URL = baseURL;
    await createOpenAIModel({ model: "gpt-test" })(ask());
    expect(lastRequest().path).toBe("/v1/chat/completions");
    expect(lastRequest().headers).not.toHaveProperty("authorization");
  });

  it("sends no Authorization header to a custom baseURL without a key", async () => {
    const response = await createOpenAIModel({ model: "llama3.1", baseURL })(ask());
    expect(response.content).toBe("ok");
    expect(lastRequest().headers).not.toHaveProperty("authorization");
  });

  it("fails with a clear client_error, without calling fetch, when OpenAI's endpoint has no key", async () => {
    const fakeFetch = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
    const error = await failure(createOpenAIModel({ model: "gpt-test", fetch: fakeFetch })(ask()));
    expect(error.code).toBe("client_error");
    expect(error.message).toContain("apiKey");
    expect(error.message).toContain("OPENAI_API_KEY");
    expect(fakeFetch).not.toHaveBeenCalled();
  });

  it("never puts the key in an error, even when the server echoes it", async () => {
    reply = (response, request) => {
      response.writeHead(401, { "content-type": "application/json" });
      const message = `Incorrect API key provided: ${String(request.headers.authorization)}`;
      response.end(JSON.stringify({ error: { message, type: "invalid_request_error" } }));
    };
    const error = await failure(model()(ask()));

    expect(error.code).toBe("client_error");
    expect(error.providerMessage).toBe("Incorrect API key provided: Bearer [redacted]");
    for (const text of [error.message, String(error.stack), JSON.stringify(error)]) {
      expect(text).not.toContain(KEY);
    }
  });

  it("never puts the key in a network error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const error = await failure(model({ baseURL: `http://127.0.0.1:${port}/v1` })(ask()));
    expect(error.code).toBe("network_error");
    expect(error.message).toContain("ECONNREFUSED");
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(KEY);
  });
});

describe("createOpenAIModel: responses", () => {
  it("returns tool calls with parsed arguments and null content", async () => {
    reply = json(
      200,
      completion({
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "search", arguments: '{"query":"x"}' } },
          { id: "call_2", type: "function", function: { name: "now", arguments: "" } },
        ],
      }),
    );
    const response = await model()(ask());
    expect(response).toEqual({
      content: null,
      toolCalls: [
        { id: "call_1", name: "search", args: { query: "x" } },
        { id: "call_2", name: "now", args: {} },
      ],
    });
  });

  it("reports malformed or non-object arguments as argsError instead of throwing", async () => {
    reply = json(
      200,
      completion({
        content: null,
        tool_calls: [
          { id: "a", type: "function", function: { name: "f", arguments: '{"x": 1' } },
          { id: "b", type: "function", function: { name: "g", arguments: "[1, 2]" } },
        ],
      }),
    );
    const response = await model()(ask());
    expect(response.toolCalls).toEqual([
      { id: "a", name: "f", args: {}, argsError: 'Invalid JSON arguments: {"x": 1' },
      { id: "b", name: "g", args: {}, argsError: "Tool arguments must be a JSON object, got: [1, 2]" },
    ]);
  });

  it("reports usage, including cached prompt tokens", async () => {
    reply = json(
      200,
      completion(
        { content: "hi" },
        { prompt_tokens: 120, completion_tokens: 8, prompt_tokens_details: { cached_tokens: 64 } },
      ),
    );
    const response = await model()(ask());
    expect(response.tokens).toEqual({ input: 120, output: 8, cacheRead: 64 });
  });

  it("reports usage without cacheRead when the server gives no cached count", async () => {
    reply = json(200, completion({ content: "hi" }, { prompt_tokens: 3, completion_tokens: 1 }));
    expect((await model()(ask())).tokens).toEqual({ input: 3, output: 1 });
  });

  it("fails with invalid_response on a body that is not JSON", async () => {
    reply = text(200, "<html>gateway</html>", "text/html");
    const error = await failure(model()(ask()));
    expect(error.code).toBe("invalid_response");
    expect(error.message).toContain("<html>gateway</html>");
  });

  it("fails with invalid_response when there are no choices", async () => {
    reply = json(200, { id: "x", choices: [] });
    expect((await failure(model()(ask()))).code).toBe("invalid_response");
  });
});

describe("createOpenAIModel: HTTP errors", () => {
  it("maps 429 to rate_limit with the Retry-After wait", async () => {
    reply = json(
      429,
      { error: { message: "Rate limit reached for requests", type: "requests" } },
      { "retry-after": "3" },
    );
    const error = await failure(model()(ask()));
    expect(error).toMatchObject({
      code: "rate_limit",
      status: 429,
      retryAfterMs: 3000,
      providerMessage: "Rate limit reached for requests",
    });
    expect(error.message).toBe("OpenAI request failed with status 429: Rate limit reached for requests");
  });

  it("prefers retry-after-ms over Retry-After", async () => {
    reply = json(429, { error: { message: "slow down" } }, { "retry-after": "3", "retry-after-ms": "250" });
    expect((await failure(model()(ask()))).retryAfterMs).toBe(250);
  });

  it("maps 500 to server_error", async () => {
    reply = json(500, { error: { message: "The server had an error" } });
    const error = await failure(model()(ask()));
    expect(error).toMatchObject({ code: "server_error", status: 500 });
    expect(error.retryAfterMs).toBeUndefined();
  });

  it("maps 400 to client_error carrying the provider's message", async () => {
    reply = json(400, {
      error: { message: "Invalid 'messages[1].content': string too long.", type: "invalid_request_error" },
    });
    const error = await failure(model()(ask()));
    expect(error).toMatchObject({
      code: "client_error",
      status: 400,
      providerMessage: "Invalid 'messages[1].content': string too long.",
    });
    expect(error.message).toBe(
      "OpenAI request failed with status 400: Invalid 'messages[1].content': string too long.",
    );
  });

  it("uses the raw body as the provider message when it is not JSON", async () => {
    reply = text(502, "Bad Gateway from proxy");
    const error = await failure(model()(ask()));
    expect(error).toMatchObject({ code: "server_error", providerMessage: "Bad Gateway from proxy" });
  });

  it("maps 408 to timeout", async () => {
    reply = json(408, { error: { message: "Request timed out" } });
    expect((await failure(model()(ask()))).code).toBe("timeout");
  });
});

describe("createOpenAIModel: cancellation", () => {
  it("rejects with aborted when the signal fires while the server is still working", async () => {
    const controller = new AbortController();
    const arrived = new Promise<void>((resolve) => {
      reply = hang(resolve);
    });
    const pending = model()(ask({ signal: controller.signal }));
    await arrived;
    controller.abort();

    const error = await failure(pending);
    expect(error.code).toBe("aborted");
  });

  it("rejects with aborted without a request when the signal has already fired", async () => {
    const error = await failure(model()(ask({ signal: AbortSignal.abort() })));
    expect(error.code).toBe("aborted");
  });

  it("rejects with aborted when the signal fires in the middle of a stream", async () => {
    const controller = new AbortController();
    reply = async (response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(event(chunk({ content: "partial" })));
      // Then nothing more: only the abort can end the call.
    };
    const deltas: string[] = [];
    const stream = (delta: unknown) => {
      deltas.push(String(delta));
      controller.abort();
    };
    const error = await failure(model()(ask({ signal: controller.signal, stream })));
    expect(error.code).toBe("aborted");
    expect(deltas).toEqual(["partial"]);
  });

  it("rejects with timeout when timeoutMs passes before the server answers", async () => {
    reply = hang();
    const error = await failure(model({ timeoutMs: 5 })(ask()));
    expect(error.code).toBe("timeout");
  });

  it("still honours the caller's signal when a timeout is set", async () => {
    const controller = new AbortController();
    const arrived = new Promise<void>((resolve) => {
      reply = hang(resolve);
    });
    const pending = model({ timeoutMs: 60_000 })(ask({ signal: controller.signal }));
    await arrived;
    controller.abort();
    expect((await failure(pending)).code).toBe("aborted");
  });
});

describe("createOpenAIModel: streaming", () => {
  function collect() {
    const deltas: unknown[] = [];
    return { deltas, stream: (delta: unknown) => deltas.push(delta) };
  }

  it("asks for a stream with usage and delivers each text delta as it arrives", async () => {
    const hello = event(chunk({ content: "Hel" }));
    reply = sse([
      ": keep-alive\n\n",
      event(chunk({ role: "assistant", content: "" })),
      // One event split across two writes.
      hello.slice(0, 17),
      hello.slice(17),
      // CRLF line ends.
      `data: ${JSON.stringify(chunk({ content: "lo" }))}\r\n\r\n`,
      event(chunk({ content: " world" }, "stop")),
      "data: [DONE]\n\n",
    ]);
    const { deltas, stream } = collect();
    const response = await model()(ask({ stream }));

    expect(deltas).toEqual(["Hel", "lo", " world"]);
    expect(response).toEqual({ content: "Hello world" });
    expect(lastRequest().body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(lastRequest().headers.accept).toBe("text/event-stream");
  });

  it("assembles interleaved tool-call deltas by index, with arguments split across chunks", async () => {
    const toolDelta = (calls: unknown[]) => event(chunk({ tool_calls: calls }));
    const split = toolDelta([{ index: 0, function: { arguments: 'ry":"x"}' } }]);
    reply = sse([
      event(chunk({ role: "assistant", content: null })),
      toolDelta([{ index: 0, id: "call_1", type: "function", function: { name: "search", arguments: "" } }]),
      toolDelta([{ index: 0, function: { arguments: '{"que' } }]),
      toolDelta([
        { index: 1, id: "call_2", type: "function", function: { name: "lookup", arguments: '{"id":' } },
      ]),
      split.slice(0, 30),
      split.slice(30),
      toolDelta([{ index: 1, function: { arguments: "7}" } }]),
      event(chunk({}, "tool_calls")),
      "data: [DONE]\n\n",
    ]);
    const { deltas, stream } = collect();
    const response = await model()(ask({ stream }));

    expect(deltas).toEqual([]);
    expect(response).toEqual({
      content: null,
      toolCalls: [
        { id: "call_1", name: "search", args: { query: "x" } },
        { id: "call_2", name: "lookup", args: { id: 7 } },
      ],
    });
  });

  it("reports malformed streamed arguments as argsError", async () => {
    reply = sse([
      event(
        chunk({
          tool_calls: [{ index: 0, id: "c", type: "function", function: { name: "f", arguments: '{"a":' } }],
        }),
      ),
      "data: [DONE]\n\n",
    ]);
    const response = await model()(ask({ stream: () => {} }));
    expect(response.toolCalls).toEqual([
      { id: "c", name: "f", args: {}, argsError: 'Invalid JSON arguments: {"a":' },
    ]);
  });

  it("takes usage, including cached tokens, from the final chunk", async () => {
    reply = sse([
      event(chunk({ content: "ok" }, "stop")),
      event(
        usageChunk({ prompt_tokens: 50, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 32 } }),
      ),
      "data: [DONE]\n\n",
    ]);
    const response = await model()(ask({ stream: () => {} }));
    expect(response).toEqual({ content: "ok", tokens: { input: 50, output: 5, cacheRead: 32 } });
  });

  it("fails with server_error when the stream carries an error payload", async () => {
    reply = sse([
      event(chunk({ content: "par" })),
      event({ error: { message: "The server is overloaded" } }),
    ]);
    const error = await failure(model()(ask({ stream: () => {} })));
    expect(error).toMatchObject({ code: "server_error", providerMessage: "The server is overloaded" });
  });

  it("fails with invalid_response when a stream chunk is not JSON", async () => {
    reply = sse(["data: {not json\n\n"]);
    expect((await failure(model()(ask({ stream: () => {} })))).code).toBe("invalid_response");
  });

  it("reads events from a server that streams without the text/event-stream type", async () => {
    reply = (response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(`${event(chunk({ content: "plain" }))}data: [DONE]\n\n`);
    };
    const { deltas, stream } = collect();
    expect(await model()(ask({ stream }))).toEqual({ content: "plain" });
    expect(deltas).toEqual(["plain"]);
  });

  it("reads a plain JSON answer when the server ignores the stream flag", async () => {
    reply = json(200, completion({ content: "whole" }));
    const { deltas, stream } = collect();
    expect(await model()(ask({ stream }))).toEqual({ content: "whole" });
    expect(deltas).toEqual([]);
  });
});

describe("createOpenAIModel: options", () => {
  it("rejects a missing model or a bad timeout at creation", () => {
    expect(() => createOpenAIModel({ model: "" })).toThrow(AgentError);
    expect(() => createOpenAIModel({ model: " " })).toThrow(
      expect.objectContaining({ code: "PTC_AGENT_INVALID_OPTION", details: { option: "model" } }),
    );
    expect(() => createOpenAIModel({ model: "m", timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});
