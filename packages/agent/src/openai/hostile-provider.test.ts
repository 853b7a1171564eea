import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, ModelCallError, run } from "../index.js";
import { createOpenAIModel } from "./index.js";

// A provider that misbehaves on purpose, over real HTTP: bodies that never end or drip, bodies
// larger than anything a completion needs, error pages that echo the key, absurd Retry-After
// values. Each run must end with the right failure, within its limits, and release the socket.
// The server picks its behaviour from the first path segment of the base URL.

const API_KEY = "sk-test-0123456789abcdefghijklmnopqrstuvwxyzABCDEF";

let server: Server;
let root: string;
/** Per scenario: resolves when the server sees the request's socket close. */
const socketClosed = new Map<string, Promise<void>>();
const requestCounts = new Map<string, number>();

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const completion = (content: string) =>
  JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content } }] });

/** Writes `piece` again and again, respecting backpressure, until the client goes away. */
function writeForever(response: ServerResponse, piece: string | Buffer): void {
  const pump = () => {
    while (!response.destroyed && response.write(piece));
    if (!response.destroyed) response.once("drain", pump);
  };
  pump();
}

/** Writes `piece` every `everyMs` until the client goes away. */
function drip(response: ServerResponse, piece: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (response.destroyed) clearInterval(timer);
    else response.write(piece);
  }, everyMs);
  response.on("close", () => clearInterval(timer));
}

