import { describe, expect, it } from "vitest";
import {
  createTool,
  createTools,
  findUnknownKeys,
  isToolError,
  nearestName,
  type ToolError,
} from "./index.js";

const execute = () => 1;

function definitionError(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (isToolError(error)) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("unknown keys of a tool definition", () => {
  it("names a misspelled option and the one it most likely meant", () => {
    const error = definitionError(() =>
      createTool("search", { execute, exposed: "both" } as unknown as Parameters<typeof createTool>[1]),
    );
    expect(error.code).toBe("PTC_TOOL_INVALID_DEFINITION");
    expect(error.message).toContain('tool "search": unknown option "exposed" (did you mean "expose"?)');
    expect(error.details).toMatchObject({ tool: "search", option: "exposed", suggestion: "expose" });
  });

  it("lists every unknown key, and what a definition takes", () => {
    const error = definitionError(() =>
      createTools({ search: { execute, cached: true, timeout: 5 } as never }),
    );
    expect(error.message).toContain('unknown option "cached" (did you mean "cache"?)');
    expect(error.message).toContain('unknown option "timeout" (did you mean "timeoutMs"?)');
    expect(error.message).toContain("a tool definition takes execute, signature, parameters");
    expect(error.details.unknownKeys).toEqual(["cached", "timeout"]);
  });

  it("checks the keys of nativeResult too", () => {
    const error = definitionError(() =>
      createTool("rows", {
        execute,
        expose: "both",
        cache: true,
        nativeResult: { previwe: "rows" } as never,
      }),
    );
    expect(error.message).toContain('nativeResult: unknown option "previwe" (did you mean "preview"?)');
  });

  it("accepts a normalized tool given again under another name", () => {
    const tool = createTool("a", { execute, description: "one" });
    expect(createTool("b", tool as never).description).toBe("one");
  });
});

describe("nearestName", () => {
  it("suggests a near name, a name one extends, and nothing for a stranger", () => {
    expect(nearestName("maxTurn", ["maxTurns", "maxDepth"])).toBe("maxTurns");
    expect(nearestName("timeoutMs", ["timeout", "toolTimeoutMs"])).toBe("timeout");
    expect(nearestName("colour", ["expose", "cache"])).toBeUndefined();
  });

  it("finds unknown keys, undefined values included", () => {
    expect(findUnknownKeys({ a: 1, b: undefined }, ["a"])).toEqual([{ key: "b", suggestion: undefined }]);
  });
});
