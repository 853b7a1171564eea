import { createTools } from "@ptc/tool";
import { describe, expect, it } from "vitest";
import { toolSchema } from "./lisp-eval-tool.js";
import { requestTools } from "./request-tools.js";

const noop = () => null;
const tools = createTools({
  search_logs: {
    execute: noop,
    signature: "(query :string) -> [:any]",
    description: "Search log events.",
    expose: "both",
    cache: true,
  },
  "grep-n": { execute: noop, signature: "(pattern :string) -> [:string]", expose: "native" },
  summarize: { execute: noop, signature: "(text :string) -> :string", expose: "ptc_lisp" },
  plain: noop,
});

const names = (result: ReturnType<typeof requestTools>) => result?.map((entry) => entry.function.name);

describe("requestTools (seed 002)", () => {
  it("sends exactly one entry, lisp_eval, over the tool_call transport, however many app tools exist", () => {
    const result = requestTools({ output: "ptc_lisp", ptcTransport: "tool_call", tools });
    expect(result).toEqual([toolSchema("in_process_with_app_tools")]);
  });

  it("sends no tools field over the content transport", () => {
    expect(requestTools({ output: "ptc_lisp", ptcTransport: "content", tools })).toBeUndefined();
    expect(requestTools({ tools })).toBeUndefined();
  });
});

describe("requestTools (text modes)", () => {
  it("sends native and both tools, sorted by name, then lisp_eval in combined mode", () => {
    const result = requestTools({ output: "text", ptcTransport: "tool_call", tools });
    expect(names(result)).toEqual(["grep_n", "plain", "search_logs", "lisp_eval"]);
    expect(result?.at(-1)).toEqual(toolSchema("in_process_text_mode"));
    expect(result).toMatchSnapshot();
  });

  it("sends lisp_eval alone in combined mode without tools", () => {
    expect(requestTools({ output: "text", ptcTransport: "tool_call" })).toEqual([
      toolSchema("in_process_text_mode"),
    ]);
  });

  it("sends every tool natively in pure text mode, whatever its expose", () => {
    expect(names(requestTools({ output: "text", tools }))).toEqual([
      "grep_n",
      "plain",
      "search_logs",
      "summarize",
    ]);
    expect(requestTools({ output: "text" })).toBeUndefined();
  });
});
