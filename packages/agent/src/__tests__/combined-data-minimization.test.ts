/**
 * Data minimization in combined mode: no value of a tool whose preview policy shows none (the
 * metadata preview, a custom preview, a program-only tool) reaches the model unless a program
 * returns or prints it. A multi-turn conversation with native calls, defs, derived values,
 * functions, `*1`, `data/fail` and failing programs never sends the secret in a request until
 * the program that prints it; a tool with a rows preview shows its values as before.
 */
import { describe, expect, it } from "vitest";
import { type AgentToolDefinition, createAgent, type ModelRequest, run } from "../index.js";
import { createScriptedModel, type ScriptedStep } from "../testing/index.js";

const SECRET = "SECRET-7f3a";
const VISIBLE = "VISIBLE-91c2";

const rows = Array.from({ length: 30 }, (_, index) => ({
  id: index + 1,
  user: `${SECRET}-user-${index}`,
  message: `error code 42 for ${SECRET}`,
}));

function tools(): Record<string, AgentToolDefinition> {
  return {
    search_logs: {
      signature: "(query :string) -> [:any]",
      description: "Search log events.",
      expose: "both",
      cache: true,
      nativeResult: { preview: "metadata" },
      execute: () => rows,
    },
    owner_of: {
      signature: "(id :int) -> :any",
      description: "Owner of an event (programs only).",
      expose: "ptc_lisp",
      execute: () => ({ owner: `${SECRET}-owner` }),
    },
    custom_scores: {
      signature: "() -> [:any]",
      expose: "both",
      cache: true,
      nativeResult: { preview: (full: unknown) => ({ count: (full as unknown[]).length }) },
      execute: () => [{ score: 7, holder: `${SECRET}-holder` }],
    },
    recent: {
      signature: "() -> [:any]",
      expose: "both",
      cache: true,
      nativeResult: { preview: "rows", limit: 5 },
      execute: () => [{ note: VISIBLE }],
    },
  };
}

const native = (id: string, name: string, args: Record<string, unknown>): ScriptedStep => ({
  toolCalls: [{ id, name, args }],
});
const lispEval = (id: string, program: string): ScriptedStep => ({
  toolCalls: [{ id, name: "lisp_eval", args: { program } }],
});

/** Everything the model was sent in one request, as text in lower case (derived values differ in case). */
function requestText(request: ModelRequest): string {
  return JSON.stringify({
    system: request.system,
    messages: request.messages,
    tools: request.tools,
  }).toLowerCase();
}

/** The tool message that answers a call id, parsed. */
function toolAnswer(request: ModelRequest | undefined, id: string): Record<string, unknown> {
  const message = request?.messages.find((entry) => entry.role === "tool" && entry.toolCallId === id);
  return JSON.parse(message?.content ?? "{}") as Record<string, unknown>;
}

