import { describe, expect, it } from "vitest";
import type { ExecutionFeedback } from "./execution-feedback-types.js";
import { renderSuccess } from "./render-success.js";

function execution(overrides: Partial<ExecutionFeedback> = {}): ExecutionFeedback {
  return {
    feedback: "ok",
    prints: [],
    result: "user=> 3",
    memory: { changed: {}, storedKeys: [], truncated: false },
    visibleTruncated: false,
    truncated: false,
    ...overrides,
  };
}

const parse = (json: string) => JSON.parse(json) as Record<string, unknown>;

describe("renderSuccess", () => {
  it("renders status, result, prints, feedback, truncated and memory", () => {
    const json = renderSuccess(
      { value: 3 },
      {
        execution: execution({
          prints: ["hi"],
          memory: { changed: { total: "1842" }, storedKeys: ["rows", "total"], truncated: false },
        }),
      },
    );
    expect(json).toMatchSnapshot();
    expect(Object.keys(parse(json))).toEqual([
      "status",
      "result",
      "prints",
      "feedback",
      "truncated",
      "memory",
    ]);
  });

  it("drops result when there is no preview: a nil value, or a def's var", () => {
    expect(
      parse(renderSuccess({ value: null }, { execution: execution({ result: null }) })),
    ).not.toHaveProperty("result");
    expect(
      parse(renderSuccess({ value: undefined }, { execution: execution({ result: null }) })),
    ).not.toHaveProperty("result");
    expect(
      parse(renderSuccess({ value: "a var" }, { execution: execution({ result: null }) })),
    ).not.toHaveProperty("result");
    expect(parse(renderSuccess({ value: null }, { execution: execution({ result: "x" }) }))).toHaveProperty(
      "result",
      "x",
    );
  });

  it("leaves memory out on request, and then reports only visible truncation", () => {
    const cut = execution({
      truncated: true,
      visibleTruncated: false,
      memory: { changed: {}, storedKeys: [], truncated: true },
    });
    expect(parse(renderSuccess({ value: 1 }, { execution: cut }))).toMatchObject({
      truncated: true,
      memory: { truncated: true },
    });
    const oneShot = parse(renderSuccess({ value: 1 }, { execution: cut, includeMemory: false }));
    expect(oneShot).not.toHaveProperty("memory");
    expect(oneShot.truncated).toBe(false);
  });

  it("adds validated only when given, even when it is null", () => {
    expect(parse(renderSuccess({ value: 1 }, { execution: execution() }))).not.toHaveProperty("validated");
    expect(
      parse(renderSuccess({ value: 1 }, { execution: execution(), validated: { count: 1 } })).validated,
    ).toEqual({ count: 1 });
    expect(parse(renderSuccess({ value: 1 }, { execution: execution(), validated: null }))).toHaveProperty(
      "validated",
      null,
    );
  });
});
