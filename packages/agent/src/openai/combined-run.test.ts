import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readToolBody } from "../__tests__/read-tool-body.js";
import { createAgent, run } from "../index.js";
import { createOpenAIModel } from "./index.js";

// A whole combined-mode run against a local server speaking Chat Completions: the seed's
// transcript shape (native search_logs call → metadata preview → lisp_eval over the cached rows →
// final text) travels over real HTTP, as JSON and as server-sent events.

// biome-ignore lint/suspicious/noExplicitAny: the server reads arbitrary request bodies.
type Body = any;

let server: Server;
let baseURL: string;
let bodies: Body[] = [];
let streamed = false;

const ROWS = Array.from({ length: 1842 }, (_, index) => ({
  id: index + 1,
  timestamp: `2026-11-24T06:${String(index % 60).padStart(2, "0")}:00Z`,
  message: "error code 42",
}));

const PROGRAM = '(def rows (tool/search_logs {:query "error code 42"}))\n(return {:total (count rows)})';

/** The assistant turns the "model" plays, chosen by how many turns came before. */
function assistantTurn(body: Body): { content: string | null; tool_calls?: unknown[] } {
  const assistants = body.messages.filter((message: Body) => message.role === "assistant").length;
  if (assistants === 0) {
    return {
      content: null,
      tool_calls: [
        {
          id: "call_1",
          type: "function",
          function: { name: "search_logs", arguments: '{"query":"error code 42"}' },
        },
      ],
    };
  }
  if (assistants === 1) {
    return {
      content: null,
      tool_calls: [
        {
          id: "call_2",
          type: "function",
          function: { name: "lisp_eval", arguments: JSON.stringify({ program: PROGRAM }) },
        },
      ],
    };
  }
  const last = body.messages.at(-1);
  const total = (readToolBody(last.content).result as string).match(/:total (\d+)/)?.[1];
  return { content: `There were ${total} errors with code 42 in the queried window.` };
}

function sendJson(response: ServerResponse, turn: ReturnType<typeof assistantTurn>): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(
    JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: { role: "assistant", ...turn },
          finish_reason: turn.tool_calls ? "tool_calls" : "stop",
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    }),
  );
}

function sendStream(response: ServerResponse, turn: ReturnType<typeof assistantTurn>): void {
  response.writeHead(200, { "content-type": "text/event-stream" });
  const event = (delta: unknown) =>
    response.write(
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta }] })}\n\n`,
    );
  if (turn.tool_calls !== undefined) {
    for (const [index, call] of (turn.tool_calls as Body[]).entries()) {
      const args: string = call.function.arguments;
      // The arguments arrive in two pieces, as providers send them.
      event({
        tool_calls: [
          {
            index,
            id: call.id,
            type: "function",
            function: { name: call.function.name, arguments: args.slice(0, 7) },
          },
        ],
      });
      event({ tool_calls: [{ index, function: { arguments: args.slice(7) } }] });
    }
  } else {
    const text = turn.content ?? "";
    for (let i = 0; i < text.length; i += 10) event({ content: text.slice(i, i + 10) });
  }
  response.write(
    `data: ${JSON.stringify({ id: "c", choices: [], usage: { prompt_tokens: 100, completion_tokens: 10 } })}\n\n`,
  );
  response.end("data: [DONE]\n\n");
}

beforeAll(async () => {
  server = createServer((incoming, response) => {
    const parts: Buffer[] = [];
    incoming.on("data", (part: Buffer) => parts.push(part));
    incoming.on("end", () => {
      const body = JSON.parse(Buffer.concat(parts).toString("utf8"));
      bodies.push(body);
      const turn = assistantTurn(body);
      if (body.stream === true) {
        streamed = true;
        sendStream(response, turn);
      } else sendJson(response, turn);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function logAgent(counter: { calls: number }) {
  return createAgent({
    prompt: "How many errors with code 42 last hour?",
    output: "text",
    ptcTransport: "tool_call",
    maxTurns: 6,
    tools: {
      search_logs: {
        execute: () => {
          counter.calls += 1;
          return ROWS;
        },
        signature: "(query :string) -> [:any]",
        description: "Search log events.",
        expose: "both",
        cache: true,
        nativeResult: { preview: "metadata" },
      },
    },
  });
}

describe.each([
  ["as JSON", false],
  ["streamed over server-sent events", true],
])("a combined-mode run through createOpenAIModel, %s", (_label, stream) => {
  it("follows the seed transcript: native call, preview, lisp_eval over the cache, final text", async () => {
    bodies = [];
    streamed = false;
    const counter = { calls: 0 };
    const chunks: string[] = [];
    const result = await run(logAgent(counter), {
      llm: createOpenAIModel({ model: "test-model", baseURL }),
      collectMessages: true,
      ...(stream ? { onChunk: ({ delta }: { delta: string }) => chunks.push(delta) } : {}),
    });

    expect(result.ok).toBe(true);
    expect(result.step.return).toBe("There were 1842 errors with code 42 in the queried window.");
    expect(counter.calls).toBe(1);
    expect(streamed).toBe(stream);
    if (stream) expect(chunks.join("")).toBe(result.step.return);
    expect(bodies).toHaveLength(3);

    // Turn 1 offers search_logs natively and lisp_eval.
    expect(bodies[0].tools.map((tool: Body) => tool.function.name)).toEqual(["search_logs", "lisp_eval"]);
    // Turn 2 carries the preview, not the rows.
    const preview = JSON.parse(bodies[1].messages.at(-1).content);
    expect(bodies[1].messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(preview).toEqual({
      status: "ok",
      result_count: 1842,
      schema: {
        type: "array",
        items: { type: "object", properties: { id: "integer", message: "string", timestamp: "string" } },
      },
      sample_keys: ["id", "message", "timestamp"],
      full_result_cached: true,
      cache_hint:
        'Call lisp_eval and then call (tool/search_logs {:query "error code 42"}) to process the full cached result.',
    });
    // Turn 3 carries the program's result, computed over the cached rows.
    const programResult = readToolBody(bodies[2].messages.at(-1).content);
    expect(bodies[2].messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_2" });
    expect(programResult).toMatchObject({ status: "ok", result: "user=> {:total 1842}" });
    expect(
      result.step.toolCalls.find((call) => call.name === "search_logs" && call.cached === true),
    ).toBeDefined();
    expect(result.step.usage.inputTokens).toBe(300);
  });
});