describe("combined mode keeps hidden tool values out of the model's context", () => {
  it("never sends a hidden value until a program prints it", async () => {
    const script: ScriptedStep[] = [
      native("c1", "search_logs", { query: "error code 42" }),
      lispEval(
        "c2",
        [
          '(def rows (tool/search_logs {:query "error code 42"}))',
          "(def n (count rows))",
          "(def users (map :user rows))",
          "(def first-row (first rows))",
          '(def joined (str/join "," users))',
          "(defn pick [] (first rows))",
          '(def label "plain text")',
          "(def r (tool/recent {}))",
          "n",
        ].join("\n"),
      ),
      lispEval("c3", "(+ 1 (first rows))"),
      lispEval("c4", "(def why (:message data/fail))"),
      lispEval("c5", "(let [k (keyword (:user (first rows)))] (k 1 2 3))"),
      lispEval("c6", "(LocalDate/parse (:user first-row))"),
      lispEval("c7", "(def picked (pick))"),
      lispEval("c8", "(count users)"),
      lispEval("c9", "(def again *1)"),
      lispEval("c10", "(def owner (tool/owner_of {:id 1}))\n(def scores (tool/custom_scores {}))"),
      native("c11", "search_logs", { query: "error code 42" }),
      lispEval("c12", "(str/upper-case (:user first-row))\n(+ 1 (str/upper-case (:user first-row)))"),
      lispEval("c13", "(println (:user first-row))"),
      "There were 30 errors.",
    ];
    const model = createScriptedModel(script);
    const agent = createAgent({
      prompt: "Investigate the errors.",
      output: "text",
      ptcTransport: "tool_call",
      maxTurns: script.length,
      tools: tools(),
    });
    const result = await run(agent, { llm: model.llm });
    model.assertConsumed();
    expect(result.step.return).toBe("There were 30 errors.");

    const requests = model.calls;
    const last = requests.at(-1) as ModelRequest;
    // Every request before the answer to the printing program is free of the secret.
    for (const [index, request] of requests.slice(0, -1).entries()) {
      expect(requestText(request), `request ${index + 1}`).not.toContain(SECRET.toLowerCase());
    }
    // In the last one, only the printing program's answer holds it, inside its envelopes.
    const printed = toolAnswer(last, "c13");
    expect(printed.prints).toEqual([
      `<untrusted_ptc_output source="println">\n${SECRET}-user-0\n</untrusted_ptc_output>`,
    ]);
    const withoutPrint = last.messages.filter((message) => message.toolCallId !== "c13");
    expect(JSON.stringify(withoutPrint).toLowerCase()).not.toContain(SECRET.toLowerCase());

    // Hidden bindings are previewed by shape; the plain one and the rows-preview tool's are not.
    const defs = toolAnswer(last, "c2") as { memory: { changed: Record<string, string> }; result: string };
    const shapes = Object.fromEntries(
      Object.entries(defs.memory.changed).map(([name, text]) => [name, text.split("\n")[1]]),
    );
    expect(shapes).toMatchObject({
      rows: "<vector of 30 maps>",
      n: "<integer>",
      users: "<vector of 30 strings>",
      "first-row": "<map of 3 entries>",
      joined: "<string>",
      label: '"plain text"',
    });
    expect(shapes.r).toContain(VISIBLE);
    // The program's own value is shown: it asked for it.
    expect(defs.result).toContain("user=> 30");

    // Errors keep what went wrong and where, without the values.
    const typeError = toolAnswer(last, "c3") as { message: string };
    expect(typeError.message).toContain("add: invalid argument types: integer, map");
    const keywordError = toolAnswer(last, "c5") as { message: string };
    expect(keywordError.message).toContain("called with 3 arguments");

    for (const [id, name] of [
      ["c4", "why"],
      ["c7", "picked"],
      ["c9", "again"],
      ["c10", "owner"],
      ["c10", "scores"],
    ] as const) {
      const changed = (toolAnswer(last, id) as { memory: { changed: Record<string, string> } }).memory
        .changed;
      expect(changed[name], `${id} ${name}`).toMatch(/\n<[a-z]/);
    }

    // Nothing is lost for the host: the step keeps the full results and the full error messages.
    expect(JSON.stringify(result.step.toolCalls)).toContain(SECRET);
    const failed = result.step.toolCalls.find((call) => call.name === "lisp_eval" && call.id === "c5");
    expect(failed?.error).toContain(SECRET);
  });

  it("shows the values of a tool whose native result shows them: no cache, or a rows preview", async () => {
    const model = createScriptedModel([
      lispEval("c1", "(def a (tool/plain {}))\n(def b (tool/rowsy {}))"),
      "done",
    ]);
    const agent = createAgent({
      prompt: "p",
      output: "text",
      ptcTransport: "tool_call",
      tools: {
        plain: { expose: "both", execute: () => ({ v: VISIBLE }) },
        rowsy: { expose: "both", cache: true, nativeResult: { preview: "rows" }, execute: () => [VISIBLE] },
      },
    });
    await run(agent, { llm: model.llm });
    const changed = (toolAnswer(model.calls[1], "c1") as { memory: { changed: Record<string, string> } })
      .memory.changed;
    expect(changed.a).toContain(VISIBLE);
    expect(changed.b).toContain(VISIBLE);
  });
});
