/**
 * Prompts of the text modes as the model receives them, and `previewPrompt`,
 * which for text agents must show exactly what the first request of a run sends: system prompt,
 * first user message, native tool schemas (combined mode included) and the answer schema.
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, createAgent, previewPrompt, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

async function firstRequest(options: AgentOptions, context: Record<string, unknown> = {}) {
  const agent = createAgent(options);
  const model = createScriptedModel([() => "done"]);
  await run(agent, { llm: model.llm, context });
  const request = model.calls[0];
  if (request === undefined) throw new Error("the model was not called");
  return { agent, request };
}

const searchTool = {
  signature: "(query :string, limit :int?) -> [:any]",
  description: "Search.",
  expose: "both" as const,
  cache: true,
};

const VARIANTS: [string, AgentOptions, Record<string, unknown>][] = [
  ["text-only", { prompt: "Say hi to {{name}}.", output: "text" }, { name: "Ada" }],
  [
    "JSON-only",
    { prompt: "Count {{what}}.", output: "text", signature: "(what :string) -> {n :int}" },
    { what: "x" },
  ],
  [
    "tool variant",
    { prompt: "Find {{what}}.", output: "text", tools: { search: { ...searchTool, execute: () => [] } } },
    { what: "x" },
  ],
  [
    "combined mode",
    {
      prompt: "Find {{what}}.",
      output: "text",
      ptcTransport: "tool_call",
      tools: {
        search: { ...searchTool, execute: () => [] },
        hidden: { expose: "ptc_lisp", execute: () => 1 },
      },
    },
    { what: "x" },
  ],
  ["combined mode without tools", { prompt: "Compute.", output: "text", ptcTransport: "tool_call" }, {}],
];

describe("previewPrompt for text agents", () => {
  for (const [name, options, context] of VARIANTS) {
    it(`matches the first request of a run (${name})`, async () => {
      const { agent, request } = await firstRequest(options, context);
      const preview = previewPrompt(agent, { context });
      expect(preview.system).toBe(request.system);
      expect(preview.user).toBe(request.messages[0]?.content);
      expect(preview.toolSchemas).toEqual(request.tools ?? []);
      expect(preview.schema).toEqual(request.schema ?? null);
    });
  }
});

describe("text-mode prompts", () => {
  it("puts context data, the output format and the mission in the tool variant's first message", async () => {
    const { request } = await firstRequest(
      {
        prompt: "Find {{what}}.",
        output: "text",
        contextDescriptions: { what: "The thing to find" },
        tools: { search: { ...searchTool, execute: () => [] } },
      },
      { what: "logs", region: "eu" },
    );
    expect(request.messages).toEqual([
      {
        role: "user",
        content:
          '<context_data>\n- what: The thing to find = "logs"\n- region = "eu"\n</context_data>\n\n<output_format>\nWhen you have the final answer, return it as plain text.\n</output_format>\n\n<mission>\nFind logs.\n</mission>',
      },
    ]);
  });

  it("asks for a JSON array matching the schema for list signatures, with snake_case keys", async () => {
    const { request } = await firstRequest({
      prompt: "List.",
      output: "text",
      signature: "() -> [{user_id :int}]",
      tools: { search: { ...searchTool, execute: () => [] } },
    });
    const content = request.messages[0]?.content ?? "";
    expect(content).toContain("When you have the final answer, return a JSON array matching this schema:\n{");
    expect(content).toContain('"user_id"');
    expect(content).not.toContain("user-id");
    expect(content).not.toContain("(return");
    expect(content).not.toContain(";; === tools ===");
  });

  it("wraps the tool system prompt with prefix and suffix, then appends the card in combined mode", async () => {
    const { request } = await firstRequest({
      prompt: "Go.",
      output: "text",
      ptcTransport: "tool_call",
      systemPrompt: { prefix: "PREFIX", suffix: "SUFFIX" },
    });
    expect(request.system.startsWith("PREFIX\n\n<role>Use tools to complete the task.</role>")).toBe(true);
    expect(request.system).toContain("\n\nSUFFIX\n\n<ptc_lisp_reference>");
    expect(request.system.endsWith("</ptc_lisp_reference>")).toBe(true);
  });

  it("applies a function system prompt to the text-only base", async () => {
    const { request } = await firstRequest({
      prompt: "Go.",
      output: "text",
      systemPrompt: (base) => `${base} Answer in French.`,
    });
    expect(request.system).toBe("You are a helpful assistant. Answer in French.");
  });
});
