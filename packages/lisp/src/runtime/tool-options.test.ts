/**
 * Tools as `run` takes them: functions, or any object with `execute` (and optionally `validate`
 * and `signature`), which is what @ptc/tool's `Tool` is. packages/protocol/src/tools-together.test.ts
 * runs real @ptc/tool tools through `run`.
 */
import { describe, expect, test } from "vitest";
import { format, type HostTool, LispError, run, type ToolObject } from "../index.js";

describe("a tool object", () => {
  test("is called through its execute method, keeping its this", async () => {
    const tool = {
      rows: [{ id: 1 }, { id: 2 }],
      execute(this: { rows: unknown[] }, args: Record<string, unknown>) {
        return this.rows.slice(0, Number(args.limit));
      },
    };
    const result = await run("(count (tool/rows {:limit 1}))", { tools: { rows: tool } });
    expect(result.ok && result.value).toBe(1);
  });

  test("receives the run's signal as its second argument", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const result = await run("(tool/t {})", {
      signal: controller.signal,
      tools: {
        t: (_args, options) => {
          seen = options.signal;
          return 1;
        },
      },
    });
    expect(result.ok).toBe(true);
    expect(seen).toBe(controller.signal);
  });

  test("with validate: arguments that do not fit fail the call before execute runs", async () => {
    let executed = 0;
    const tool: ToolObject = {
      execute: () => {
        executed++;
        return [];
      },
      validate: (args) =>
        typeof args.query === "string"
          ? { ok: true }
          : { ok: false, message: `query: expected string, got ${typeof args.query}` },
      signature: "(query :string) -> [:any]",
    };
    const result = await run("(tool/search {:query 42})", { tools: { search: tool } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ reason: "invalid_tool_args", line: 1, column: 1 });
    expect(result.error.message).toBe(
      "tool/search was called with arguments that do not fit: query: expected string, got number. Its signature: (query :string) -> [:any]",
    );
    expect(executed).toBe(0);
    expect(result.toolCalls).toMatchObject([{ name: "search", args: { query: 42 } }]);
  });

  test("with validate: the validated value is what execute receives (a schema's defaults)", async () => {
    const tool: ToolObject = {
      execute: (args) => args,
      validate: async (args) => ({ ok: true, value: { limit: 10, ...args } }),
    };
    const result = await run('(tool/search {:query "x"})', { tools: { search: tool } });
    expect(result.ok && format(result.value)).toBe('{"limit" 10 "query" "x"}');
  });

  test("a validate that returns something else fails the call as a tool error", async () => {
    const tool = { execute: () => 1, validate: () => "fine" } as unknown as HostTool;
    const result = await run("(tool/t {})", { tools: { t: tool } });
    expect(!result.ok && result.error.reason).toBe("tool_error");
  });

  test("anything else is a host mistake, rejected before the program runs", async () => {
    await expect(run("1", { tools: { t: { run: () => 1 } as unknown as HostTool } })).rejects.toThrow(
      /tool "t" must be a function of one argument object, or an object with an execute function/,
    );
    await expect(
      run("1", { tools: { t: { execute: () => 1, validate: true } as unknown as HostTool } }),
    ).rejects.toBeInstanceOf(LispError);
  });
});

describe("tool names", () => {
  test("a program may write - for _ (and _ for -) when one tool matches", async () => {
    const result = await run("[(count (tool/list-orders {})) (tool/get_customer {:id 7})]", {
      tools: { list_orders: () => [1, 2, 3], "get-customer": (args) => args.id },
    });
    expect(result.ok && format(result.value)).toBe("[3 7]");
    expect(result.toolCalls.map((call) => call.name)).toEqual(["list_orders", "get-customer"]);
  });

  test("an unknown tool names the nearest one for the model", async () => {
    const result = await run("(tool/list-order {})", { tools: { list_orders: () => [] } });
    expect(!result.ok && result.error).toMatchObject({
      reason: "unknown_tool",
      message: "Unknown tool: list-order. Did you mean tool/list_orders? Available tools: list_orders",
    });
  });
});
