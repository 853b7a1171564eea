import { describe, expect, it } from "vitest";
import { MAX_TOOL_NAME_LENGTH, ptcToolName, ptcToolNames } from "./tool-names.js";

describe("the naming rule", () => {
  it("is <server>__<tool>", () => {
    expect(ptcToolName("memory__", "read_graph")).toBe("memory__read_graph");
    expect(ptcToolName("", "read_graph")).toBe("read_graph");
  });

  it("replaces characters outside letters, digits, _ and - with _", () => {
    expect(ptcToolName("gh__", "repos.list/all")).toBe("gh__repos_list_all");
    expect(ptcToolName("x__", "get-sum")).toBe("x__get-sum");
  });

  it("cuts long names to 64 characters and keeps them apart with a hash", () => {
    const a = ptcToolName("server__", `${"a".repeat(80)}1`);
    const b = ptcToolName("server__", `${"a".repeat(80)}2`);
    expect(a).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(b).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^server__a+_[0-9a-f]{8}$/);
  });

  it("tells apart two tools that sanitize to the same name", () => {
    const names = ptcToolNames("s__", ["a.b", "a_b"]);
    expect(names.get("a.b")).toBe("s__a_b");
    expect(names.get("a_b")).toMatch(/^s__a_b_[0-9a-f]{8}$/);
  });

  it("gives a name listed twice its one name", () => {
    const names = ptcToolNames("s__", ["echo", "echo"]);
    expect([...names]).toEqual([["echo", "s__echo"]]);
  });
});
