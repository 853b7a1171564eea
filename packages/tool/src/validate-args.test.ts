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
});
