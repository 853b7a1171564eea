import { describe, expect, it } from "vitest";
import { validateProgram } from "./validate-program.js";

describe("validateProgram", () => {
  it("accepts a non-empty program string as is", () => {
    expect(validateProgram("(+ 1 2)")).toEqual({ ok: true, program: "(+ 1 2)" });
  });

  it.each([
    [undefined, "lisp_eval requires a non-empty `program` string argument."],
    [null, "lisp_eval requires a non-empty `program` string argument."],
    [123, "lisp_eval `program` must be a string, got 123."],
    [["(+ 1 2)"], 'lisp_eval `program` must be a string, got ["(+ 1 2)"].'],
    ["   \n\t", "lisp_eval `program` must be a non-empty string."],
  ])("rejects %j as an args_error", (program, message) => {
    expect(validateProgram(program)).toEqual({ ok: false, reason: "args_error", message });
  });

  it("quotes at most 200 characters of a program that is not a string, whatever it is", () => {
    const huge = validateProgram(Array.from({ length: 100_000 }, (_, index) => index));
    expect(huge.ok).toBe(false);
    if (huge.ok) return;
    expect(huge.message.length).toBeLessThan(300);
    expect(huge.message).toMatch(
      /^lisp_eval `program` must be a string, got \[0,1,2,.*\.\.\. \(\d+ characters\)\.$/,
    );
    const cyclic: Record<string, unknown> = Object.create(null);
    cyclic.self = cyclic;
    expect(validateProgram(cyclic)).toEqual({
      ok: false,
      reason: "args_error",
      message: "lisp_eval `program` must be a string, got a value with no text form.",
    });
  });
});
