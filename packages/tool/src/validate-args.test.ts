import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createTool, validateToolArgs } from "./index.js";

const noop = () => null;

describe("validateToolArgs", () => {
  it("uses the Standard Schema, returning its (possibly transformed) value or its issues with paths", async () => {
    const tool = createTool("t", {
      execute: noop,
      parameters: z.object({ n: z.coerce.number(), tags: z.array(z.string()) }),
    });
    expect(await validateToolArgs(tool, { n: "2", tags: [] })).toEqual({
      ok: true,
      value: { n: 2, tags: [] },
    });
    const failed = await validateToolArgs(tool, { n: 1, tags: ["a", 3] });
    expect(failed).toMatchObject({ ok: false, issues: [{ path: ["tags", 1] }] });
    expect(failed.ok ? "" : failed.message).toMatch(/^tags\.1: /);
  });

  it("uses the signature's parameters otherwise", async () => {
    const tool = createTool("t", { execute: noop, signature: "(query :string) -> :any" });
    expect(await validateToolArgs(tool, { query: "x" })).toEqual({ ok: true, value: { query: "x" } });
    expect(await validateToolArgs(tool, {})).toEqual({
      ok: false,
      issues: [{ path: ["query"], message: "expected field, got nil" }],
      message: "query: expected field, got nil",
    });
  });

  it("accepts anything for a tool without schema or signature", async () => {
    expect(await validateToolArgs(createTool("t", noop), [1])).toEqual({ ok: true, value: [1] });
  });

  it("is what each tool's validate method does, synchronously for a signature", () => {
    const tool = createTool("t", { execute: noop, signature: "(query :string) -> :any" });
    expect(tool.validate({ query: "x" })).toEqual({ ok: true, value: { query: "x" } });
    expect(tool.validate({ query: 1 })).toMatchObject({
      ok: false,
      message: "query: expected string, got int",
    });
  });

  it("uses the schema through validate, returning its output", () => {
    const tool = createTool("t", { execute: noop, parameters: z.object({ n: z.coerce.number() }) });
    expect(tool.validate({ n: "3" })).toEqual({ ok: true, value: { n: 3 } });
  });

  it("still reads the tool it is called on when the tool is copied", () => {
    const tool = createTool("t", { execute: noop, signature: "(n :int) -> :any" });
    const copy = { ...tool, execute: () => 1 };
    expect(copy.validate({ n: "x" })).toMatchObject({ ok: false, message: "n: expected int, got string" });
  });
});
