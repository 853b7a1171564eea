/**
 * A run given the same tools object as the run before takes the map checked then
 * (tool-options.ts, normalizeTools), unless the object changed: these runs change it in every
 * way a host can between runs and check that each change is seen, as a new object would be.
 */
import { describe, expect, test } from "vitest";
import { format, type HostTool, run, type ToolObject } from "../index.js";
import { toolOptionsStats } from "./tool-options.js";

/** `run` with `tools`, and whether it took the map checked by the run before. */
async function runWith(source: string, options: Parameters<typeof run>[1]) {
  const before = toolOptionsStats.reused;
  const result = await run(source, options);
  return { result, reused: toolOptionsStats.reused > before };
}

describe("the tools of the run before, given again", () => {
  test("the same unchanged object is checked once, and its tools answer as before", async () => {
    const tools: Record<string, HostTool> = { one: () => 1, two: { execute: () => 2 } };
    const first = await runWith("[(tool/one {}) (tool/two {})]", { tools });
    const second = await runWith("[(tool/one {}) (tool/two {})]", { tools });
    expect(second.reused).toBe(true);
    expect(first.result.ok && format(first.result.value)).toBe("[1 2]");
    expect(second.result.ok && format(second.result.value)).toBe("[1 2]");
    expect(second.result.toolCalls).toEqual(
      first.result.toolCalls.map((call) => ({ ...call, durationMs: expect.any(Number) })),
    );
  });

  test("a tool replaced in the same object is the one called", async () => {
    const tools: Record<string, HostTool> = { t: () => "old" };
    await run("(tool/t {})", { tools });
    tools.t = () => "new";
    const { result, reused } = await runWith("(tool/t {})", { tools });
    expect(reused).toBe(false);
    expect(result.ok && result.value).toBe("new");
  });

  test("a tool added to the same object can be called, and one deleted is unknown", async () => {
    const tools: Record<string, HostTool> = { a: () => 1 };
    await run("(tool/a {})", { tools });
    tools.b = () => 2;
    const added = await runWith("(tool/b {})", { tools });
    expect(added.reused).toBe(false);
    expect(added.result.ok && added.result.value).toBe(2);
    delete tools.a;
    const deleted = await runWith("(tool/a {})", { tools });
    expect(deleted.reused).toBe(false);
    expect(!deleted.result.ok && deleted.result.error.reason).toBe("unknown_tool");
  });

  test("a tool object whose execute was replaced by a non-function is refused again", async () => {
    const tool = { execute: () => 1 } as ToolObject;
    const tools = { t: tool };
    expect((await run("(tool/t {})", { tools })).ok).toBe(true);
    (tool as { execute: unknown }).execute = "not a function";
    await expect(run("(tool/t {})", { tools })).rejects.toThrow(/tool "t" must be a function/);
    (tool as { execute: unknown }).execute = () => 3;
    const { result } = await runWith("(tool/t {})", { tools });
    expect(result.ok && result.value).toBe(3);
  });

  test("a validate added to a tool object later runs, and a bad one is refused", async () => {
    const tool: { execute: () => number; validate?: unknown } = { execute: () => 1 };
    const tools = { t: tool as ToolObject };
    await run("(tool/t {})", { tools });
    tool.validate = () => ({ ok: false, message: "no" });
    const refused = await runWith("(tool/t {})", { tools });
    expect(refused.reused).toBe(true);
    expect(!refused.result.ok && refused.result.error.reason).toBe("invalid_tool_args");
    tool.validate = 42;
    await expect(run("(tool/t {})", { tools })).rejects.toThrow(/validate must be a function/);
  });

  test("a Map of tools changed between runs is seen", async () => {
    const tools = new Map<string, HostTool>([["t", () => "first"]]);
    const first = await runWith("(tool/t {})", { tools });
    const again = await runWith("(tool/t {})", { tools });
    expect(again.reused).toBe(true);
    expect(first.result.ok && again.result.ok && again.result.value).toBe("first");
    tools.set("t", () => "second");
    const replaced = await runWith("(tool/t {})", { tools });
    expect(replaced.reused).toBe(false);
    expect(replaced.result.ok && replaced.result.value).toBe("second");
    tools.set("u", () => "added");
    const added = await runWith("(tool/u {})", { tools });
    expect(added.result.ok && added.result.value).toBe("added");
    tools.delete("u");
    const deleted = await runWith("(tool/u {})", { tools });
    expect(!deleted.result.ok && deleted.result.error.reason).toBe("unknown_tool");
  });

  test("another object with the same tools is checked afresh; keys reordered are a change", async () => {
    const one = () => 1;
    const two = () => 2;
    await run("1", { tools: { one, two } });
    const other = await runWith("(tool/two {})", { tools: { one, two } });
    expect(other.reused).toBe(false);
    expect(other.result.ok && other.result.value).toBe(2);
    const tools: Record<string, HostTool> = { one, two };
    await run("1", { tools });
    delete tools.one;
    tools.one = one;
    const reordered = await runWith("(tool/one {})", { tools });
    expect(reordered.reused).toBe(false);
    expect(reordered.result.ok && reordered.result.value).toBe(1);
  });

  test("an inherited enumerable tool is never taken, as with a new object", async () => {
    const proto = { inherited: () => "from the prototype" };
    const tools = Object.create(proto) as Record<string, HostTool>;
    tools.own = () => "own";
    const first = await runWith("(tool/inherited {})", { tools });
    const second = await runWith("(tool/inherited {})", { tools });
    expect(second.reused).toBe(false);
    for (const { result } of [first, second]) expect(!result.ok && result.error.reason).toBe("unknown_tool");
  });

  test("the same tools through runs with and without tools in between", async () => {
    const tools = { t: () => "t" };
    await run("(tool/t {})", { tools });
    expect((await run("1")).ok).toBe(true);
    const { result, reused } = await runWith("(tool/t {})", { tools });
    expect(reused).toBe(true);
    expect(result.ok && result.value).toBe("t");
  });
});
