import { describe, expect, it } from "vitest";
import { createAgent, ModelCallError, run } from "../index.js";
import type { ModelRequest } from "../model/model-types.js";
import { fromLanguageModel } from "./index.js";

// A LanguageModelV3 written by hand, and badly: it returns shapes V3 does not allow, throws
// values that are not Errors, or streams forever. Each run must end, with the model's failure
// named as a ModelCallError, and a stream the run gives up on must be cancelled.

/** A model object with these two methods; the casts are the point: V3's types do not hold. */
function hostileModel(doStream: () => unknown, doGenerate: () => unknown = doStream) {
  return fromLanguageModel({
    specificationVersion: "v3",
    provider: "hostile",
    modelId: "hostile",
    supportedUrls: {},
    doGenerate,
    doStream,
  } as never);
}

/** A stream of `parts` that then closes, fails with `failure`, or stays open. */
function partStream(parts: unknown[], end: { readonly fail?: unknown; readonly open?: boolean } = {}) {
  const state = { cancelled: false };
  const stream = new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      if ("fail" in end) controller.error(end.fail);
      else if (end.open !== true) controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const textAgent = (extra: Record<string, unknown> = {}) =>
  createAgent({ prompt: "Say something.", output: "text", maxTurns: 1, ...extra });

const request = (stream: boolean): ModelRequest => ({
  system: "s",
  messages: [{ role: "user", content: "hi" }],
  ...(stream ? { stream: () => {} } : {}),
});

async function callFailure(call: unknown): Promise<ModelCallError> {
  const error = await Promise.resolve(call).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe("fromLanguageModel with a model that breaks V3", () => {
  it("missionTimeout cancels a stream that never ends", async () => {
    const endless = partStream([{ type: "text-delta", id: "1", delta: "a" }], { open: true });
    const result = await run(textAgent({ missionTimeout: 300 }), {
      llm: hostileModel(() => ({ stream: endless.stream })),
      onChunk: () => {},
    });
    expect(result.step.fail?.reason).toBe("mission_timeout");
    expect(endless.state.cancelled).toBe(true);
  });

  it("keeps the answer when the finish part's usage is null", async () => {
    const parts = [
      { type: "text-delta", id: "1", delta: "hello" },
      { type: "finish", usage: null, finishReason: { unified: "stop", raw: "stop" } },
    ];
    const result = await run(textAgent(), {
      llm: hostileModel(() => ({ stream: partStream(parts).stream })),
      onChunk: () => {},
    });
    expect(result.step.return).toBe("hello");
  });

  it("takes a tool call's input given as an object, and names any other non-text input", async () => {
    const model = hostileModel(() => ({
      stream: partStream([
        { type: "tool-call", toolCallId: "a", toolName: "t", input: { x: 1 } },
        { type: "tool-call", toolCallId: "b", toolName: "t", input: 7 },
        { type: "tool-input-start", id: "c", toolName: "t" },
        { type: "tool-input-delta", id: "c" },
        { type: "tool-input-delta", id: "c", delta: '{"y":2}' },
      ]).stream,
    }));
    const response = await model(request(true));
    expect(typeof response === "object" && response.toolCalls).toEqual([
      { id: "a", name: "t", args: { x: 1 } },
      { id: "b", name: "t", args: {}, argsError: "Tool arguments must be JSON text, got number" },
      { id: "c", name: "t", args: { y: 2 } },
    ]);
  });

  it.each([
    ["a null part", () => ({ stream: partStream([null]).stream })],
    ["a string part", () => ({ stream: partStream(["hello"]).stream })],
    ["no stream", () => ({})],
    ["a stream that is a number", () => ({ stream: 5 })],
  ])("fails with invalid_response on %s", async (_label, doStream) => {
    const error = await callFailure(hostileModel(doStream)(request(true)));
    expect(error.code).toBe("invalid_response");
  });

  it("fails with invalid_response when doGenerate returns no content array", async () => {
    const model = hostileModel(
      () => ({}),
      () => ({ content: null }),
    );
    expect((await callFailure(model(request(false)))).code).toBe("invalid_response");
  });

  it("skips parts of doGenerate's content that are not objects", async () => {
    const model = hostileModel(
      () => ({}),
      () => ({ content: [null, 3, { type: "text", text: "ok" }], usage: null }),
    );
    expect(await model(request(false))).toEqual({ content: "ok" });
  });

  it("a stream that fails with a non-Error after partial text is a server_error", async () => {
    const failing = partStream([{ type: "text-delta", id: "1", delta: "par" }], { fail: { weird: true } });
    const error = await callFailure(hostileModel(() => ({ stream: failing.stream }))(request(true)));
    expect(error.code).toBe("server_error");
    expect(error.message).toContain('{"weird":true}');
  });

  it("an error part of megabytes gives a bounded message, and the whole providerMessage", async () => {
    const huge = "x".repeat(5_000_000);
    const model = hostileModel(() => ({ stream: partStream([{ type: "error", error: huge }]).stream }));
    const error = await callFailure(model(request(true)));
    expect(error.message.length).toBeLessThan(2000);
    expect(error.providerMessage).toBe(huge);
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a number", 42],
  ])("a doStream that throws %s fails the run with llm_error", async (_label, thrown) => {
    const result = await run(textAgent(), {
      llm: hostileModel(() => {
        throw thrown;
      }),
      onChunk: () => {},
    });
    expect(result.step.fail?.reason).toBe("llm_error");
  });
});
