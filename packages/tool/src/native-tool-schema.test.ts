import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createTool, resolveToolName, sanitizeToolName, toNativeToolSchema } from "./index.js";

const noop = () => null;

describe("toNativeToolSchema", () => {
  it("renders the OpenAI function format from a signature", () => {
    expect(
      toNativeToolSchema(
        createTool("grep-n", {
          execute: noop,
          signature: "(pattern :string, text :string, context :int?) -> [{line :int}]",
          description: "Grep with line numbers.",
        }),
      ),
    ).toMatchSnapshot();
  });

  it("renders an empty parameter object without description when there is neither", () => {
    expect(toNativeToolSchema(createTool("now", noop))).toMatchSnapshot();
  });

  it("renders a zod schema's parameters", () => {
    expect(
      toNativeToolSchema(
        createTool("search", {
          execute: noop,
          parameters: z.object({ query: z.string().describe("What to find") }),
        }),
      ),
    ).toMatchSnapshot();
  });
});

describe("sanitizeToolName and resolveToolName", () => {
  it("replaces hyphens and maps a sanitized name back to its tool, exact names first", () => {
    expect(sanitizeToolName("grep-n")).toBe("grep_n");
    const tools = [{ name: "grep-n" }, { name: "search" }, { name: "a_b" }, { name: "a-b" }];
    expect(resolveToolName("grep_n", tools)?.name).toBe("grep-n");
    expect(resolveToolName("grep-n", tools)?.name).toBe("grep-n");
    expect(resolveToolName("a_b", tools)?.name).toBe("a_b");
    expect(resolveToolName("missing", tools)).toBeUndefined();
  });
});
