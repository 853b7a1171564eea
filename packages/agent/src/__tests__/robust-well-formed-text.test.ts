// A lone surrogate (half of an emoji's UTF-16 pair) anywhere in a request makes providers whose
// JSON parser checks Unicode refuse it with HTTP 400, and every later request of the run too, since
// the conversation keeps it. Programs can make one (`"\ud83d"`), tools and host data can hold one.
// Every request a model function receives is well-formed; the lone halves become U+FFFD.
import { describe, expect, test } from "vitest";
import { createAgent, type ModelRequest, previewPrompt, run } from "../index.js";
import { createScriptedModel } from "../testing/index.js";

const fence = (code: string) => `\`\`\`clojure\n${code}\n\`\`\``;
const LONE_HIGH = "\ud83d";
const LONE_LOW = "\ude00";

/** Every string in a request (keys included), as the provider would read them. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (typeof value === "object" && value !== null && !(value instanceof AbortSignal)) {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  }
  return out;
}

const isWellFormed = (text: string) => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

function expectWellFormed(request: ModelRequest | undefined): void {
  expect(request).toBeDefined();
  const bad = strings({ system: request?.system, messages: request?.messages, tools: request?.tools }).filter(
    (text) => !isWellFormed(text),
  );
  expect(bad).toEqual([]);
}

/** A combined-mode agent whose one native tool, `lookup`, has the given description and body. */
function lookupAgent(prompt: string, description: string, execute: (args: { query: string }) => string) {
  return createAgent({
    prompt,
    output: "text",
    ptcTransport: "tool_call",
    tools: { lookup: { description, signature: "(query :string) -> :string", execute } },
  });
}

describe("every request a model receives is well-formed Unicode", () => {
  test("a program's lone surrogate, content transport", async () => {
    const model = createScriptedModel([fence(`(str "a\\ud83d" "b")`), fence("(return 1)")]);
    const result = await run(createAgent({ prompt: "p" }), { llm: model.llm });
    expect(result).toMatchObject({ ok: true, step: { return: 1 } });
    expectWellFormed(model.calls[1]);
    expect(JSON.stringify(model.calls[1]?.messages)).toContain("a\ufffdb");
  });

  test("a program's lone surrogate, tool_call transport", async () => {
    const model = createScriptedModel([
      { content: "", toolCalls: [{ id: "c1", name: "lisp_eval", args: { program: `(str "\\ude00" "x")` } }] },
      { content: "", toolCalls: [{ id: "c2", name: "lisp_eval", args: { program: "(return 1)" } }] },
    ]);
    const result = await run(createAgent({ prompt: "p", ptcTransport: "tool_call" }), { llm: model.llm });
    expect(result.ok).toBe(true);
    expectWellFormed(model.calls[1]);
  });

  test("a native tool's result, its description and the model's own arguments (combined mode)", async () => {
    const model = createScriptedModel([
      { content: "", toolCalls: [{ id: "c1", name: "lookup", args: { query: `q${LONE_HIGH}` } }] },
      "done",
    ]);
    const agent = lookupAgent(
      "p",
      `Looks things up ${LONE_LOW}`,
      ({ query }) => `found ${query} and ${LONE_LOW}`,
    );
    const result = await run(agent, { llm: model.llm });
    expect(result).toMatchObject({ ok: true, step: { return: "done" } });
    expectWellFormed(model.calls[0]);
    expectWellFormed(model.calls[1]);
    // The host still sees what the tool returned, as it returned it.
    expect(result.step.toolCalls[0]?.result).toBe(`found q${LONE_HIGH} and ${LONE_LOW}`);
  });

  test("host data in the prompt and the data inventory", async () => {
    const model = createScriptedModel([fence("(return (count data/rows))")]);
    const agent = createAgent({ prompt: `Count {{label}} rows` });
    const result = await run(agent, {
      llm: model.llm,
      context: { label: `x${LONE_HIGH}`, rows: [{ [`k${LONE_LOW}`]: `v${LONE_HIGH}` }] },
    });
    expect(result).toMatchObject({ ok: true, step: { return: 1 } });
    expectWellFormed(model.calls[0]);
  });

  test("previewPrompt shows the first request as it is sent, lone surrogates replaced", async () => {
    const agent = lookupAgent(`Count {{label}} rows`, `Looks things up ${LONE_LOW}`, () => "x");
    const context = { label: `x${LONE_HIGH}`, rows: [{ [`k${LONE_LOW}`]: `v${LONE_HIGH}` }] };
    const model = createScriptedModel(["done"]);
    await run(agent, { llm: model.llm, context });
    const sent = model.calls[0];
    const preview = previewPrompt(agent, { context });
    expect(preview.system).toBe(sent?.system);
    expect(preview.user).toBe(sent?.messages.at(-1)?.content);
    expect(preview.toolSchemas).toEqual(sent?.tools);
    expect(strings(preview).filter((text) => !isWellFormed(text))).toEqual([]);
  });

  test("text cut to a bound keeps whole characters: a tool's long error, a long context value", async () => {
    // Each cut would fall between an emoji's two halves; the model must not read U+FFFD for it.
    const model = createScriptedModel([
      { content: "", toolCalls: [{ id: "c1", name: "lookup", args: { query: "q" } }] },
      "done",
    ]);
    const agent = lookupAgent("p", "Looks things up", () => {
      throw new Error(`${"e".repeat(1999)}😀 and the rest`);
    });
    const result = await run(agent, { llm: model.llm, context: { label: `${"v".repeat(198)}😀 and more` } });
    expect(result).toMatchObject({ ok: true, step: { return: "done" } });
    const first = JSON.stringify(model.calls[0]?.messages);
    expect(first).toContain(`${"v".repeat(198)}...`);
    const second = JSON.stringify(model.calls[1]?.messages);
    expect(second).toContain(`${"e".repeat(1999)}...`);
    expect(`${first}${second}`).not.toContain("\ufffd");
  });

  test("text that is already well-formed (emoji included) is sent exactly as it was", async () => {
    const model = createScriptedModel([fence(`(str "😀" "é")`), fence("(return 1)")]);
    await run(createAgent({ prompt: "p 😀" }), { llm: model.llm });
    expectWellFormed(model.calls[1]);
    const sent = JSON.stringify(model.calls[1]?.messages);
    expect(sent).toContain("😀é");
    expect(sent).not.toContain("\ufffd");
  });
});

describe("tool names in whole characters", () => {
  test("createAgent refuses a tool whose name holds half of a character", () => {
    expect(() => createAgent({ prompt: "p", tools: { [`lookup${LONE_HIGH}`]: () => 1 } })).toThrow(
      "holds half of a character (a lone UTF-16 surrogate at index 6)",
    );
  });
});