const STREAM_CHUNK = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "a" } }] })}\n\n`;
const MEGABYTE = Buffer.alloc(1024 * 1024, "a");

const handlers: Record<string, Handler> = {
  ok: (_request, response) => {
    setTimeout(() => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(completion("done"));
    }, 20);
  },
  "drip-json": (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    drip(response, " ", 50);
  },
  "drip-sse": (_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    drip(response, STREAM_CHUNK, 50);
  },
  "endless-json": (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.write('{"choices":[{"index":0,"message":{"role":"assistant","content":"');
    writeForever(response, MEGABYTE);
  },
  "endless-sse-line": (_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write('data: {"choices":[{"index":0,"delta":{"content":"');
    writeForever(response, MEGABYTE);
  },
  "endless-error": (_request, response) => {
    response.writeHead(500, { "content-type": "text/plain" });
    response.write(`upstream failed for key ${API_KEY}: `);
    writeForever(response, MEGABYTE);
  },
  "key-at-cut": (_request, response) => {
    // The key straddles the 1,000th character, where the raw text of an error page is cut.
    response.writeHead(500, { "content-type": "text/html" });
    response.end(`<p>${"x".repeat(970)}Authorization: Bearer ${API_KEY}</p>`);
  },
  "key-at-cut-200": (_request, response) => {
    // Same at the 200th character, where the preview of a body that is not JSON is cut.
    response.writeHead(200, { "content-type": "application/json" });
    response.end(`<p>${"x".repeat(180)}Bearer ${API_KEY}</p>`);
  },
  "huge-error-message": (_request, response) => {
    response.writeHead(500, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: `bad key ${API_KEY} ${"y".repeat(5_000_000)}` } }));
  },
  "huge-stream-error": (_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(`data: ${JSON.stringify({ error: { message: "z".repeat(5_000_000) } })}\n\n`);
  },
  "huge-bad-chunk": (_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(`data: {${"w".repeat(5_000_000)}\n\n`);
  },
  "retry-forever": (_request, response) => {
    response.writeHead(429, { "content-type": "application/json", "retry-after": "1000000000000" });
    response.end(JSON.stringify({ error: { message: "slow down" } }));
  },
  "retry-long": (_request, response) => {
    // 3e9 ms: past what one timer holds, so a plain setTimeout would fire after 1 ms.
    response.writeHead(429, { "content-type": "application/json", "retry-after-ms": "3000000000" });
    response.end(JSON.stringify({ error: { message: "slow down" } }));
  },
  "many-fragments": (_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    const fragment = (text: string, first = false) =>
      `data: ${JSON.stringify({
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index: 0,
                  ...(first ? { id: "call_1", type: "function" } : {}),
                  function: { ...(first ? { name: "answer" } : {}), arguments: text },
                },
              ],
            },
          },
        ],
      })}\n\n`;
    const pieces = [fragment('{"text":"', true)];
    for (let index = 0; index < 100_000; index++) pieces.push(fragment("b"));
    pieces.push(fragment('"}'), "data: [DONE]\n\n");
    response.end(pieces.join(""));
  },
};

/** Completions of the wrong shape, answered as JSON by the scenario `shape-<name>`. */
const SHAPES: Record<string, unknown> = {
  "tool-calls-object": { choices: [{ message: { content: "hi", tool_calls: { a: 1 } } }] },
  "odd-finish-and-usage": {
    choices: [{ finish_reason: { x: 1 }, message: { content: "hi" } }],
    usage: { prompt_tokens: "12", completion_tokens: -5, prompt_tokens_details: { cached_tokens: null } },
  },
  "choices-string": { choices: "nope" },
  "null-body": null,
  "many-calls": {
    choices: [
      {
        message: {
          content: null,
          tool_calls: Array.from({ length: 20_000 }, (_, index) => ({
            id: index % 2 === 0 ? "same" : undefined,
            function: { name: "echo", arguments: index % 3 === 0 ? { text: "object" } : '{"text":"a"}' },
          })),
        },
      },
    ],
  },
};
for (const [name, body] of Object.entries(SHAPES)) {
  handlers[`shape-${name}`] = (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const scenario = request.url?.split("/")[1] ?? "";
    requestCounts.set(scenario, (requestCounts.get(scenario) ?? 0) + 1);
    socketClosed.set(scenario, new Promise((resolve) => request.socket.once("close", () => resolve())));
    request.resume();
    request.on("end", () => (handlers[scenario] ?? handlers.ok)?.(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const model = (scenario: string, options: Record<string, unknown> = {}) =>
  createOpenAIModel({ model: "test-model", apiKey: API_KEY, baseURL: `${root}/${scenario}/v1`, ...options });

const textAgent = (extra: Record<string, unknown> = {}) =>
  createAgent({ prompt: "Say something.", output: "text", maxTurns: 1, ...extra });

/** "closed" once the server saw the socket of the scenario's last request close, else "open". */
async function socketState(scenario: string, withinMs = 5000): Promise<"closed" | "open"> {
  const closed = socketClosed.get(scenario);
  if (closed === undefined) return "open";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = new Promise<"open">((resolve) => {
    timer = setTimeout(() => resolve("open"), withinMs);
  });
  const state = await Promise.race([closed.then(() => "closed" as const), open]);
  clearTimeout(timer);
  return state;
}

describe("createOpenAIModel's timeoutMs past what a timer holds", () => {
  it("does not time out at once when timeoutMs is 3e9", async () => {
    const result = await run(textAgent(), { llm: model("ok", { timeoutMs: 3e9 }) });
    expect(result.ok).toBe(true);
    expect(result.step.return).toBe("done");
  });

  it("takes Infinity as no limit", async () => {
    const result = await run(textAgent(), { llm: model("ok", { timeoutMs: Number.POSITIVE_INFINITY }) });
    expect(result.step.return).toBe("done");
  });
});

describe("a body that drips forever", () => {
  it.each([
    ["as JSON", "drip-json", false],
    ["as events", "drip-sse", true],
  ])("%s: timeoutMs ends the call and frees the socket", async (_label, scenario, stream) => {
    const result = await run(textAgent(), {
      llm: model(scenario, { timeoutMs: 300 }),
      ...(stream ? { onChunk: () => {} } : {}),
    });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message).toContain("timed out after 300 ms");
    expect(await socketState(scenario)).toBe("closed");
  });

  it.each([
    ["as JSON", "drip-json", false],
    ["as events", "drip-sse", true],
  ])("%s: the run's signal ends the call and frees the socket", async (_label, scenario, stream) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await run(textAgent(), {
      llm: model(scenario),
      signal: controller.signal,
      ...(stream ? { onChunk: () => {} } : {}),
    });
    expect(result.step.fail?.reason).toBe("aborted");
    expect(await socketState(scenario)).toBe("closed");
  });

  it.each([
    ["as JSON", "drip-json", false],
    ["as events", "drip-sse", true],
  ])("%s: missionTimeout ends the call and frees the socket", async (_label, scenario, stream) => {
    const result = await run(textAgent({ missionTimeout: 300 }), {
      llm: model(scenario),
      ...(stream ? { onChunk: () => {} } : {}),
    });
    expect(result.step.fail?.reason).toBe("mission_timeout");
    expect(await socketState(scenario)).toBe("closed");
  });
});

describe("a body larger than any completion", () => {
  it.each([
    ["a JSON body", "endless-json", false],
    ["an event line", "endless-sse-line", true],
  ])("%s that never ends fails at maxResponseBytes", async (_label, scenario, stream) => {
    const result = await run(textAgent({ missionTimeout: 8000 }), {
      llm: model(scenario, { maxResponseBytes: 4 * 1024 * 1024 }),
      ...(stream ? { onChunk: () => {} } : {}),
    });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message).toContain("larger than maxResponseBytes (4194304 bytes)");
    expect(await socketState(scenario)).toBe("closed");
  });

  it.each([
    ["a JSON body", "endless-json", false],
    ["an event line", "endless-sse-line", true],
  ])("%s that never ends fails at the default limit", async (_label, scenario, stream) => {
    const result = await run(textAgent({ missionTimeout: 8000 }), {
      llm: model(scenario),
      ...(stream ? { onChunk: () => {} } : {}),
    });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message).toContain("larger than maxResponseBytes");
    expect(await socketState(scenario)).toBe("closed");
  });
});

describe("error responses", () => {
  it("an error page that never ends gives the status error, read from its start only", async () => {
    const result = await run(textAgent({ missionTimeout: 8000 }), { llm: model("endless-error") });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message).toContain("status 500: upstream failed for key [redacted]");
    expect(await socketState("endless-error")).toBe("closed");
  });

  it.each([
    ["an error page", "key-at-cut"],
    ["a body that is not JSON", "key-at-cut-200"],
  ])("%s cut where the key stands does not show the key's first characters", async (_label, scenario) => {
    const result = await run(textAgent(), { llm: model(scenario) });
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message).not.toContain(API_KEY.slice(0, 6));
  });

  it.each([
    ["an error body's message", "huge-error-message", false],
    ["a stream's error payload", "huge-stream-error", true],
    ["a stream chunk that is not JSON", "huge-bad-chunk", true],
  ])("%s of megabytes gives a bounded, redacted ModelCallError", async (_label, scenario, stream) => {
    const call = model(scenario);
    const error = await call({
      system: "s",
      messages: [{ role: "user", content: "hi" }],
      turn: 1,
      ...(stream ? { stream: () => {} } : {}),
    } as Parameters<typeof call>[0]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelCallError);
    const { message, providerMessage } = error as ModelCallError;
    expect(message.length).toBeLessThan(2000);
    expect((providerMessage ?? "").length).toBeLessThan(2000);
    expect(message).not.toContain(API_KEY);
  });
});

describe("Retry-After", () => {
  it("a wait past the mission deadline ends the run with the provider's error, not a retry at once", async () => {
    const result = await run(
      textAgent({ missionTimeout: 5000, llmRetry: { maxAttempts: 3, baseDelayMs: 10 } }),
      { llm: model("retry-forever") },
    );
    expect(result.step.fail?.reason).toBe("llm_error");
    expect(result.step.fail?.message).toContain("slow down");
    expect(requestCounts.get("retry-forever")).toBe(1);
  });

  it("with maxDelayMs: Infinity, a wait past what one timer holds is waited, not cut to 1 ms", async () => {
    const controller = new AbortController();
    const result = run(
      textAgent({ llmRetry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: Number.POSITIVE_INFINITY } }),
      {
        llm: model("retry-long"),
        signal: controller.signal,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    controller.abort();
    expect((await result).step.fail?.reason).toBe("aborted");
    expect(requestCounts.get("retry-long")).toBe(1);
  });
});

describe("completions of the wrong shape", () => {
  it.each([
    ["tool-calls-object", null],
    ["odd-finish-and-usage", null],
    ["choices-string", "llm_error"],
    ["null-body", "llm_error"],
  ])("%s ends the run as %s", async (name, reason) => {
    const result = await run(textAgent(), { llm: model(`shape-${name}`) });
    expect(result.step.fail?.reason ?? null).toBe(reason);
    if (reason === null) expect(result.step.return).toBe("hi");
  });

  it("20,000 tool calls in one message (ids missing or repeated, arguments as objects) stop at maxToolCalls", async () => {
    let calls = 0;
    const agent = textAgent({
      maxToolCalls: 10,
      tools: {
        echo: {
          execute: ({ text }: { text: string }) => {
            calls += 1;
            return text;
          },
          signature: "(text :string) -> :string",
        },
      },
    });
    const result = await run(agent, { llm: model("shape-many-calls") });
    expect(result.ok).toBe(false);
    expect(calls).toBeLessThanOrEqual(10);
  });
});

describe("a tool call's arguments in 100,000 fragments", () => {
  it("is assembled whole", async () => {
    const agent = createAgent({
      prompt: "Answer.",
      output: "text",
      ptcTransport: "tool_call",
      maxTurns: 1,
      tools: {
        answer: { execute: ({ text }: { text: string }) => text.length, signature: "(text :string) -> :int" },
      },
    });
    const result = await run(agent, {
      llm: model("many-fragments"),
      onChunk: () => {},
      collectMessages: true,
    });
    const call = result.step.toolCalls.find((entry) => entry.name === "answer");
    expect(call?.result).toBe(100_000);
  });
});
