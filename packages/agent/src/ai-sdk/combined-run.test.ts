import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { expect, it } from "vitest";
import { readToolBody } from "../__tests__/read-tool-body.js";
import { createAgent, run } from "../index.js";
import { fromLanguageModel } from "./index.js";

// A whole combined-mode run through an AI SDK language model: the model sees the preview as a
// tool result, calls lisp_eval, and the program reads the cached rows.

const ROWS = Array.from({ length: 1842 }, (_, index) => ({ id: index, message: "error code 42" }));

function generated(content: LanguageModelV3GenerateResult["content"]): LanguageModelV3GenerateResult {
  return {
    content,
    finishReason: {
      unified: content.some((part) => part.type === "tool-call") ? "tool-calls" : "stop",
      raw: "stop",
    },
    usage: {
      inputTokens: { total: 100, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 10, text: undefined, reasoning: undefined },
    },
    warnings: [],
  };
}

it("runs the seed's transcript shape through fromLanguageModel", async () => {
  const turns = [
    generated([
      {
        type: "tool-call",
        toolCallId: "call_1",
        toolName: "search_logs",
        input: '{"query":"error code 42"}',
      },
    ]),
    generated([
      {
        type: "tool-call",
        toolCallId: "call_2",
        toolName: "lisp_eval",
        input: JSON.stringify({
          program: '(return {:total (count (tool/search_logs {:query "error code 42"}))})',
        }),
      },
    ]),
    generated([{ type: "text", text: "1842 errors." }]),
  ];
  const prompts: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options);
      const next = turns.shift();
      if (next === undefined) throw new Error("no more turns");
      return next;
    },
  });
  let calls = 0;
  const agent = createAgent({
    prompt: "How many errors with code 42?",
    output: "text",
    ptcTransport: "tool_call",
    tools: {
      search_logs: {
        execute: () => {
          calls += 1;
          return ROWS;
        },
        signature: "(query :string) -> [:any]",
        expose: "both",
        cache: true,
      },
    },
  });
  const result = await run(agent, { llm: fromLanguageModel(model) });

  expect(result.ok).toBe(true);
  expect(result.step.return).toBe("1842 errors.");
  expect(calls).toBe(1);
  expect(prompts[0]?.tools?.map((tool) => tool.name)).toEqual(["search_logs", "lisp_eval"]);
  // The second request carries the preview as the tool result of call_1.
  const toolMessage = prompts[1]?.prompt.at(-1);
  expect(toolMessage?.role).toBe("tool");
  const part = toolMessage?.role === "tool" ? toolMessage.content[0] : undefined;
  expect(part).toMatchObject({ type: "tool-result", toolCallId: "call_1", toolName: "search_logs" });
  const preview = JSON.parse((part as { output: { value: string } }).output.value);
  expect(preview).toMatchObject({ status: "ok", result_count: 1842, full_result_cached: true });
  // The third carries the program's result, computed from the cache.
  const programMessage = prompts[2]?.prompt.at(-1) as
    | { content: { output: { value: string } }[] }
    | undefined;
  const programPart = programMessage?.content[0];
  expect(readToolBody(programPart?.output.value ?? "{}")).toMatchObject({
    status: "ok",
    result: "user=> {:total 1842}",
  });
});
