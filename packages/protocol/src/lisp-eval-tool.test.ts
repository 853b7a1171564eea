import { encode } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { LISP_EVAL_TOOL_NAME, type ToolProfile, toolDescription, toolSchema } from "./lisp-eval-tool.js";

const PROFILES: ToolProfile[] = ["in_process_with_app_tools", "in_process_text_mode", "mcp_no_tools"];

describe("toolSchema (seed 002 example)", () => {
  it("is an OpenAI function named lisp_eval that requires `program`", () => {
    const schema = toolSchema();
    expect(schema.type).toBe("function");
    expect(schema.function.name).toBe("lisp_eval");
    expect(schema.function.parameters.required).toEqual(["program"]);
  });
});

describe("toolSchema", () => {
  it("renders the tool-call transport schema", () => {
    expect(toolSchema("in_process_with_app_tools")).toMatchSnapshot();
  });

  it("differs between profiles only in the description", () => {
    const [first, ...others] = PROFILES.map((profile) => toolSchema(profile));
    for (const other of others) {
      expect({ ...other, function: { ...other.function, description: "" } }).toEqual({
        ...first,
        function: { ...first?.function, description: "" },
      });
    }
  });

  it("reserves the name lisp_eval", () => {
    expect(LISP_EVAL_TOOL_NAME).toBe("lisp_eval");
  });
});

describe("toolDescription", () => {
  it("has one fixed string per profile", () => {
    expect(
      Object.fromEntries(PROFILES.map((profile) => [profile, toolDescription(profile)])),
    ).toMatchSnapshot();
    expect(new Set(PROFILES.map((profile) => toolDescription(profile))).size).toBe(3);
    expect(toolDescription()).toBe(toolDescription("in_process_with_app_tools"));
  });

  it("states each profile's capabilities", () => {
    expect(toolDescription("in_process_with_app_tools")).toContain("only lisp_eval is native");
    expect(toolDescription("in_process_with_app_tools")).toContain(
      "Call app tools inside it as (tool/name {...})",
    );
    // Combined mode: how programs call tools is the reference card's to say; the schema says
    // only what a turn may hold.
    expect(toolDescription("in_process_text_mode")).toContain("Call no other tool in the same turn");
    expect(toolDescription("mcp_no_tools")).toContain("No app tools inside");
    expect(toolDescription("mcp_no_tools")).toContain("pass data in `context`");
    expect(toolDescription("mcp_no_tools")).toContain("Each call is independent");
  });

  it("rejects an unknown profile", () => {
    expect(() => toolDescription("full" as ToolProfile)).toThrow("unknown lisp_eval profile: full");
  });
});

describe("the schema's size", () => {
  // Sent with every request: at most 80 o200k tokens as JSON, whatever the profile.
  it.each(["in_process_with_app_tools", "in_process_text_mode", "mcp_no_tools"] as const)("%s", (profile) => {
    expect(encode(JSON.stringify(toolSchema(profile))).length).toBeLessThanOrEqual(80);
  });
});
