import { describe, expect, it } from "vitest";
import {
  createTool,
  defaultExpose,
  type ExposeLayer,
  type ExposeMode,
  effectiveExpose,
  filterByExpose,
  ToolError,
} from "./index.js";

const tool = (name: string, expose?: ExposeLayer) => ({ name, expose });

describe("effectiveExpose (seed 000 examples)", () => {
  it("defaults to native in pure text mode", () => {
    expect(effectiveExpose(tool("x"), { output: "text" })).toBe("native");
  });

  it("defaults to native in combined mode (text + tool_call)", () => {
    expect(effectiveExpose(tool("x"), { output: "text", ptcTransport: "tool_call" })).toBe("native");
  });

  it("defaults to ptc_lisp in PTC-Lisp mode", () => {
    expect(effectiveExpose(tool("x"), { output: "ptc_lisp", ptcTransport: "content" })).toBe("ptc_lisp");
  });

  it("returns an explicit expose unchanged", () => {
    expect(effectiveExpose(tool("x", "both"), { output: "text" })).toBe("both");
  });
});

describe("effectiveExpose (policy table)", () => {
  const modes: [string, ExposeMode, ExposeLayer][] = [
    ["text", { output: "text" }, "native"],
    ["text + content", { output: "text", ptcTransport: "content" }, "native"],
    ["text + tool_call", { output: "text", ptcTransport: "tool_call" }, "native"],
    ["ptc_lisp", { output: "ptc_lisp" }, "ptc_lisp"],
    ["ptc_lisp + tool_call", { output: "ptc_lisp", ptcTransport: "tool_call" }, "ptc_lisp"],
    ["output omitted (the agent default, ptc_lisp)", {}, "ptc_lisp"],
  ];

  it.each(modes)("defaults for %s", (_label, mode, expected) => {
    expect(effectiveExpose(tool("x"), mode)).toBe(expected);
    expect(defaultExpose(mode)).toBe(expected);
    for (const explicit of ["native", "ptc_lisp", "both"] as const)
      expect(effectiveExpose(tool("x", explicit), mode)).toBe(explicit);
  });

  it("reads a normalized Tool and an agent-definition-like mode", () => {
    const agent = { output: "text", ptcTransport: "tool_call", maxTurns: 6 } as const;
    expect(effectiveExpose(createTool("t", { execute: () => 1, expose: "ptc_lisp" }), agent)).toBe(
      "ptc_lisp",
    );
    expect(
      effectiveExpose(
        createTool("t", () => 1),
        agent,
      ),
    ).toBe("native");
  });

  it("rejects an unknown output or expose", () => {
    expect(() => defaultExpose({ output: "json" as never })).toThrow(ToolError);
    expect(() => effectiveExpose({ expose: "all" as never }, { output: "text" })).toThrow(
      'invalid expose: "all"',
    );
  });
});

describe("filterByExpose", () => {
  const a = tool("a", "native");
  const b = tool("b", "both");
  const c = tool("c", "ptc_lisp");

  it("keeps the tools whose layer is allowed (seed 000 example)", () => {
    const result = filterByExpose([a, b, c], { output: "text", ptcTransport: "tool_call" }, [
      "native",
      "both",
    ]);
    expect(result.map((entry) => entry.name)).toEqual(["a", "b"]);
  });

  it("keeps a list's order", () => {
    expect(
      filterByExpose([c, b, a], { output: "text" }, ["ptc_lisp", "both", "native"]).map(
        (entry) => entry.name,
      ),
    ).toEqual(["c", "b", "a"]);
  });

  it("turns a record or a Map into a list sorted by name", () => {
    const record = { zeta: tool("zeta", "both"), alpha: tool("alpha", "both"), mid: tool("mid", "native") };
    expect(filterByExpose(record, { output: "text" }, ["both"]).map((entry) => entry.name)).toEqual([
      "alpha",
      "zeta",
    ]);
    const map = new Map(Object.entries(record));
    expect(
      filterByExpose(map, { output: "text" }, new Set<ExposeLayer>(["both", "native"])).map(
        (entry) => entry.name,
      ),
    ).toEqual(["alpha", "mid", "zeta"]);
  });

  it("applies the mode's default to tools without expose", () => {
    const tools = [tool("plain"), b];
    expect(
      filterByExpose(tools, { output: "text", ptcTransport: "tool_call" }, ["ptc_lisp", "both"]).map(
        (entry) => entry.name,
      ),
    ).toEqual(["b"]);
    expect(
      filterByExpose(tools, { output: "ptc_lisp" }, ["ptc_lisp", "both"]).map((entry) => entry.name),
    ).toEqual(["plain", "b"]);
  });

  it("returns nothing when nothing is allowed", () => {
    expect(filterByExpose([a, b, c], { output: "text" }, [])).toEqual([]);
  });
});
