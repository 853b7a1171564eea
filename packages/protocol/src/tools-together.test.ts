/**
 * @ptc/tool's tools run in @ptc/lisp as they are: `run(source, { tools: createTools(...) })`.
 * Neither package depends on the other; this package depends on both, so the glue is proven here.
 */
import { format, run } from "@ptc/lisp";
import { createTools } from "@ptc/tool";
import { describe, expect, test } from "vitest";

const orders = [
  { id: 1, status: "paid", amount: 120 },
  { id: 2, status: "refunded", amount: 80 },
  { id: 3, status: "paid", amount: 30 },
];

/** A minimal Standard Schema (what zod, valibot and arktype implement) for `{ limit?: number }`. */
const limitSchema = {
  "~standard": {
    version: 1 as const,
    vendor: "test",
    validate: (value: unknown) => {
      const input = value as { limit?: unknown };
      if (input.limit !== undefined && typeof input.limit !== "number")
        return { issues: [{ message: "expected a number", path: ["limit"] }] };
      return { value: { limit: (input.limit as number | undefined) ?? 2 } };
    },
    jsonSchema: {
      input: () => ({ type: "object", properties: { limit: { type: "number" } } }),
    },
  },
};

const tools = createTools({
  list_orders: {
    execute: async ({ status }: { status: string }) => orders.filter((order) => order.status === status),
    signature: "(status :string) -> [{id :int, status :string, amount :int}]",
  },
  recent: {
    parameters: limitSchema,
    execute: ({ limit }: { limit: number }) => orders.slice(0, limit),
  },
});

describe("@ptc/tool tools in @ptc/lisp", () => {
  test("run takes createTools(...) as its tools", async () => {
    const result = await run('(sum-by :amount (tool/list-orders {:status "paid"}))', { tools });
    expect(result.ok && result.value).toBe(150);
    expect(result.toolCalls.map((call) => call.name)).toEqual(["list_orders"]);
  });

  test("a program's arguments are checked against the signature before the tool runs", async () => {
    const result = await run("(tool/list_orders {:status 1})", { tools });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("invalid_tool_args");
    expect(result.error.message).toBe(
      "tool/list_orders was called with arguments that do not fit: status: expected string, got int. Its signature: (status :string) -> [{id :int, status :string, amount :int}]",
    );
  });

  test("a missing argument is reported the same way", async () => {
    const result = await run("(tool/list_orders {})", { tools });
    expect(!result.ok && result.error.message).toMatch(/status: expected field, got nil/);
  });

  test("a Standard Schema checks the arguments, and its output (defaults applied) reaches the tool", async () => {
    const result = await run("(count (tool/recent {}))", { tools });
    expect(result.ok && result.value).toBe(2);
    const wrong = await run('(tool/recent {:limit "all"})', { tools });
    expect(!wrong.ok && wrong.error).toMatchObject({
      reason: "invalid_tool_args",
      message: expect.stringContaining("limit: expected a number"),
    });
  });

  test("results print as program values", async () => {
    const result = await run('(map :id (tool/list_orders {:status "paid"}))', { tools });
    expect(result.ok && format(result.value)).toBe("[1 3]");
  });
});
